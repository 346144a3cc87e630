package org.apache.hadoop.hdfs.server.namenode;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import org.apache.hadoop.hdfs.protocol.Block;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockCollection;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockInfoContiguous;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockManager;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeStore;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeView;
import org.apache.hadoop.hdfs.server.namenode.snapshot.DirectoryWithSnapshotFeature;
import org.apache.hadoop.hdfs.server.namenode.snapshot.FileDiff;
import org.apache.hadoop.hdfs.server.namenode.snapshot.FileWithSnapshotFeature;
import org.apache.hadoop.hdfs.util.Diff.ListType;
import org.apache.hadoop.util.GSet;

/**
 * The in-memory side of the NVM namespace (seed §3.3–3.4): directories stay resident as {@link
 * NvmINodeDirectory} objects holding (name, id) indexes of their children; files live in their
 * pages and in the bounded {@link InodeCache}; a closed file's blocks point at an {@link
 * NvmFileRef}, not at its INodeFile. Ids map to pages in a primitive map.
 *
 * <p>Lifecycle of objects, driven by {@link NvmWriteThrough} after each persisted change:
 *
 * <ul>
 *   <li>a directory the stock code creates (mkdirs, the parents of a create) is a plain
 *       INodeDirectory; it is replaced by an NvmINodeDirectory when the operation ends ({@link
 *       #endOfWriteOperation}), because the operation may still hold the plain one;
 *   <li>a file is pinned in the cache while under construction; when it is closed its blocks are
 *       pointed at a ref and its object leaves the cache at the end of the closing operation (a
 *       later lookup materializes it from its page into the evictable part);
 *   <li>the cache evicts on a reader's miss, and after a write operation that left objects waiting
 *       for full sets, once the write lock is down to a read lock ({@code
 *       NvmFSNamesystem.writeUnlock}).
 * </ul>
 */
final class SlimNamespace {
  private final FSNamesystem fsn;
  private final FSDirectory dir;
  private final BlockManager blocks;
  private final InodeStore store;
  private final IdPageMap pages;
  private final InodeCache cache;
  private final PermissionMemo perms = new PermissionMemo();

  /** Directories by id: the stock INodeMap's own set, which now holds only directories. */
  private final GSet<INode, INodeWithAdditionalFields> dirs;

  /** Page views taken (every page read goes through {@link #view}); striped, as readers race. */
  private final LongAdder pageReads = new LongAdder();

  /** Directories created by the running write operation, replaced when it ends. */
  private final List<INodeDirectory> newDirs = new ArrayList<INodeDirectory>();

  /**
   * Inodes whose snapshot diffs the running operation changed through a directory's snapshot branch
   * (a child created or deleted under a snapshot, the deleted child itself): the write-through
   * persists their diffs with the operation's batch ({@link #takeSnapshotChanged}).
   */
  private final List<INode> snapshotChanged = new ArrayList<INode>();

  /** Inodes the stock code dropped from the inode map since the last batch (a deleteSnapshot's). */
  private final List<INode> mapRemovals = new ArrayList<INode>();

  @SuppressWarnings("unchecked")
  SlimNamespace(FSNamesystem fsn, InodeStore store, IdPageMap pages, int cacheCapacity) {
    this.fsn = fsn;
    this.dir = fsn.getFSDirectory();
    this.blocks = fsn.getBlockManager();
    this.store = store;
    this.pages = pages;
    this.cache = new InodeCache(cacheCapacity);
    try {
      Field f = INodeMap.class.getDeclaredField("map");
      f.setAccessible(true);
      this.dirs = (GSet<INode, INodeWithAdditionalFields>) f.get(dir.getINodeMap());
      f.set(dir.getINodeMap(), new SlimInodeMap(this, dirs));
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(
          "cannot install the slim inode map into FSDirectory's INodeMap", e);
    }
    INodeDirectory root = dir.getRoot();
    NvmINodeDirectory slimRoot = new NvmINodeDirectory(root, this);
    dir.rootDir = slimRoot;
    dirs.put(slimRoot);
  }

  InodeCache cache() {
    return cache;
  }

  /** The resident directories (the root included), for a pass over them at start-up. */
  List<INodeDirectory> residentDirectories() {
    List<INodeDirectory> out = new ArrayList<INodeDirectory>();
    for (INodeWithAdditionalFields n : dirs) {
      if (n.isDirectory()) {
        out.add(n.asDirectory());
      }
    }
    return out;
  }

  /** What the running operation changed in created and deleted lists (NvmINodeDirectory). */
  private SnapshotChanges changes = new SnapshotChanges();

