package org.nvmnn.workload;

import java.io.IOException;
import java.util.Arrays;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSClient;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;

/**
 * Decides, after the NameNode is back, whether an operation whose call failed took effect. Each
 * operation has exactly two acceptable outcomes, "done" and "not done", told apart by state only
 * that operation changes; anything in between is reported as not all-or-nothing. Looks only at the
 * operation's own paths: the full verification that follows checks the rest (e.g. that a rename
 * that did not happen left the source's subtree intact, that a snapshot found created holds the
 * state before it, that one whose delete did not happen is intact).
 */
final class InDoubtResolver {
  enum Outcome {
    DONE,
    NOT_DONE,
    NOT_ALL_OR_NOTHING,
    ACKNOWLEDGED_STEP_LOST
  }

  static final class Resolution {
    final Outcome outcome;
    final String detail;

    /** CREATE done: the length the file ended with after lease recovery. */
    final long createdLength;

    Resolution(Outcome outcome, String detail, long createdLength) {
      this.outcome = outcome;
      this.detail = detail;
      this.createdLength = createdLength;
    }
  }

  private static final long LEASE_RECOVERY_TIMEOUT_MS = 180000;

  private final DistributedFileSystem fs;
  private final SubtreeReader reader;

  InDoubtResolver(DistributedFileSystem fs, SubtreeReader reader) {
    this.fs = fs;
    this.reader = reader;
  }

  Resolution resolve(SubtreeModel model, Op op) throws IOException {
    DFSClient c = fs.getClient();
    HdfsFileStatus st = c.getFileInfo(op.path);
    switch (op.kind) {
      case MKDIR:
        if (st == null) return of(Outcome.NOT_DONE, "absent");
        return st.isDir()
            ? of(Outcome.DONE, "exists")
            : of(Outcome.NOT_ALL_OR_NOTHING, "a file, not a directory");
      case CREATE:
        return resolveCreate(op, st);
      case RENAME:
      case RENAME_OLD_API:
      case RENAME_OVERWRITE:
        {
          boolean src = st != null;
          boolean dst = c.getFileInfo(op.target) != null;
          // the source name is never reused: it exists iff the rename did not happen
          if (src && (op.kind == Op.Kind.RENAME_OVERWRITE || !dst))
            return of(Outcome.NOT_DONE, "source still there");
          if (!src && dst) return of(Outcome.DONE, "source gone, destination there");
          return of(
              Outcome.NOT_ALL_OR_NOTHING,
              "source "
                  + (src ? "exists" : "absent")
                  + ", destination "
                  + (dst ? "exists" : "absent"));
        }
      case DELETE:
        return st == null ? of(Outcome.DONE, "absent") : of(Outcome.NOT_DONE, "still there");
      case SET_PERMISSION:
        return compare(
            st,
            st == null ? 0 : st.getPermission().toShort(),
            op.value,
            model.get(op.path).permission);
      case SET_REPLICATION:
        return compare(
            st, st == null ? 0 : st.getReplication(), op.value, model.get(op.path).replication);
      case SET_TIMES:
        ModelNode n = model.get(op.path);
        if (n.mtime < 0) {
          // mtime not tracked yet: any value other than the new one means "not done"
          return st != null && st.getModificationTime() == op.value
              ? of(Outcome.DONE, "new mtime")
              : of(Outcome.NOT_DONE, "other mtime");
        }
        return compare(st, st == null ? 0 : st.getModificationTime(), op.value, n.mtime);
      case CREATE_SNAPSHOT:
      case DELETE_SNAPSHOT:
        return snapshotOutcome(op, st != null, false);
      case RENAME_SNAPSHOT:
        return snapshotOutcome(op, st != null, c.getFileInfo(op.target) != null);
      default:
        throw new IllegalArgumentException(op.kind.name());
    }
  }

  /**
   * A snapshot operation from which snapshot paths exist: pathThere for op.path (the snapshot
   * created, deleted, or renamed from), targetThere for a rename's new path. Names are never
   * reused, so each path exists only if the operation did (create, rename's target) or did not
   * (delete, rename's source) happen; a rename must leave exactly one of its two names.
   */
  static Resolution snapshotOutcome(Op op, boolean pathThere, boolean targetThere) {
    switch (op.kind) {
      case CREATE_SNAPSHOT:
        return pathThere ? of(Outcome.DONE, "snapshot there") : of(Outcome.NOT_DONE, "absent");
      case DELETE_SNAPSHOT:
        return pathThere ? of(Outcome.NOT_DONE, "still there") : of(Outcome.DONE, "gone");
      case RENAME_SNAPSHOT:
        if (pathThere && !targetThere) return of(Outcome.NOT_DONE, "under the old name");
        if (!pathThere && targetThere) return of(Outcome.DONE, "under the new name");
        return of(
            Outcome.NOT_ALL_OR_NOTHING,
            (pathThere ? "under both names" : "under neither name") + " after the rename");
      default:
        throw new IllegalArgumentException(op.kind.name());
    }
  }

  /**
   * For a missing path, "not done": the verification reports the missing path against the op that
   * placed it.
   */
  private static Resolution compare(HdfsFileStatus st, long seen, long wanted, long before) {
    if (st == null) return of(Outcome.NOT_DONE, "path absent");
    if (seen == wanted) return of(Outcome.DONE, "new value");
    if (seen == before) return of(Outcome.NOT_DONE, "old value");
    return of(
        Outcome.NOT_ALL_OR_NOTHING,
        "value " + seen + " is neither old " + before + " nor new " + wanted);
  }

  /**
   * Absent: not done (unless create() itself had returned). Present: recover the lease if it is
   * still open, then accept the length it ends with if the bytes are a prefix of what was written.
   */
  private Resolution resolveCreate(Op op, HdfsFileStatus st) throws IOException {
    if (st == null) {
      return op.createAcknowledged
          ? of(Outcome.ACKNOWLEDGED_STEP_LOST, "create() had returned, the file is gone")
          : of(Outcome.NOT_DONE, "absent");
    }
    if (st.isDir()) return of(Outcome.NOT_ALL_OR_NOTHING, "a directory, not a file");
    if (op.inodeId >= 0 && st.getFileId() != op.inodeId) {
      return of(
          Outcome.NOT_ALL_OR_NOTHING,
          "inode id " + st.getFileId() + ", create() returned " + op.inodeId);
    }
    Path p = new Path(op.path);
    boolean wasOpen = !fs.isFileClosed(p);
    LeaseRecovery.ensureClosed(fs, p, LEASE_RECOVERY_TIMEOUT_MS);
    long len = fs.getClient().getFileInfo(op.path).getLen();
    byte[] got = reader.readAll(op.path);
    byte[] written = FileContent.bytes(op.value, op.length);
    if (got.length != len
        || len > op.length
        || !Arrays.equals(got, Arrays.copyOf(written, (int) len))) {
      return of(
          Outcome.NOT_ALL_OR_NOTHING,
          "length "
              + len
              + ", "
              + got.length
              + " bytes read: not a prefix of the "
              + op.length
              + " bytes written");
    }
    op.inodeId = st.getFileId();
    return new Resolution(
        Outcome.DONE,
        (wasOpen ? "was open, lease recovered, " : "closed, ")
            + len
            + " of "
            + op.length
            + " bytes",
        len);
  }

  private static Resolution of(Outcome o, String detail) {
    return new Resolution(o, detail, -1);
  }
}
