package org.apache.hadoop.hdfs.server.namenode;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hdfs.protocol.Block;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockIdManager;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockInfoContiguous;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockInfoContiguousUnderConstruction;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockManager;
import org.apache.hadoop.hdfs.server.blockmanagement.SequentialBlockIdGenerator;
import org.apache.hadoop.hdfs.server.common.GenerationStamp;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeStore;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeView;
import org.apache.hadoop.hdfs.server.namenode.nvm.LongLongMap;
import org.apache.hadoop.hdfs.server.namenode.nvm.Region;

/**
 * The restart's rebuild of the slim in-memory namespace from the pages the recovery scan found
 * (docs/slim-namespace.md): directories, child indexes, id &rarr; page entries, block records,
 * quota usage and counters. Nothing is read from or written to the region but inode pages and
 * counters.
 */
final class SlimRebuild {
  private SlimRebuild() {}

  /** What the rebuild made: resident directories, indexed files, block records. */
  static final class Stats {
    long directories;
    long files;
    long blocks;
    long underConstruction;
    long symlinks;

    /** The pass over the pages, and the sorting and indexing of the children after it. */
    long passNanos;

    long indexNanos;

    @Override
    public String toString() {
      return directories
          + " directories, "
          + files
          + " files ("
          + underConstruction
          + " under construction), "
          + symlinks
          + " symlinks, "
          + blocks
          + " blocks; pass "
          + passNanos / 1000000
          + " ms, children indexed in "
          + indexNanos / 1000000
          + " ms";
    }
  }