  /**
   * A stock walk may have changed {@code n}'s diffs anywhere: its diff record and, for a directory,
   * all its entry records are compared (NvmINodeDirectory).
   */
  void snapshotChanged(INode n) {
    snapshotChanged.add(n);
    if (n.isDirectory()) {
      changes.whole(n.getId());
    }
  }

  /** {@code n}'s diff list may have a new diff or a new copy, its lists are as they were. */
  void snapshotHeadChanged(INode n) {
    snapshotChanged.add(n);
  }

  /** {@code dir}'s lists may have changed for {@code child} (an add, remove or replace). */
  void snapshotEntryChanged(INodeDirectory dir, INode child) {
    snapshotChanged.add(dir);
    changes.child(dir.getId(), child);
  }

  /** The list changes reported since the last call; then cleared. */
  SnapshotChanges takeSnapshotChanges() {
    if (changes.isEmpty()) {
      return changes;
    }
    SnapshotChanges c = changes;
    changes = new SnapshotChanges();
    return c;
  }

  /** Directories a snapshot walk (cleanSubtreeRecursively) passed since the last take. */
  private long walkedDirectories;

  void walkedDirectory() {
    walkedDirectories++;
  }

  /** Whether a snapshot walk passed a directory since the last call; the count is then reset. */
  boolean takeWalkedDirectories() {
    boolean any = walkedDirectories > 0;
    walkedDirectories = 0;
    return any;
  }

  /** The inodes {@link #snapshotChanged} named since the last call; the list is then cleared. */
  List<INode> takeSnapshotChanged() {
    if (snapshotChanged.isEmpty()) {
      return Collections.emptyList();
    }
    List<INode> l = new ArrayList<INode>(snapshotChanged);
    snapshotChanged.clear();
    return l;
  }

  /**
   * Puts back an inode the inode map dropped that its directory still lists (NvmWriteThrough: 2.7.3
   * destroys it and leaves it in the list): a directory or symlink resident again, a file cached
   * again as the same object (its diffs live on it; pinned then).
   */
  void keepListed(INode n) {
    if (n.isDirectory() || n.isSymlink()) {
      dirs.put((INodeWithAdditionalFields) n);
    } else if (n.isFile()) {
      cache().put(n.asFile());
      if (n.asFile().isWithSnapshot()) {
        fileChanged(n.asFile());
      }
    }
  }

  /** The inode map dropped {@code n} (SlimInodeMap.remove). */
  void removedFromMap(INode n) {
    mapRemovals.add(n);
  }

  /** The inodes the inode map dropped since the last call; the list is then cleared. */
  List<INode> takeMapRemovals() {
    List<INode> l = new ArrayList<INode>(mapRemovals);
    mapRemovals.clear();
    return l;
  }

  InodeStore store() {
    return store;
  }

  /** Files materialized from their pages: every cache miss, as {@link #file} loads on each. */
  long materialized() {
    return cache.misses();
  }

  long pageReads() {
    return pageReads.sum();
  }

  IdPageMap pages() {
    return pages;
  }

  // ---- lookups (under the namesystem lock, read or write)

  /**
   * The object of a child entry (see {@link NvmINodeDirectory#entry}): a resident directory, or a
   * file from the cache or its page.
   */
  INode child(long entry, INodeDirectory parent) {
    if (entry < 0) {
      INode d = resident(-entry);
      if (d == null) {
        throw new IllegalStateException(
            "directory or symlink inode "
                + -entry
                + " under "
                + parent.getFullPathName()
                + " is not resident");
      }
      return d;
    }
    return file(entry, parent);
  }

  /** A resident inode (a directory or a symlink) by id, or null. */
  INode resident(long id) {
    return dirs.get(idKey(id));
  }

  INodeDirectory directory(long id) {
    INode d = resident(id);
    return d instanceof INodeDirectory ? (INodeDirectory) d : null;
  }

  /** Any inode by id (the INodeMap's answer), or null. */
  INode byId(long id) {
    INode d = resident(id);
    if (d != null) {
      return d;
    }
    return pages.containsKey(id) || cache.peek(id) != null ? file(id) : null;
  }

  INodeFile file(long id) {
    return file(id, null);
  }

  INodeFile cachedFile(long id) {
    return cache.peek(id);
  }

