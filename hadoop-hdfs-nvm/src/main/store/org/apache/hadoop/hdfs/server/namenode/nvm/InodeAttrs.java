package org.apache.hadoop.hdfs.server.namenode.nvm;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The attributes of an inode to be created: a small builder, validated by {@link InodeStore} before
 * anything is staged. Quotas default to -1 (not set), as in HDFS.
 */
public final class InodeAttrs {
  private static final byte[] NONE = new byte[0];

  /** Final but for {@link #reset}, the one way a transaction's scratch attributes change kind. */
  boolean directory;

  long id;
  byte[] name = NONE;
  long mtime;
  long atime;
  int mode;
  String owner;
  String group;
  // files
  long preferredBlockSize;
  int replication;
  int storagePolicy;
  String clientName;
  String clientMachine;
  // directories
  long nsQuota = -1;
  long dsQuota = -1;
  final long[] typeQuotas = new long[RegionLayout.DI_TYPE_QUOTA_COUNT];
  boolean snapshottable;

  /** A symlink's target bytes; null for a file or directory. */
  byte[] symlinkTarget;

  /** The inode's attribute encoding (ACL entries, xattrs; region-format.md §5.6), empty = none. */
  byte[] attributes = NONE;

  private InodeAttrs(boolean directory) {
    this.directory = directory;
    Arrays.fill(typeQuotas, -1);
  }

  /** Back to what a new object of this kind holds ({@link Txn#newAttrs}). */
  InodeAttrs reset(boolean directory, byte[] symlinkTarget) {
    this.directory = directory;
    this.symlinkTarget = symlinkTarget;
    id = 0;
    name = NONE;
    mtime = 0;
    atime = 0;
    mode = 0;
    owner = null;
    group = null;
    preferredBlockSize = 0;
    replication = 0;
    storagePolicy = 0;
    clientName = null;
    clientMachine = null;
    nsQuota = -1;
    dsQuota = -1;
    Arrays.fill(typeQuotas, -1);
    snapshottable = false;
    attributes = NONE;
    return this;
  }

  public static InodeAttrs directory(String name) {
    return new InodeAttrs(true).name(name);
  }

  public static InodeAttrs file(String name) {
    return new InodeAttrs(false).name(name);
  }

  /** A symlink to {@code target} (its bytes as HDFS keeps them). */
  public static InodeAttrs symlink(byte[] target) {
    InodeAttrs a = new InodeAttrs(false);
    a.symlinkTarget = target;
    return a;
  }

  public boolean isSymlink() {
    return symlinkTarget != null;
  }

  /** The page kind these attributes make. */
  int kind() {
    return directory
        ? RegionLayout.KIND_DIR
        : symlinkTarget != null ? RegionLayout.KIND_SYMLINK : RegionLayout.KIND_FILE;
  }

  public boolean isDirectory() {
    return directory;
  }

  /** The inode id; 0 (the default) lets the store take SB_LAST_INODE_ID + 1. */
  public InodeAttrs id(long v) {
    id = v;
    return this;
  }

  public InodeAttrs name(String v) {
    return name(v == null ? null : v.getBytes(StandardCharsets.UTF_8));
  }

  public InodeAttrs name(byte[] v) {
    name = v;
    return this;
  }

  /** Sets both modification and access time. */
  public InodeAttrs times(long mtimeMs, long atimeMs) {
    mtime = mtimeMs;
    atime = atimeMs;
    return this;
  }

  public InodeAttrs mtime(long v) {
    mtime = v;
    return this;
  }

  public InodeAttrs atime(long v) {
    atime = v;
    return this;
  }

  /** Permission bits (16 bits, FsPermission.toShort()). */
  public InodeAttrs mode(int v) {
    mode = v;
    return this;
  }

  public InodeAttrs owner(String user, String grp) {
    owner = user;
    group = grp;
    return this;
  }

  public InodeAttrs preferredBlockSize(long v) {
    preferredBlockSize = v;
    return this;
  }

  public InodeAttrs replication(int v) {
    replication = v;
    return this;
  }

  public InodeAttrs storagePolicy(int v) {
    storagePolicy = v;
    return this;
  }

  /** A directory on which snapshots are allowed (DI_SNAPSHOT). */
  public InodeAttrs snapshottable(boolean v) {
    snapshottable = v;
    return this;
  }

  public InodeAttrs underConstruction(String client, String machine) {
    clientName = client;
    clientMachine = machine;
    return this;
  }

  public InodeAttrs quota(long ns, long ds) {
    nsQuota = ns;
    dsQuota = ds;
    return this;
  }

  public InodeAttrs typeQuota(int storageType, long v) {
    typeQuotas[storageType] = v;
    return this;
  }

  public InodeAttrs attributes(byte[] encoded) {
    attributes = encoded == null ? NONE : encoded;
    return this;
  }
}
