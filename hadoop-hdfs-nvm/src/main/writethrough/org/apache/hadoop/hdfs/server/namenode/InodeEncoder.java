package org.apache.hadoop.hdfs.server.namenode;

import java.io.IOException;
import java.util.Arrays;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockIdManager;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockInfoContiguous;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeAttrs;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout;
import org.apache.hadoop.hdfs.server.namenode.nvm.Txn;
import org.apache.hadoop.hdfs.server.namenode.snapshot.DirectorySnapshottableFeature;

/**
 * The one place that turns the NameNode's in-memory state into what a region page holds: an INode's
 * fields as {@link InodeAttrs} for a new page, its whole state staged as the changed words of an
 * existing page, and the namesystem's counters as superblock words. The write-through ({@link
 * NvmWriteThrough}) and the import ({@link NvmImportWriter}) both encode with it, so an imported
 * namespace and a written-through one are the same pages.
 */
final class InodeEncoder {
  private InodeEncoder() {}

  /**
   * Every page field of {@code n} (its attributes too) except its parent and blocks, in a new
   * object (the import's scan keeps them).
   */
  static InodeAttrs attrs(INode n) {
    InodeAttrs a =
        n.isDirectory()
            ? InodeAttrs.directory("")
            : n.isSymlink() ? InodeAttrs.symlink(n.asSymlink().getSymlink()) : InodeAttrs.file("");
    return fill(a, n);
  }

  /**
   * As {@link #attrs(INode)}, in {@code t}'s own attributes object ({@link Txn#newAttrs}): for a
   * {@link Txn#create} of {@code n} right after, which allocates nothing for them.
   */
  static InodeAttrs attrs(Txn t, INode n) {
    return fill(t.newAttrs(n.isDirectory(), n.isSymlink() ? n.asSymlink().getSymlink() : null), n);
  }

  private static InodeAttrs fill(InodeAttrs a, INode n) {
    a.name(n.getLocalNameBytes())
        .id(n.getId())
        .times(n.getModificationTime(), n.getAccessTime())
        .mode(n.getFsPermissionShort())
        .owner(n.getUserName(), n.getGroupName())
        .attributes(InodeAttributes.encode(n));
    if (n.isSymlink()) {
      return a; // a symlink has no file or directory fields
    }
    if (n.isFile()) {
      INodeFile f = n.asFile();
      a.preferredBlockSize(f.getPreferredBlockSize())
          .replication(f.getFileReplication())
          .storagePolicy(f.getLocalStoragePolicyID());
      FileUnderConstructionFeature uc = f.getFileUnderConstructionFeature();
      if (uc != null) {
        a.underConstruction(uc.getClientName(), uc.getClientMachine());
      }
    } else {
      INodeDirectory d = n.asDirectory();
      if (d.getDirectoryWithQuotaFeature() != null) { // otherwise every quota is -1 already
        long[] q = quotas(d);
        a.quota(q[0], q[1]);
        for (int i = 0; i < RegionLayout.DI_TYPE_QUOTA_COUNT; i++) {
          a.typeQuota(i, q[2 + i]);
        }
      }
      a.storagePolicy(d.getLocalStoragePolicyID() & 0xff).snapshottable(snapshottable(d));
    }
    return a;
  }

  /**
   * Whether {@code d} is in the snapshottable set, which is what DI_SNAPSHOT records: every
   * directory with 2.7.3's snapshottable feature, except the root while its snapshot quota is 0
   * (the root always has the feature; allowing snapshots on it sets the quota to the limit,
   * disallowing them sets it back to 0).
   */
  static boolean snapshottable(INodeDirectory d) {
    DirectorySnapshottableFeature f = d.getDirectorySnapshottableFeature();
    return f != null && f.getSnapshotQuota() > 0;
  }

  /** No quota: ns, ds and every type quota -1. Shared, so never changed. */
  private static final long[] NO_QUOTA = noQuota();