  /**
   * Adds file {@code id}'s quota usage to {@code counts} from its page, as 2.7.3's {@code
   * INodeFile.computeQuotaUsage} counts a file without snapshot diffs (one name; its size, a last
   * block under construction at the preferred block size, times its replication; type space per
   * replica under its policy, else {@code parentPolicy}), if the file is not resident: a file with
   * diffs, open or renamed under a snapshot stays in the cache (InodeCache), so a cold one has
   * none. Returns false, adding nothing, for a resident file: its object counts itself.
   */
  boolean addColdFileUsage(
      long id,
      org.apache.hadoop.hdfs.server.blockmanagement.BlockStoragePolicySuite bsps,
      byte parentPolicy,
      QuotaCounts counts) {
    if (cache.peek(id) != null) {
      return false;
    }
    InodeView v = view(id);
    int n = v.blockCount();
    long size = 0;
    for (int i = 0; i < n; i++) {
      size +=
          i == n - 1 && v.isUnderConstruction() && !v.lastBlockComplete()
              ? v.preferredBlockSize()
              : v.blockNumBytes(i);
    }
    short repl = (short) v.replication();
    counts.addNameSpace(1);
    counts.addStorageSpace(size * repl);
    byte local = (byte) v.storagePolicy();
    byte policy =
        local
                != org.apache.hadoop.hdfs.server.blockmanagement.BlockStoragePolicySuite
                    .ID_UNSPECIFIED
            ? local
            : parentPolicy;
    if (policy
        != org.apache.hadoop.hdfs.server.blockmanagement.BlockStoragePolicySuite.ID_UNSPECIFIED) {
      for (org.apache.hadoop.fs.StorageType t : bsps.getPolicy(policy).chooseStorageTypes(repl)) {
        if (t.supportTypeQuota()) {
          counts.addTypeSpace(t, size);
        }
      }
    }
    return true;
  }

  /** The object of file {@code id} if it has snapshot diffs, else null. */
  INodeFile fileWithSnapshotDiffs(long id) {
    if (!cache.mayHaveSnapshotDiffs(id)) {
      return null;
    }
    INodeFile f = cache.peek(id);
    return f != null && f.isWithSnapshot() ? f : null;
  }

  private INodeFile file(long id, INodeDirectory parent) {
    INodeFile f = cache.get(id);
    if (f != null) {
      return f;
    }
    boolean reader = isReader();
    return cache.addLoaded(load(id, parent, reader), reader);
  }

  /**
   * Whether this thread holds the namesystem read lock and not the write lock: no write operation
   * is in flight, so its miss may evict (InodeCache's rules) and use the permission memo.
   */
  private boolean isReader() {
    return !fsn.hasWriteLock() && fsn.getReadHoldCount() > 0;
  }

  /**
   * Materializes a file from its page, over the BlocksMap's block objects. Only {@link #file} calls
   * it, on a miss: so the misses count the materialized files.
   */
  private INodeFile load(long id, INodeDirectory parent, boolean reader) {
    InodeView v = view(id);
    if (!v.isFile()) {
      throw new IllegalStateException("inode " + id + " (page " + v.page() + ") is not a file");
    }
    try {
      INodeFile f = InodeMaterializer.file(store, v, storedBlocks(v), perms.of(store, v, reader));
      INodeDirectory p = parent != null ? parent : directory(v.parentId());
      if (p == null) {
        throw new IllegalStateException(
            "file inode " + id + " has parent " + v.parentId() + ", which is not a directory");
      }
      f.setParent(p);
      return f;
    } catch (java.io.IOException e) {
      throw new IllegalStateException(
          "cannot materialize inode " + id + " from page " + v.page(), e);
    }
  }

  InodeView view(long id) {
    long page = pages.get(id);
    if (page == IdPageMap.MISSING) {
      throw new IllegalStateException("inode " + id + " has no page in the region");
    }
    pageReads.increment();
    return store.inode(page);
  }

  BlockInfoContiguous[] storedBlocks(long id) {
    return storedBlocks(view(id));
  }

  /**
   * A lookup key per thread for the BlocksMap (it hashes and compares blocks by id only and keeps
   * nothing of the key), instead of a new Block per block of every materialized file.
   */
  private static final ThreadLocal<Block> BLOCK_KEY = ThreadLocal.withInitial(Block::new);

  private BlockInfoContiguous[] storedBlocks(InodeView v) {
    int n = v.blockCount();
    if (n == 0) {
      return BlockInfoContiguous.EMPTY_ARRAY; // shared, as the stock create's: never written
    }
    BlockInfoContiguous[] out = new BlockInfoContiguous[n];
    Block key = BLOCK_KEY.get();
    for (int i = 0; i < n; i++) {
      key.setBlockId(v.blockId(i));
      BlockInfoContiguous b = blocks.getStoredBlock(key);
      if (b == null) {
        throw new IllegalStateException(
            "file inode "
                + v.id()
                + ": block "
                + v.blockId(i)
                + " of its page is not in the blocks map");
      }
      out[i] = b;
    }
    return out;
  }

