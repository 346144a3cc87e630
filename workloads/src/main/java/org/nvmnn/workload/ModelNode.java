package org.nvmnn.workload;

/**
 * The expected state of one path in a worker's subtree, and for each part of that state the id of
 * the operation it comes from (so a mismatch can be blamed on an operation).
 */
final class ModelNode {
  final boolean dir;
  short permission;

  /** Files only. */
  short replication;

  long length;
  long crc;

  /** Seed of the generated content; kept across renames, the path does not determine it. */
  long contentSeed;

  /** Set by setTimes; -1 = the modification time is not checked. */
  long mtime = -1;

  /** -1 until learned (from the output stream or the first verification). */
  long inodeId = -1;

  /**
   * The operation that put this node at its current path: its create/mkdir, or a rename of it or of
   * an ancestor.
   */
  String placedBy;

  String permissionBy;
  String replicationBy;
  String contentBy;
  String mtimeBy;

  private ModelNode(boolean dir, short permission, String op) {
    this.dir = dir;
    this.permission = permission;
    this.placedBy = op;
    this.permissionBy = op;
  }

  static ModelNode directory(short permission, String op) {
    return new ModelNode(true, permission, op);
  }

  /** An independent copy (a snapshot's copy must not follow later changes of the live node). */
  ModelNode copy() {
    ModelNode n = new ModelNode(dir, permission, placedBy);
    n.replication = replication;
    n.length = length;
    n.crc = crc;
    n.contentSeed = contentSeed;
    n.mtime = mtime;
    n.inodeId = inodeId;
    n.permissionBy = permissionBy;
    n.replicationBy = replicationBy;
    n.contentBy = contentBy;
    n.mtimeBy = mtimeBy;
    return n;
  }

  static ModelNode file(
      short permission, short replication, long length, long crc, long seed, String op) {
    ModelNode n = new ModelNode(false, permission, op);
    n.replication = replication;
    n.length = length;
    n.crc = crc;
    n.contentSeed = seed;
    n.replicationBy = op;
    n.contentBy = op;
    return n;
  }
}
