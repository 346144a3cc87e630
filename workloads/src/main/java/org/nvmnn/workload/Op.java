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
    SET_TIMES
  }

  /** "t<thread>#<seq>", unique in a run. */
  final String id;

  final Kind kind;
  final String path;

  /** Rename destination; null for the other kinds. */
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
      default:
        String name = kind.name().toLowerCase().replace('_', '-');
        return id + " " + name + " " + path + (target == null ? "" : " " + target);
    }
  }
}
