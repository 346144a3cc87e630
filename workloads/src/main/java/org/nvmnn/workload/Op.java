package org.nvmnn.workload;

/**
 * One client operation of the workload, as chosen, plus what the client learned while running it.
 */
final class Op {
  enum Kind {
    MKDIR,
    CREATE,
    RENAME,
    RENAME_OLD_API,
    RENAME_OVERWRITE,
    DELETE,
    SET_PERMISSION,
    SET_REPLICATION,
    SET_TIMES,
    CREATE_SNAPSHOT,
    RENAME_SNAPSHOT,
    DELETE_SNAPSHOT
  }

  /** The directory under a snapshottable directory whose entries are its snapshots. */
  private static final String DOT_SNAPSHOT = "/.snapshot";

  /** "t<thread>#<seq>", unique in a run. */
  final String id;

  final Kind kind;

  /**
   * The snapshot ops: the snapshot's path, "<root>/.snapshot/<name>" (RENAME_SNAPSHOT: the old
   * one).
   */
  final String path;

  /** Rename destination (RENAME_SNAPSHOT: the snapshot's new path); null for the other kinds. */
  final String target;

  /** CREATE: content seed; SET_PERMISSION: mode; SET_REPLICATION: replication; SET_TIMES: mtime. */
  final long value;

  /** CREATE: bytes written. */
  final int length;

  /** CREATE: create() returned, so the file must exist whatever happens to write/close. */
  boolean createAcknowledged;

  /** CREATE: the new file's inode id, from the output stream. */
  long inodeId = -1;

  Op(String id, Kind kind, String path, String target, long value, int length) {
    this.id = id;
    this.kind = kind;
    this.path = path;
    this.target = target;
    this.value = value;
    this.length = length;
  }

  boolean isRename() {
    return kind == Kind.RENAME || kind == Kind.RENAME_OLD_API || kind == Kind.RENAME_OVERWRITE;
  }

  boolean isSnapshotOp() {
    return kind == Kind.CREATE_SNAPSHOT
        || kind == Kind.RENAME_SNAPSHOT
        || kind == Kind.DELETE_SNAPSHOT;
  }

  /** "<root>/.snapshot", which lists the snapshots of the snapshottable directory root. */
  static String dotSnapshot(String root) {
    return root + DOT_SNAPSHOT;
  }

  /** "<root>/.snapshot/<name>": a snapshot of the snapshottable directory root. */
  static String snapshotPath(String root, String name) {
    return dotSnapshot(root) + "/" + name;
  }

  /** The snapshottable directory of a snapshot path. */
  static String snapshotRoot(String snapshotPath) {
    return snapshotPath.substring(0, snapshotPath.lastIndexOf(DOT_SNAPSHOT + "/"));
  }

  /** The snapshot's name in a snapshot path (its last component). */
  static String snapshotName(String snapshotPath) {
    return snapshotPath.substring(snapshotPath.lastIndexOf('/') + 1);
  }

  @Override
  public String toString() {
    switch (kind) {
      case CREATE:
        return id + " create " + path + " " + length + "B";
      case SET_PERMISSION:
        return id + " setPermission " + path + " " + Integer.toOctalString((int) value);
      case SET_REPLICATION:
        return id + " setReplication " + path + " " + value;
      case SET_TIMES:
        return id + " setTimes " + path + " mtime=" + value;
      case CREATE_SNAPSHOT:
        return id + " createSnapshot " + path;
      case RENAME_SNAPSHOT:
        return id + " renameSnapshot " + path + " " + target;
      case DELETE_SNAPSHOT:
        return id + " deleteSnapshot " + path;
      default:
        String name = kind.name().toLowerCase().replace('_', '-');
        return id + " " + name + " " + path + (target == null ? "" : " " + target);
    }
  }
}
