package org.apache.hadoop.hdfs.server.namenode;

import java.io.IOException;

/**
 * An edit stream from the shared journal, as an HA standby's loader reads it, that tells {@link
 * NvmEditApplier} when each op is applied. 2.7.3's loader ({@code FSEditLogLoader.loadEditRecords})
 * reads an op, applies it, and only then reads the next one, stopping at the first op it fails to
 * apply; so when it asks for op N+1 (or reaches the end), op N has been applied. The applier
 * persists op N then, before the next op is read: readers may reuse an op object for the next op of
 * the same kind. Everything else is the wrapped stream's.
 */
final class NvmTailedEditStream extends EditLogInputStream {
  private final EditLogInputStream in;
  private final NvmEditApplier applier;
  private FSEditLogOp applying;

  NvmTailedEditStream(EditLogInputStream in, NvmEditApplier applier) {
    this.in = in;
    this.applier = applier;
  }

  @Override
  public FSEditLogOp readOp() throws IOException {
    FSEditLogOp done = applying;
    applying = null;
    if (done != null) {
      applier.after(done);
    }
    FSEditLogOp op = in.readOp();
    if (op != null) {
      applier.before(op);
      applying = op;
    }
    return op;
  }

  @Override
  protected FSEditLogOp nextOp() throws IOException {
    return readOp();
  }

  @Override
  public void resync() {
    in.resync();
  }

  @Override
  public String getCurrentStreamName() {
    return in.getCurrentStreamName();
  }

  @Override
  public String getName() {
    return in.getName();
  }

  @Override
  public long getFirstTxId() {
    return in.getFirstTxId();
  }

  @Override
  public long getLastTxId() {
    return in.getLastTxId();
  }

  /** An op still being applied here was not: the loader stopped at it (it throws then). */
  @Override
  public void close() throws IOException {
    if (applying != null) {
      applying = null;
      applier.abandoned();
    }
    in.close();
  }

  @Override
  public int getVersion(boolean verifyVersion) throws IOException {
    return in.getVersion(verifyVersion);
  }

  @Override
  public long getPosition() {
    return in.getPosition();
  }

  @Override
  public long length() throws IOException {
    return in.length();
  }

  @Override
  public boolean isInProgress() {
    return in.isInProgress();
  }

  @Override
  public void setMaxOpSize(int maxOpSize) {
    in.setMaxOpSize(maxOpSize);
  }

  @Override
  public boolean isLocalLog() {
    return in.isLocalLog();
  }
}
