package org.nvmnn.workload;

/** One path as the NameNode (and, for a file's bytes, the DataNode) reported it. */
final class ObservedEntry {
  final boolean dir;
  final long inodeId;
  final short permission;
  final short replication;
  final long length;
  final long mtime;

  /** CRC32 of the bytes read back; -1 if not read (directories). */
  final long crc;

  /** A file still under construction (not closed). */
  final boolean open;

  ObservedEntry(
      boolean dir,
      long inodeId,
      short permission,
      short replication,
      long length,
      long mtime,
      long crc,
      boolean open) {
    this.dir = dir;
    this.inodeId = inodeId;
    this.permission = permission;
    this.replication = replication;
    this.length = length;
    this.mtime = mtime;
    this.crc = crc;
    this.open = open;
  }

  static ObservedEntry directory(long inodeId, short permission) {
    return new ObservedEntry(true, inodeId, permission, (short) 0, 0, 0, -1, false);
  }
}