  /**
   * Rebuilds the slim in-memory namespace from the live inode pages: a resident directory object
   * per directory, a (name, id) index entry and an id &rarr; page entry per file, a block record
   * per block whose collection is a 32-byte {@link NvmFileRef} (no INodeFile); only files under
   * construction are materialized (they are pinned, and hold their lease). Recovery hands out the
   * directories breadth first, then the files in page order, so a parent comes before its children
   * and the pass over the files reads the region in address order. Each directory's children are
   * packed into a {@link SiblingBuffer} on the way, then sorted and indexed, {@code threads}
   * directories at a time. Quota usage is summed from the pages on the way. The inodes in {@code
   * notInTree} (held only by snapshots) are rebuilt but left out of their parents' indexes.
   */
  static Stats rebuild(
      FSNamesystem fsn,
      InodeStore store,
      long[] live,
      SlimNamespace slim,
      int threads,
      LongLongMap notInTree)
      throws IOException {
    FSDirectory dir = fsn.getFSDirectory();
    BlockManager bm = fsn.getBlockManager();
    Region region = store.region();
    IdPageMap pages = slim.pages();
    long rootPage = region.rootPage();
    long maxId = region.lastInodeId();
    List<INodeFile> ucFiles = new ArrayList<INodeFile>();
    BlockCounters counters = new BlockCounters(region);
    QuotaUsageRebuild quota = new QuotaUsageRebuild(bm.getStoragePolicySuite());
    ChildrenRebuild children = new ChildrenRebuild();
    Stats st = new Stats();
    long lastParentId = 0;
    NvmINodeDirectory parent = null;
    int parentOrdinal = -1;
    SiblingBuffer siblings = null;
    long t0 = System.nanoTime();
    LongLongMap outside = new LongLongMap(); // directories out of the current tree
    for (int i = 0; i < live.length; i++) {
      InodeView v = store.inode(live[i]);
      long id = v.id();
      maxId = Math.max(maxId, id);
      pages.put(id, live[i]);
      if (live[i] == rootPage) {
        InodeMaterializer.restoreRoot(store, dir.getRoot(), v);
        // the root is in the inode map already; a zone on it is registered as the stock fsimage
        // loader registers it (every other directory's with addToInodeMap below)
        dir.addRootDirToEncryptionZone(dir.getRoot().getXAttrFeature());
        restoreSnapshottable(fsn, dir.getRoot(), v);
        children.add(quota.addDirectory(dir.getRoot(), 0), dir.getRoot());
        continue;
      }
      long parentId = v.parentId();
      if (parent == null || parentId != lastParentId) {
        INodeDirectory parentDir = slim.directory(parentId);
        if (!(parentDir instanceof NvmINodeDirectory)) {
          throw new IOException(
              "NVM region "
                  + region.file()
                  + ": inode "
                  + id
                  + " (page "
                  + live[i]
                  + ") has parent "
                  + parentId
                  + " which was not rebuilt as a directory before it");
        }
        parent = (NvmINodeDirectory) parentDir;
        parentOrdinal = quota.ordinalOf(parentId);
        siblings = children.of(parentOrdinal);
        lastParentId = parentId;
      }
      boolean isDir = v.isDirectory();
      boolean inTree = notInTree.size() == 0 || !notInTree.containsKey(id);
      // in the current tree: neither it nor a directory above it is held only by snapshots
      // (parents come before their children in this pass)
      boolean current = inTree && (outside.size() == 0 || !outside.containsKey(parentId));
      if (!current && isDir) {
        outside.put(id, 1);
      }
      if (inTree) {
        siblings.add(v, NvmINodeDirectory.entry(id, isDir || v.isSymlink()));
      } // else a snapshot's deleted list holds it (SnapshotRestore puts it there)
      if (v.isSymlink()) {
        INodeSymlink s = InodeMaterializer.symlink(store, v);
        s.setParent(parent);
        dir.addToInodeMap(s); // resident, as directories are
        quota.addSymlink(parentOrdinal);
        st.symlinks++;
      } else if (isDir) {
        NvmINodeDirectory d = InodeMaterializer.directory(store, v, slim);
        d.setParent(parent);
        dir.addToInodeMap(d);
        if (current) {
          // 2.7.3 takes a directory out of the snapshottable set when a delete takes it (or a
          // directory above it) out of the tree (one with snapshots cannot be deleted), and its
          // fsimage has no set for the copies snapshots keep: a page out of the current tree keeps
          // its DI_SNAPSHOT, which is not read
          restoreSnapshottable(fsn, d, v);
        }
        children.add(quota.addDirectory(d, parentId), d);
        st.directories++;
      } else {
        rebuildFile(store, v, parent, slim, bm, counters, ucFiles);
        quota.addFile(parentOrdinal, v);
        st.files++;
        st.blocks += v.blockCount();
      }
    }
    long t1 = System.nanoTime();
    children.index(region, dir, threads);
    st.passNanos = t1 - t0;
    st.indexNanos = System.nanoTime() - t1;
    for (INodeFile f : ucFiles) {
      // a file under construction that only a snapshot holds (deleted while open, in a snapshot)
      // has no path in the current tree: 2.7.3 keeps its lease with the path it had and drops it
      // at the lease's recovery, and its own restart fails on it (LeaseManager's count of blocks
      // under construction resolves every lease path); the rebuild leaves it out
      String path = f.getFullPathName();
      INode current = dir.getINode(path);
      if (current != null && current.getId() == f.getId()) {
        fsn.leaseManager.addLease(f.getFileUnderConstructionFeature().getClientName(), path);
      }
    }
    st.underConstruction = ucFiles.size();
    dir.resetLastInodeId(maxId);
    BlockIdManager ids = fsn.getBlockIdManager();
    ids.setGenerationStampV1(region.generationStampV1());
    ids.setGenerationStampV2(region.generationStampV2());
    if (region.generationStampV1Limit() != GenerationStamp.GRANDFATHER_GENERATION_STAMP) {
      ids.setGenerationStampV1Limit(region.generationStampV1Limit());
    }
    ids.setLastAllocatedBlockId(region.lastAllocatedBlockId());
    quota.finish();
    return st;
  }

  /**
   * 2.7.3's per-directory snapshot limit ({@code DirectorySnapshottableFeature.SNAPSHOT_LIMIT}).
   */
  static final int STOCK_SNAPSHOT_LIMIT = 1 << 16;

