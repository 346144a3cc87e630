package org.nvmnn.workload.ha;

import java.io.IOException;
import java.util.Arrays;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.nvmnn.workload.LeaseRecovery;

/**
 * Decides from the namespace what became of an operation whose call failed. Only the thread that
 * issued it touches its paths, and a created name is never used again, so the paths alone tell: a
 * create's file is there with all its bytes (done), absent (not done) or there with fewer (partial,
 * after its lease is recovered); a rename's source is gone and its target there (done), or the
 * other way round (not done).
 */
final class OutcomeResolver {
  private static final long ANSWER_TIMEOUT_MS = 180000;
  private static final long LEASE_RECOVERY_TIMEOUT_MS = 120000;

  private final DistributedFileSystem fs;

  OutcomeResolver(DistributedFileSystem fs) {
    this.fs = fs;
  }

  Resolution resolve(LoadOp op) throws IOException {
    return UntilAnswered.run(
        () -> op.kind == LoadOp.Kind.CREATE ? resolveCreate(op) : resolveRename(op),
        ANSWER_TIMEOUT_MS);
  }

  private Resolution resolveCreate(LoadOp op) throws IOException {
    HdfsFileStatus st = fs.getClient().getFileInfo(op.path);
    if (st == null) {
      return new Resolution(Outcome.NOT_DONE, "absent");
    }
    if (st.isDir()) {
      return new Resolution(Outcome.INCONSISTENT, "a directory");
    }
    boolean wasOpen = !fs.isFileClosed(new Path(op.path));
    LeaseRecovery.ensureClosed(fs, new Path(op.path), LEASE_RECOVERY_TIMEOUT_MS);
    byte[] got = FileReader.readAll(fs, op.path);
    String how = (wasOpen ? "was open, lease recovered, " : "closed, ") + got.length + " bytes";
    if (Arrays.equals(got, NamedContent.of(op.path, op.length))) {
      return new Resolution(Outcome.DONE, how);
    }
    byte[] prefix = Arrays.copyOf(NamedContent.of(op.path, op.length), got.length);
    return got.length < op.length && Arrays.equals(got, prefix)
        ? new Resolution(Outcome.PARTIAL, how + " of " + op.length)
        : new Resolution(Outcome.INCONSISTENT, how + ", not a prefix of the content");
  }

  private Resolution resolveRename(LoadOp op) throws IOException {
    boolean source = fs.getClient().getFileInfo(op.path) != null;
    boolean target = fs.getClient().getFileInfo(op.target) != null;
    if (!source && target) {
      return new Resolution(Outcome.DONE, "source gone, target there");
    }
    if (source && !target) {
      return new Resolution(Outcome.NOT_DONE, "source there, target absent");
    }
    return new Resolution(
        Outcome.INCONSISTENT,
        "source " + (source ? "there" : "absent") + ", target " + (target ? "there" : "absent"));
  }
}