  /** A lookup key for the directory set (INode equality and hash are by id). */
  private INode idKey(long id) {
    return new NvmFileRef(id, null, this);
  }

  // ---- changes (NvmWriteThrough calls these after the change is persisted)

  /**
   * A new inode was persisted: files are already in the cache (INodeMap.put); directories wait for
   * the end.
   */
  void created(INode n) {
    if (n.isDirectory() && !(n instanceof NvmINodeDirectory)) {
      newDirs.add(n.asDirectory());
    }
  }

  /**
   * A file's state was persisted: an open file stays pinned; a closed one joins the LRU part and
   * its blocks are pointed at a ref instead of the object.
   */
  void fileChanged(INodeFile f) {
    cache.put(f);
    if (f.isUnderConstruction()) {
      return;
    }
    List<BlockInfoContiguous> bs = blocksOf(f);
    if (bs.isEmpty()) {
      return;
    }
    NvmFileRef ref = null;
    for (BlockInfoContiguous b : bs) {
      BlockCollection bc = b.getBlockCollection();
      if (bc instanceof NvmFileRef) {
        ref = (NvmFileRef) bc;
        break;
      }
    }
    if (ref == null) {
      ref = new NvmFileRef(f.getId(), f.getParent(), this);
    } else {
      ref.setParent(f.getParent());
    }
    for (BlockInfoContiguous b : bs) {
      if (b.getBlockCollection() != ref) {
        b.setBlockCollection(ref);
      }
    }
  }

  /**
   * A file's blocks and those only its snapshot diffs hold (a truncate under a snapshot copies the
   * last block: the old one stays the file's, as 2.7.3's block collection, and must follow the
   * file's path, as {@code listCorruptFileBlocks} and fsck name it by that).
   */
  private static List<BlockInfoContiguous> blocksOf(INodeFile f) {
    List<BlockInfoContiguous> out = new ArrayList<BlockInfoContiguous>();
    BlockInfoContiguous[] current = f.getBlocks();
    if (current != null) {
      Collections.addAll(out, current);
    }
    FileWithSnapshotFeature sf = f.getFileWithSnapshotFeature();
    if (sf != null) {
      java.util.Set<BlockInfoContiguous> seen =
          Collections.newSetFromMap(new java.util.IdentityHashMap<BlockInfoContiguous, Boolean>());
      seen.addAll(out);
      for (FileDiff d : sf.getDiffs()) {
        BlockInfoContiguous[] kept = d.getBlocks();
        if (kept != null) {
          for (BlockInfoContiguous b : kept) {
            if (b != null && b.getBlockCollection() != null && seen.add(b)) {
              out.add(b);
            }
          }
        }
      }
    }
    return out;
  }

  /** An inode moved: a file's ref follows it (its path and inherited storage policy). */
  void moved(INode n) {
    if (n.isFile()) {
      for (BlockInfoContiguous b : blocksOf(n.asFile())) {
        if (b.getBlockCollection() instanceof NvmFileRef) {
          ((NvmFileRef) b.getBlockCollection()).setParent(n.getParent());
        }
      }
    }
  }

  /**
   * The write operation ends (the namesystem write lock is still held): directories it created
   * become NvmINodeDirectory (parents first, so each takes over its parent link), the objects of
   * the files it closed leave the cache, and the permission memo forgets what it may have changed.
   * No eviction here: see {@link #trimCache}.
   */
  void endOfWriteOperation() {
    mapRemovals.clear();
    if (!newDirs.isEmpty()) {
      for (INodeDirectory plain : newDirs) {
        INodeDirectory parent = plain.getParent();
        if (parent == null || directory(plain.getId()) != plain) {
          continue; // removed again by the same operation
        }
        NvmINodeDirectory d = new NvmINodeDirectory(plain, this);
        dirs.put(d);
        // a diff of the parent recorded the plain object in its created list: it names the
        // object that replaces it, or a later rename or delete there would find a stranger
        DirectoryWithSnapshotFeature psf = parent.getDirectoryWithSnapshotFeature();
        if (psf != null) {
          psf.getDiffs().replaceChild(ListType.CREATED, plain, d);
        }
      }
      newDirs.clear();
    }
    cache.releaseClosed();
    perms.invalidate();
  }

  /** Whether the ended operation left objects waiting for full cache sets (a trim is due). */
  boolean cacheOverCapacity() {
    return cache.overCapacity();
  }

  /**
   * Moves the waiting objects into their sets, evicting there. The caller guarantees that no write
   * operation is in flight: it holds the namesystem read lock (taken before the write lock was
   * released), or the write lock between two operations (an HA standby's edits).
   */
  void trimCache() {
    if (cache.overCapacity()) {
      cache.trim();
    }
  }
}
