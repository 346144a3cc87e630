package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

/**
 * The {@code dump} line of an inode given by its values rather than read from a region, so that a
 * namespace held elsewhere (e.g. the one the import loaded from an fsimage) can be compared line by
 * line with {@link NamespaceDump#lines()} of a region. Same format and escaping as the dump
 * (docs/offline-tools.md); a null string is "none".
 */
public final class InodeLine {
  private InodeLine() {}

  /** A directory line; {@code typeQuota} in DI_TYPE_QUOTA order (RAM_DISK, SSD, DISK, ARCHIVE). */
  public static String directory(
      String path,
      long id,
      int mode,
      String owner,
      String group,
      long mtime,
      long atime,
      long nsQuota,
      long dsQuota,
      long[] typeQuota,
      int storagePolicy) {
    InodeRecord r = new InodeRecord(path, id, true, mode, owner, group, mtime, atime);
    r.nsQuota = nsQuota;
    r.dsQuota = dsQuota;
    System.arraycopy(typeQuota, 0, r.typeQuota, 0, r.typeQuota.length);
    r.storagePolicy = storagePolicy;
    return r.text();
  }

  /**
   * A file line; {@code clientName}/{@code clientMachine} null for a complete file; {@code blocks}
   * as triples (id, numBytes, generation stamp).
   */
  public static String file(
      String path,
      long id,
      int mode,
      String owner,
      String group,
      long mtime,
      long atime,
      int replication,
      long preferredBlockSize,
      int storagePolicy,
      String clientName,
      String clientMachine,
      long[] blocks) {
    InodeRecord r = new InodeRecord(path, id, false, mode, owner, group, mtime, atime);
    r.replication = replication;
    r.preferredBlockSize = preferredBlockSize;
    r.storagePolicy = storagePolicy;
    r.clientId = InodeRecord.stringId(clientName);
    r.clientName = clientName;
    r.clientMachineId = InodeRecord.stringId(clientMachine);
    r.clientMachine = clientMachine;
    r.blocks = blocks.clone();
    return r.text();
  }
}