  private static long[] noQuota() {
    long[] q = new long[2 + RegionLayout.DI_TYPE_QUOTA_COUNT];
    Arrays.fill(q, -1);
    return q;
  }

  /**
   * ns, ds, then one per storage type (RegionLayout order = StorageType ordinal). Read-only: a
   * directory without a quota gets a shared array.
   */
  static long[] quotas(INodeDirectory d) {
    DirectoryWithQuotaFeature f = d.getDirectoryWithQuotaFeature();
    if (f == null) {
      return NO_QUOTA;
    }
    long[] q = noQuota();
    QuotaCounts c = f.getQuota();
    q[0] = c.getNameSpace();
    q[1] = c.getStorageSpace();
    for (StorageType t : StorageType.values()) {
      if (t.ordinal() < RegionLayout.DI_TYPE_QUOTA_COUNT) {
        q[2 + t.ordinal()] = c.getTypeSpaces().get(t);
      }
    }
    return q;
  }

  private static final long[] NO_BLOCKS = new long[0];

  /**
   * The blocks of {@code f} as triples (id, numBytes, generation stamp), the form {@link
   * Txn#setBlocks} takes.
   */
  static long[] blockTriples(INodeFile f) {
    BlockInfoContiguous[] blocks = f.getBlocks();
    int n = blocks == null ? 0 : blocks.length;
    if (n == 0) {
      return NO_BLOCKS;
    }
    long[] b = new long[3 * n];
    for (int i = 0; i < n; i++) {
      b[3 * i] = blocks[i].getBlockId();
      b[3 * i + 1] = blocks[i].getNumBytes();
      b[3 * i + 2] = blocks[i].getGenerationStamp();
    }
    return b;
  }

  /** Stages every field of {@code n} that differs from {@code page}. */
  static void stageState(Txn t, long page, INode n) throws IOException {
    t.setMtime(page, n.getModificationTime());
    t.setAtime(page, n.getAccessTime());
    t.setPermission(page, n.getFsPermissionShort(), n.getUserName(), n.getGroupName());
    t.setAttributes(page, InodeAttributes.encode(n));
    if (n.isSymlink()) {
      return; // its target never changes
    }
    if (n.isFile()) {
      INodeFile f = n.asFile();
      t.setFileHeader(
          page, f.getPreferredBlockSize(), f.getFileReplication(), f.getLocalStoragePolicyID());
      FileUnderConstructionFeature uc = f.getFileUnderConstructionFeature();
      BlockInfoContiguous last = f.getLastBlock();
      t.setUnderConstruction(
          page,
          uc == null ? null : uc.getClientName(),
          uc == null ? null : uc.getClientMachine(),
          uc != null && last != null && last.isComplete());
      long[] b = blockTriples(f);
      t.setBlocks(page, b, b.length / 3);
    } else {
      INodeDirectory d = n.asDirectory();
      long[] q = quotas(d);
      t.setQuota(page, q[0], q[1]);
      for (int i = 0; i < RegionLayout.DI_TYPE_QUOTA_COUNT; i++) {
        t.setTypeQuota(page, i, q[2 + i]);
      }
      t.setDirectoryStoragePolicy(page, d.getLocalStoragePolicyID() & 0xff);
      t.setSnapshottable(page, snapshottable(d));
    }
  }

  /** Stages the generation stamps, the last block id and the last inode id. */
  static void stageCounters(Txn t, BlockIdManager ids, long lastInodeId) {
    t.setCounter(RegionLayout.SB_GENSTAMP_V1, ids.getGenerationStampV1());
    t.setCounter(RegionLayout.SB_GENSTAMP_V2, ids.getGenerationStampV2());
    t.setCounter(RegionLayout.SB_GENSTAMP_V1_LIMIT, ids.getGenerationStampV1Limit());
    t.setCounter(RegionLayout.SB_LAST_BLOCK_ID, ids.getLastAllocatedBlockId());
    t.raiseCounter(RegionLayout.SB_LAST_INODE_ID, lastInodeId);
  }
}
