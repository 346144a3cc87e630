package org.apache.hadoop.hdfs.server.namenode;

import java.io.IOException;
import java.util.List;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockIdManager;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockInfoContiguous;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeAttrs;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeStore;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeView;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout;
import org.apache.hadoop.util.ExitUtil;

/**
 * Write-through of the in-memory namespace into the region: every method runs under the
 * namesystem write lock, right after the namesystem changed memory, and persists the
 * resulting STATE of the affected inodes (not the operation) as one atomic batch before
 * it returns — so before the RPC answers. Only changed words are staged, so most
 * attribute changes are a single atomic 8-byte store.
 *
 * <p>Inodes are found by id in a primitive id &rarr; page map. A failure after memory
 * was changed cannot be undone, so it stops the NameNode rather than acknowledge an
 * operation that would be lost on restart.
 */
final class NvmNamespace {
  static final Log LOG = LogFactory.getLog(NvmNamespace.class);

  private final InodeStore store;
  private final IdPageMap pages;
  private final SlimNamespace slim;
  private FSNamesystem fsn;

  /** Pages of inodes the namesystem removed but that are not persisted as removed yet. */
  private long[] removed = new long[16];
  private long[] removedIds = new long[16];
  private int removedCount;
  /** Set by logDelete: the parent of the deleted subtree; committed with the removal list. */
  private INodeDirectory deleteParent;
  private boolean deletePending;

  NvmNamespace(InodeStore store, SlimNamespace slim) {
    this.store = store;
    this.slim = slim;
    this.pages = slim.pages();
  }

  SlimNamespace slim() {
    return slim;
  }

  void attach(FSNamesystem ns) {
    this.fsn = ns;
  }

  InodeStore store() {
    return store;
  }

  IdPageMap pages() {
    return pages;
  }

  // ------------------------------------------------------------------ failure

  static void fatal(String what, Throwable t) {
    String msg = "NVM NameNode: could not persist " + what + " to the region; the in-memory namespace "
        + "already changed, so the NameNode stops instead of acknowledging an operation that would be lost"
        + (t == null ? "" : ": " + t);
    LOG.fatal(msg, t);
    ExitUtil.terminate(1, msg);
    throw new IllegalStateException(msg, t); // terminate may be disabled in tests
  }

  private long pageOf(INode inode) {
    long p = pages.get(inode.getId());
    if (p == IdPageMap.MISSING) {
      throw new IllegalStateException("inode " + inode.getId() + " (" + inode.getFullPathName()
          + ") has no page in the region");
    }
    return p;
  }

  private INode resolve(String path) throws IOException {
    INode n = fsn.getFSDirectory().getINode(path);
    if (n == null) {
      throw new IllegalStateException("path " + path + " does not resolve after the operation");
    }
    return n;
  }

  private interface Op {
    void stage(InodeStore.Txn t) throws IOException;
  }

  /**
   * Runs one write-through: pending removals + {@code op}, one batch. {@code verb} and
   * {@code subject} name the operation in a failure message; they are only joined then,
   * so the hot path builds no strings.
   */
  private void persist(String verb, Object subject, Op op) {
    if (deletePending) {
      fatal(verb + " " + subject + " (a delete was logged but its removed inodes never arrived)", null);
    }
    try (InodeStore.Txn t = store.begin()) {
      stageRemovals(t);
      op.stage(t);
      t.commit();
    } catch (IOException | RuntimeException e) {
      fatal(verb + " " + subject, e);
    }
    forgetRemovals();
  }

  private void stageRemovals(InodeStore.Txn t) throws IOException {
    if (removedCount > 0) {
      t.removeAll(removed, removedCount);
    }
  }

  private void forgetRemovals() {
    for (int i = 0; i < removedCount; i++) {
      pages.remove(removedIds[i]);
      // the INodeMap dropped it already; a lookup by id in between must not have cached it again
      slim.cache().remove(removedIds[i]);
    }
    removedCount = 0;
  }

  // ------------------------------------------------------------------ state of one inode

