package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.DI_SNAPSHOTTABLE;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The {@code dump} line of an inode given by its values rather than read from a region, so that a
 * namespace held elsewhere (e.g. the one the import loaded from an fsimage) can be compared line by
 * line with {@link NamespaceDump#lines()} of a region. Same format and escaping as the dump
 * (docs/offline-tools.md); a null string is "none".
 */
public final class InodeLine {
  private final String path;
  private final long id;
  private final int mode;
  private final String owner;
  private final String group;
  private final long mtime;
  private final long atime;
  private final List<AttributeEncoding.AclEntry> acl = new ArrayList<AttributeEncoding.AclEntry>();
  private final List<AttributeEncoding.XAttr> xattrs = new ArrayList<AttributeEncoding.XAttr>();

  private InodeLine(
      String path, long id, int mode, String owner, String group, long mtime, long atime) {
    this.path = path;
    this.id = id;
    this.mode = mode;
    this.owner = owner;
    this.group = group;
    this.mtime = mtime;
    this.atime = atime;
  }

  /** The fields every inode has; {@link #directory} or {@link #file} adds the rest. */
  public static InodeLine of(
      String path, long id, int mode, String owner, String group, long mtime, long atime) {
    return new InodeLine(path, id, mode, owner, group, mtime, atime);
  }

  /**
   * Adds an ACL entry, in the inode's order: {@code scope} "access" or "default", {@code type}
   * "user", "group", "mask" or "other" (HDFS's names, any case), {@code name} null for an unnamed
   * entry, {@code permission} the rwx bits (4 read, 2 write, 1 execute).
   */
  public InodeLine aclEntry(String scope, String type, String name, int permission) {
    acl.add(
        new AttributeEncoding.AclEntry(
            code(AttributeEncoding.SCOPES, scope),
            code(AttributeEncoding.TYPES, type),
            permission,
            name));
    return this;
  }

  /**
   * Adds an xattr, in the inode's order: {@code namespace} as HDFS prefixes its name ("user",
   * "trusted", "security", "system", "raw"; any case), {@code value} null for none.
   */
  public InodeLine xattr(String namespace, String name, byte[] value) {
    xattrs.add(
        new AttributeEncoding.XAttr(code(AttributeEncoding.NAMESPACES, namespace), name, value));
    return this;
  }

  private static int code(String[] names, String name) {
    for (int i = 0; i < names.length; i++) {
      if (names[i].equalsIgnoreCase(name)) {
        return i;
      }
    }
    throw new IllegalArgumentException(name + " is none of " + Arrays.toString(names));
  }

  private InodeRecord record(boolean directory) {
    InodeRecord r = new InodeRecord(path, id, directory, mode, owner, group, mtime, atime);
    if (!acl.isEmpty() || !xattrs.isEmpty()) {
      r.attributes = AttributeEncoding.of(acl, xattrs);
    }
    return r;
  }

  /** A symlink line: its target as the dump shows it. */
  public String symlink(String target) {
    InodeRecord r = record(false);
    r.symlink = true;
    r.target = target;
    return r.text();
  }

  /** A directory line; {@code typeQuota} in DI_TYPE_QUOTA order (RAM_DISK, SSD, DISK, ARCHIVE). */
  public String directory(long nsQuota, long dsQuota, long[] typeQuota, int storagePolicy) {
    return directory(nsQuota, dsQuota, typeQuota, storagePolicy, false);
  }

  /** A directory line, snapshots allowed on it or not. */
  public String directory(
      long nsQuota, long dsQuota, long[] typeQuota, int storagePolicy, boolean snapshottable) {
    InodeRecord r = record(true);
    r.snapshotWord = snapshottable ? DI_SNAPSHOTTABLE : 0;
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
  public String file(
      int replication,
      long preferredBlockSize,
      int storagePolicy,
      String clientName,
      String clientMachine,
      long[] blocks) {
    InodeRecord r = record(false);
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
