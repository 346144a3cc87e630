package org.apache.hadoop.hdfs.server.namenode;

import java.io.IOException;
import java.net.URI;
import java.util.Collection;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.server.common.Storage;
import org.apache.hadoop.hdfs.server.common.StorageInfo;
import org.apache.hadoop.hdfs.server.protocol.NamespaceInfo;

/**
 * The only journal of an NVM NameNode: it keeps FSEditLog's state machine (segments, transaction
 * ids, sync) working while writing nothing anywhere. Namespace durability comes from the region
 * ({@link NvmFSEditLog} persists inode state before the RPC answers); this journal never creates a
 * file and offers nothing to replay.
 *
 * <p>Installed through the JournalManager plugin mechanism ({@code
 * dfs.namenode.edits.journal-plugin.nvmnull}) in a private copy of the configuration that only the
 * NVM edit log sees.
 */
public final class NullJournalManager implements JournalManager {
  public static final String SCHEME = "nvmnull";
  public static final URI URI_ = URI.create(SCHEME + ":/namespace");

  private final URI uri;

  public NullJournalManager(Configuration conf, URI uri, NamespaceInfo nsInfo) {
    this.uri = uri;
  }

  @Override
  public void format(NamespaceInfo ns) {}

  @Override
  public boolean hasSomeData() {
    return false;
  }

  @Override
  public EditLogOutputStream startLogSegment(long txId, int layoutVersion) throws IOException {
    return new NullOutputStream();
  }

  @Override
  public void finalizeLogSegment(long firstTxId, long lastTxId) {}

  @Override
  public void setOutputBufferCapacity(int size) {}

  @Override
  public void recoverUnfinalizedSegments() {}

  @Override
  public void doPreUpgrade() throws IOException {
    throw new IOException("upgrade is not supported by the NVM NameNode");
  }

  @Override
  public void doUpgrade(Storage storage) throws IOException {
    throw new IOException("upgrade is not supported by the NVM NameNode");
  }

  @Override
  public void doFinalize() {}

  @Override
  public boolean canRollBack(
      StorageInfo storage, StorageInfo prevStorage, int targetLayoutVersion) {
    return false;
  }

  @Override
  public void doRollback() throws IOException {
    throw new IOException("rollback is not supported by the NVM NameNode");
  }

  @Override
  public long getJournalCTime() {
    return 0;
  }

  @Override
  public void discardSegments(long startTxId) {}

  @Override
  public void purgeLogsOlderThan(long minTxIdToKeep) {}

  @Override
  public void selectInputStreams(
      Collection<EditLogInputStream> streams, long fromTxId, boolean inProgressOk) {}

  @Override
  public void close() {}

  @Override
  public String toString() {
    return "NullJournalManager(" + uri + ")";
  }

  /** Discards every op; flush and sync do nothing. */
  static final class NullOutputStream extends EditLogOutputStream {
    NullOutputStream() throws IOException {
      super();
    }

    @Override
    public void write(FSEditLogOp op) {}

    @Override
    public void writeRaw(byte[] bytes, int offset, int length) {}

    @Override
    public void create(int layoutVersion) {}

    @Override
    public void close() {}

    @Override
    public void abort() {}

    @Override
    public void setReadyToFlush() {}

    @Override
    protected void flushAndSync(boolean durable) {}
  }
}
