package org.apache.hadoop.hdfs.server.namenode;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.apache.hadoop.HadoopIllegalArgumentException;
import org.apache.hadoop.hdfs.DFSUtil;
import org.apache.hadoop.hdfs.protocol.Block;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockIdManager;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockInfoContiguous;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockInfoContiguousUnderConstruction;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockManager;
import org.apache.hadoop.hdfs.server.blockmanagement.SequentialBlockIdGenerator;
import org.apache.hadoop.hdfs.server.common.GenerationStamp;
import org.apache.hadoop.hdfs.server.namenode.nvm.ChildIndex;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeStore;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeView;
import org.apache.hadoop.hdfs.server.namenode.nvm.IdPageMap;
import org.apache.hadoop.hdfs.server.namenode.nvm.Region;
import org.apache.hadoop.hdfs.server.namenode.snapshot.Snapshot;

/**
 * The restart's rebuild of the slim in-memory namespace from the pages the recovery scan found
 * (docs/slim-namespace.md): directories, child indexes, id &rarr; page entries, block records,
 * quota usage and counters. Nothing is read from or written to the region but inode pages and
 * counters.
 */
final class SlimRebuild {
  private SlimRebuild() {
  }

  /** What the rebuild made: resident directories, indexed files, block records. */
  static final class Stats {
    long directories;
    long files;
    long blocks;
    long underConstruction;

    @Override
    public String toString() {
      return directories + " directories, " + files + " files (" + underConstruction + " under construction), "
          + blocks + " blocks";
    }
  }