  /**
   * A directory whose page allows snapshots (DI_SNAPSHOT) back in the snapshottable set, as the
   * stock fsimage loader puts back each {@code snapshottableDir}: the feature added, or for the
   * root, which always has it (with a snapshot quota of 0 until snapshots are allowed on it), the
   * limit set again.
   */
  static void restoreSnapshottable(FSNamesystem fsn, INodeDirectory d, InodeView v) {
    if (!v.snapshottable()) {
      return;
    }
    if (d.isSnapshottable()) {
      d.setSnapshotQuota(STOCK_SNAPSHOT_LIMIT);
    } else {
      d.addSnapshottableFeature();
    }
    fsn.getSnapshotManager().addSnapshottable(d);
  }

  /**
   * A file's blocks into the BlocksMap. A closed file's collection is a ref and nothing else of it
   * stays in the heap; a file under construction is materialized and pinned, its last block under
   * construction, and it is its own blocks' collection, as the stock loader makes it.
   */
  private static void rebuildFile(
      InodeStore store,
      InodeView v,
      NvmINodeDirectory parent,
      SlimNamespace slim,
      BlockManager bm,
      BlockCounters counters,
      List<INodeFile> ucFiles)
      throws IOException {
    long id = v.id();
    int n = v.blockCount();
    boolean uc = v.isUnderConstruction();
    if (n == 0 && !uc) {
      return; // nothing of a closed empty file goes into the block map
    }
    short repl = (short) v.replication();
    BlockInfoContiguous[] blocks = new BlockInfoContiguous[n];
    for (int b = 0; b < n; b++) {
      Block blk = new Block(v.blockId(b), v.blockNumBytes(b), v.blockGenerationStamp(b));
      blocks[b] =
          uc && b == n - 1 && !v.lastBlockComplete()
              ? new BlockInfoContiguousUnderConstruction(blk, repl)
              : new BlockInfoContiguous(blk, repl);
      counters.check(id, blocks[b]);
    }
    if (uc) {
      INodeFile f = InodeMaterializer.file(store, v, blocks);
      f.setParent(parent);
      slim.cache().put(f);
      for (int b = 0; b < n; b++) {
        f.setBlock(b, bm.addBlockCollection(blocks[b], f));
      }
      ucFiles.add(f);
    } else if (n > 0) {
      NvmFileRef ref = new NvmFileRef(id, parent, slim);
      for (int b = 0; b < n; b++) {
        bm.addBlockCollection(blocks[b], ref);
      }
    }
  }

  /**
   * A block record never runs ahead of the counters: the NameNode persists a new generation stamp
   * or block id (its own batch) before any block record uses it, so this holds after any crash. A
   * record above them is damage, and trusting it would let the NameNode hand the same id or stamp
   * out again; the region is refused instead.
   */
  private static final class BlockCounters {
    private final Region region;
    private final long maxStamp;
    private final long v1Limit;
    private final long lastBlockId;

    BlockCounters(Region region) {
      this.region = region;
      this.maxStamp = Math.max(region.generationStampV1(), region.generationStampV2());
      this.v1Limit = region.generationStampV1Limit();
      this.lastBlockId = region.lastAllocatedBlockId();
    }

    void check(long inodeId, BlockInfoContiguous b) throws IOException {
      // legacy blocks (stamp below the V1 limit) have random ids, not sequential ones
      boolean legacy = b.getGenerationStamp() < v1Limit;
      boolean idAhead =
          !legacy
              && b.getBlockId() > SequentialBlockIdGenerator.LAST_RESERVED_BLOCK_ID
              && b.getBlockId() > lastBlockId;
      if (idAhead || b.getGenerationStamp() > maxStamp) {
        throw new IOException(
            "NVM region "
                + region.file()
                + ": file inode "
                + inodeId
                + " has block "
                + b.getBlockId()
                + " with generation stamp "
                + b.getGenerationStamp()
                + ", ahead of the region's counters"
                + " (last block id "
                + lastBlockId
                + ", generation stamp "
                + maxStamp
                + "): the page or the superblock"
                + " is damaged; refusing to load it (NvmRegionTool check lists the damage)");
      }
    }
  }
}