  /** Every page field of {@code n} except its parent and blocks (also used by the import). */
  static InodeAttrs attrs(INode n) {
    InodeAttrs a = n.isDirectory() ? InodeAttrs.directory("") : InodeAttrs.file("");
    a.name(n.getLocalNameBytes()).id(n.getId()).times(n.getModificationTime(), n.getAccessTime())
        .mode(n.getFsPermissionShort()).owner(n.getUserName(), n.getGroupName());
    if (n.isFile()) {
      INodeFile f = n.asFile();
      a.preferredBlockSize(f.getPreferredBlockSize()).replication(f.getFileReplication())
          .storagePolicy(f.getLocalStoragePolicyID());
      FileUnderConstructionFeature uc = f.getFileUnderConstructionFeature();
      if (uc != null) {
        a.underConstruction(uc.getClientName(), uc.getClientMachine());
      }
    } else {
      INodeDirectory d = n.asDirectory();
      long[] q = quotas(d);
      a.quota(q[0], q[1]);
      for (int i = 0; i < RegionLayout.DI_TYPE_QUOTA_COUNT; i++) {
        a.typeQuota(i, q[2 + i]);
      }
      a.storagePolicy(d.getLocalStoragePolicyID() & 0xff);
    }
    return a;
  }

  /** ns, ds, then one per storage type (RegionLayout order = StorageType ordinal). */
  static long[] quotas(INodeDirectory d) {
    long[] q = new long[2 + RegionLayout.DI_TYPE_QUOTA_COUNT];
    java.util.Arrays.fill(q, -1);
    DirectoryWithQuotaFeature f = d.getDirectoryWithQuotaFeature();
    if (f != null) {
      QuotaCounts c = f.getQuota();
      q[0] = c.getNameSpace();
      q[1] = c.getStorageSpace();
      for (StorageType t : StorageType.values()) {
        if (t.ordinal() < RegionLayout.DI_TYPE_QUOTA_COUNT) {
          q[2 + t.ordinal()] = c.getTypeSpaces().get(t);
        }
      }
    }
    return q;
  }

  /** The blocks of {@code f} as triples (id, numBytes, generation stamp), the form of InodeStore. */
  static long[] blockTriples(INodeFile f) {
    BlockInfoContiguous[] blocks = f.getBlocks();
    int n = blocks == null ? 0 : blocks.length;
    long[] b = new long[3 * n];
    for (int i = 0; i < n; i++) {
      b[3 * i] = blocks[i].getBlockId();
      b[3 * i + 1] = blocks[i].getNumBytes();
      b[3 * i + 2] = blocks[i].getGenerationStamp();
    }
    return b;
  }

  /** Stages every field of {@code n} that differs from its page. */
  private void stageInode(InodeStore.Txn t, INode n) throws IOException {
    stageState(t, pageOf(n), n);
  }

  /** Stages every field of {@code n} that differs from {@code page} (also used by the import). */
  static void stageState(InodeStore.Txn t, long page, INode n) throws IOException {
    t.setMtime(page, n.getModificationTime());
    t.setAtime(page, n.getAccessTime());
    t.setPermission(page, n.getFsPermissionShort(), n.getUserName(), n.getGroupName());
    if (n.isFile()) {
      INodeFile f = n.asFile();
      t.setFileHeader(page, f.getPreferredBlockSize(), f.getFileReplication(), f.getLocalStoragePolicyID());
      FileUnderConstructionFeature uc = f.getFileUnderConstructionFeature();
      t.setUnderConstruction(page, uc == null ? null : uc.getClientName(), uc == null ? null : uc.getClientMachine());
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
    }
  }

  private void stageMtime(InodeStore.Txn t, INode n) {
    if (n != null) {
      t.setMtime(pageOf(n), n.getModificationTime());
    }
  }

  /** A new inode under its in-memory parent, plus the parent's mtime. Returns its page. */
  private long stageCreate(InodeStore.Txn t, INode n) throws IOException {
    INodeDirectory parent = n.getParent();
    long parentPage = pageOf(parent);
    long page = t.create(parentPage, attrs(n));
    stageMtime(t, parent);
    return page;
  }

  // ------------------------------------------------------------------ operations

  void created(final String path, final INode n) {
    if (pages.containsKey(n.getId())) {
      // logOpenFile of an existing inode (append on an old layout version): a state change
      inodeChanged(path, n);
      return;
    }
    final long[] page = new long[1];
    persist("create", path, t -> page[0] = stageCreate(t, n));
    pages.put(n.getId(), page[0]);
    slim.created(n);
    if (n.isFile() && n.asFile().numBlocks() > 0) {
      inodeChanged(path, n);
    }
  }