  /**
   * Rebuilds the slim in-memory namespace from the live inode pages: a resident directory
   * object per directory, a (name, id) index entry and an id &rarr; page entry per file, a
   * block record per block whose collection is a 32-byte {@link NvmFileRef} (no INodeFile);
   * only files under construction are materialized (they are pinned, and hold their lease).
   * Recovery hands pages out breadth first, so a parent comes before its children and
   * siblings are contiguous; each run of siblings is sorted by name (HDFS's own byte order)
   * and its directory's index built in one pass. Quota usage is summed from the pages on the way.
   */
  static Stats rebuild(FSNamesystem fsn, InodeStore store, long[] live, SlimNamespace slim) throws IOException {
    FSDirectory dir = fsn.getFSDirectory();
    BlockManager bm = fsn.getBlockManager();
    Region region = store.region();
    IdPageMap pages = slim.pages();
    long rootPage = region.rootPage();
    long maxId = region.lastInodeId();
    List<INodeFile> ucFiles = new ArrayList<INodeFile>();
    List<Sibling> siblings = new ArrayList<Sibling>();
    BlockCounters counters = new BlockCounters(region);
    QuotaUsageRebuild quota = new QuotaUsageRebuild(bm.getStoragePolicySuite());
    Stats st = new Stats();
    int i = 0;
    InodeView v = live.length > 0 ? store.inode(live[0]) : null;
    while (i < live.length) {
      if (live[i] == rootPage) {
        InodeMaterializer.restoreRoot(store, dir.getRoot(), v);
        pages.put(v.id(), live[i]);
        maxId = Math.max(maxId, v.id());
        quota.addDirectory(dir.getRoot(), 0);
        v = ++i < live.length ? store.inode(live[i]) : null;
        continue;
      }
      INodeDirectory parentDir = slim.directory(v.parentId());
      if (!(parentDir instanceof NvmINodeDirectory)) {
        throw new IOException("NVM region " + region.file() + ": inode " + v.id() + " (page " + live[i] + ") has parent "
            + v.parentId() + " which was not rebuilt as a directory before it");
      }
      NvmINodeDirectory parent = (NvmINodeDirectory) parentDir;
      int parentOrdinal = quota.ordinalOf(parent.getId());
      long parentPage = v.parentPage();
      siblings.clear();
      do { // one run of siblings: each page is read through one view
        long id = v.id();
        maxId = Math.max(maxId, id);
        pages.put(id, live[i]);
        siblings.add(new Sibling(v.nameBytes(), NvmINodeDirectory.entry(id, v.isDirectory())));
        if (v.isDirectory()) {
          NvmINodeDirectory d = InodeMaterializer.directory(store, v, slim);
          d.setParent(parent);
          dir.addToInodeMap(d);
          quota.addDirectory(d, parent.getId());
          st.directories++;
        } else {
          rebuildFile(store, v, parent, slim, bm, counters, ucFiles);
          quota.addFile(parentOrdinal, v);
          st.files++;
          st.blocks += v.blockCount();
        }
        v = ++i < live.length ? store.inode(live[i]) : null;
      } while (v != null && v.parentPage() == parentPage);
      Collections.sort(siblings);
      indexChildren(region, dir, parent, siblings);
    }
    for (INodeFile f : ucFiles) {
      fsn.leaseManager.addLease(f.getFileUnderConstructionFeature().getClientName(), f.getFullPathName());
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
   * Indexes one directory's sorted children. Recovery hands siblings out contiguously, so the
   * index is built in one pass; should a directory's children come in two runs, the second
   * is inserted entry by entry.
   */
  private static void indexChildren(Region region, FSDirectory dir, NvmINodeDirectory parent, List<Sibling> siblings)
      throws IOException {
    int n = siblings.size();
    byte[][] names = new byte[n][];
    long[] values = new long[n];
    for (int k = 0; k < n; k++) {
      Sibling s = siblings.get(k);
      // As the stock image loader: "/.reserved" may exist only in a namespace written while
      // the reserved-name check was off (older releases); such a namespace is not loaded.
      if (parent == dir.getRoot() && FSDirectory.CHECK_RESERVED_FILE_NAMES
          && java.util.Arrays.equals(s.name, FSDirectory.DOT_RESERVED)) {
        throw new HadoopIllegalArgumentException("NVM region " + region.file() + ": the root has a child named \""
            + DFSUtil.bytes2String(s.name) + "\" (inode " + Math.abs(s.id) + "), which is reserved; rename it with the "
            + "reserved-name check off before starting this release");
      }
      names[k] = s.name;
      values[k] = s.id;
    }
    if (parent.getChildrenNum(Snapshot.CURRENT_STATE_ID) == 0) {
      try {
        parent.setChildIndex(ChildIndex.ofSorted(names, values, n));
        return;
      } catch (IllegalArgumentException e) {
        throw new IOException("NVM region " + region.file() + ": children of inode " + parent.getId() + ": "
            + duplicateOrMessage(names, e), e);
      }
    }
    for (int k = 0; k < n; k++) {
      int pos = parent.index().search(names[k]);
      if (pos >= 0) {
        throw new IOException("NVM region " + region.file() + ": duplicate name '" + DFSUtil.bytes2String(names[k])
            + "' under inode " + parent.getId());
      }
      parent.index().insert(-pos - 1, names[k], values[k]);
    }
  }

  /** "duplicate name 'x'" for the first adjacent pair of equal names, else the builder's message. */
  private static String duplicateOrMessage(byte[][] sorted, IllegalArgumentException e) {
    for (int k = 1; k < sorted.length; k++) {
      if (java.util.Arrays.equals(sorted[k - 1], sorted[k])) {
        return "duplicate name '" + DFSUtil.bytes2String(sorted[k]) + "'";
      }
    }
    return e.getMessage();
  }

  /**
   * A file's blocks into the BlocksMap. A closed file's collection is a ref and nothing else
   * of it stays in the heap; a file under construction is materialized and pinned, its last
   * block under construction, and it is its own blocks' collection, as the stock loader makes it.
   */
  private static void rebuildFile(InodeStore store, InodeView v, NvmINodeDirectory parent, SlimNamespace slim,
      BlockManager bm, BlockCounters counters, List<INodeFile> ucFiles) throws IOException {
    long id = v.id();
    int n = v.blockCount();
    boolean uc = v.isUnderConstruction();
    short repl = (short) v.replication();
    BlockInfoContiguous[] blocks = new BlockInfoContiguous[n];
    for (int b = 0; b < n; b++) {
      Block blk = new Block(v.blockId(b), v.blockNumBytes(b), v.blockGenerationStamp(b));
      blocks[b] = uc && b == n - 1 ? new BlockInfoContiguousUnderConstruction(blk, repl)
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

  /** A child entry waiting to be indexed: siblings are sorted by name first. */
  private static final class Sibling implements Comparable<Sibling> {
    final byte[] name;
    /** The index value: the inode id, negated for a directory. */
    final long id;

    Sibling(byte[] name, long id) {
      this.name = name;
      this.id = id;
    }

    @Override
    public int compareTo(Sibling o) {
      return DFSUtil.compareBytes(name, o.name);
    }
  }

  /**
   * A block record never runs ahead of the counters: the NameNode persists a new generation stamp
   * or block id (its own batch) before any block record uses it, so this holds after any crash.
   * A record above them is damage, and trusting it would let the NameNode hand the same id or
   * stamp out again; the region is refused instead.
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
      boolean idAhead = !legacy && b.getBlockId() > SequentialBlockIdGenerator.LAST_RESERVED_BLOCK_ID
          && b.getBlockId() > lastBlockId;
      if (idAhead || b.getGenerationStamp() > maxStamp) {
        throw new IOException("NVM region " + region.file() + ": file inode " + inodeId + " has block "
            + b.getBlockId() + " with generation stamp " + b.getGenerationStamp() + ", ahead of the region's counters"
            + " (last block id " + lastBlockId + ", generation stamp " + maxStamp + "): the page or the superblock"
            + " is damaged; refusing to load it (NvmRegionTool check lists the damage)");
      }
    }
  }
}