  void inodeChanged(String path, final INode n) {
    persist("update of", path, t -> stageInode(t, n));
    changed(n);
  }

  void pathChanged(final String path) {
    final INode[] n = new INode[1];
    persist("update of", path, t -> stageInode(t, n[0] = resolve(path)));
    changed(n[0]);
  }

  /** The slim namespace follows a persisted file change (pinning, the blocks' collection). */
  private void changed(INode n) {
    if (n != null && n.isFile()) {
      slim.fileChanged(n.asFile());
    }
  }

  void renamed(final String src, final String dst) {
    final INode[] moved = new INode[1];
    persist("rename", src + " -> " + dst, t -> {
      INode n = moved[0] = resolve(dst);
      long page = pageOf(n);
      InodeView v = store.inode(page);
      long oldParentPage = v.parentPage();
      INodeDirectory parent = n.getParent();
      long parentPage = pageOf(parent);
      t.move(page, parentPage, n.getLocalNameBytes());
      stageMtime(t, parent);
      if (oldParentPage != parentPage) {
        stageMtime(t, fsn.getFSDirectory().getInode(v.parentId()));
      }
    });
    slim.moved(moved[0]);
  }

  /** logDelete: the subtree is unlinked in memory; its inode list arrives with {@link #removed}. */
  void deleted(String src) {
    if (deletePending) {
      fatal("delete " + src + " (the previous delete never completed)", null);
    }
    try {
      String parent = src.lastIndexOf('/') <= 0 ? "/" : src.substring(0, src.lastIndexOf('/'));
      deleteParent = resolve(parent).asDirectory();
    } catch (IOException | RuntimeException e) {
      fatal("delete " + src, e);
    }
    deletePending = true;
  }

  /**
   * The namesystem dropped these inodes from its inode map (removeLeasesAndINodes):
   * after a delete (commits it now, with the parent's mtime) or before the logOpenFile /
   * logRename of an overwrite (kept for that op's batch).
   */
  void removed(List<INode> inodes) {
    if (inodes != null) {
      for (INode n : inodes) {
        long p = pages.get(n.getId());
        if (p == IdPageMap.MISSING) {
          continue; // never persisted (e.g. removed in the same op that would have created it)
        }
        if (removedCount == removed.length) {
          removed = java.util.Arrays.copyOf(removed, removedCount * 2);
          removedIds = java.util.Arrays.copyOf(removedIds, removedCount * 2);
        }
        removed[removedCount] = p;
        removedIds[removedCount++] = n.getId();
      }
    }
    if (deletePending) {
      final INodeDirectory parent = deleteParent;
      deletePending = false;
      deleteParent = null;
      persist("delete under", parent.getId(), t -> stageMtime(t, parent));
    }
  }

  void counter(final String what, final long sbOffset, final long value) {
    persist(what, value, t -> t.raiseCounter(sbOffset, value));
  }

  void lastTxId(long txid) {
    persist("transaction id", txid, t -> t.raiseCounter(RegionLayout.SB_LAST_TXID, txid));
  }

  /** Counters of a freshly created region, from the fresh namesystem. */
  void initCounters(BlockIdManager ids, long lastInodeId) {
    persist("initial counters", "", t -> stageCounters(t, ids, lastInodeId));
  }

  /** Stages the generation stamps, the last block id and the last inode id (also used by the import). */
  static void stageCounters(InodeStore.Txn t, BlockIdManager ids, long lastInodeId) {
    t.setCounter(RegionLayout.SB_GENSTAMP_V1, ids.getGenerationStampV1());
    t.setCounter(RegionLayout.SB_GENSTAMP_V2, ids.getGenerationStampV2());
    t.setCounter(RegionLayout.SB_GENSTAMP_V1_LIMIT, ids.getGenerationStampV1Limit());
    t.setCounter(RegionLayout.SB_LAST_BLOCK_ID, ids.getLastAllocatedBlockId());
    t.raiseCounter(RegionLayout.SB_LAST_INODE_ID, lastInodeId);
  }
}
