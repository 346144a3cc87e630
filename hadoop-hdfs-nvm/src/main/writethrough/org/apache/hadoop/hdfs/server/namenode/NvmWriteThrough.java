package org.apache.hadoop.hdfs.server.namenode;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockIdManager;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeStore;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeView;
import org.apache.hadoop.hdfs.server.namenode.nvm.LongLongMap;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout;
import org.apache.hadoop.hdfs.server.namenode.nvm.Txn;

/**
 * The write-through engine: the in-memory namespace into the region. Every method runs under the
 * namesystem write lock, right after the namesystem changed memory (called by {@link
 * NvmFSEditLog}'s log methods and {@link NvmFSNamesystem}'s removal hook), and persists the
 * resulting STATE of the affected inodes (not the operation), encoded by {@link InodeEncoder}, as
 * one atomic {@link Txn} before it returns — so before the RPC answers. Only changed words are
 * staged, so most attribute changes are a single atomic 8-byte store. After each persisted change
 * the {@link SlimNamespace} follows.
 *
 * <p>Inodes are found by id in a primitive id &rarr; page map. A failure after memory was changed
 * cannot be undone: {@link WriteThroughFailure} stops the NameNode rather than acknowledge an
 * operation that would be lost on restart.
 */
final class NvmWriteThrough {
  private final InodeStore store;
  private final IdPageMap pages;
  private final SlimNamespace slim;
  private FSNamesystem fsn;

  /** Inodes the namesystem removed that are not persisted as removed yet. */
  private final PendingRemovals removals = new PendingRemovals();

  /**
   * Set by logDelete: the deleted path; the parent of the deleted subtree, whose mtime is committed
   * with the removal list, is found when that list arrives ({@link #deletedParent}).
   */
  private String deleteSrc;

  private boolean deletePending;

  /**
   * The parent of what an overwrite removed (create or rename onto an existing name): the removal
   * is committed with that operation's batch, or, should the operation fail after the removal (a
   * quota refusal of the new file), at the end of the write operation with this parent's mtime.
   */
  private INodeDirectory removalParent;

  /** The retry log; null until attached (and when the retry cache is off). */
  private NvmRetryLog retryLog;

  /** The retry entry of the operation being logged: staged with its batch (NvmRetryLog). */
  private NvmRetryLog.Entry pendingRetry;

  /** Truncate blocks of files whose truncate is being recovered, staged with each file's state. */
  private NvmTruncateRecords truncates;

  /** The snapshot state: staged with every batch while any exists (docs/snapshots.md). */
  private NvmSnapshotRecords snapshots;

  /** Inodes the running batch staged, collected only while snapshot state exists. */
  private final List<INode> staged = new ArrayList<INode>();

  private boolean collecting;

  /**
   * With HA, the edit log: every batch is applied holding its monitor, right after the edit it
   * belongs to took its transaction id, so batches reach the region in transaction id order and
   * each is stamped with its edit's id (docs/ha.md). Null without HA.
   */
  private Object journal;

  /**
   * With HA, logDelete's edit: logged when the delete's removed inodes arrive ({@link
   * #removed(String, List)}).
   */
  private Runnable deferredDeleteEdit;

  NvmWriteThrough(InodeStore store, SlimNamespace slim) {
    this.store = store;
    this.slim = slim;
    this.pages = slim.pages();
    this.truncates = new NvmTruncateRecords(store);
    this.snapshots = new NvmSnapshotRecords(store);
  }

  /** The snapshot records of a recovered region (they start empty in a new one). */
  void attachSnapshots(NvmSnapshotRecords s) {
    this.snapshots = s;
  }

  /** The truncate records of a recovered region (they start empty in a new one). */
  void attachTruncates(NvmTruncateRecords t) {
    this.truncates = t;
  }

  SlimNamespace slim() {
    return slim;
  }

  void attach(FSNamesystem ns) {
    this.fsn = ns;
  }

  /** HA: order every batch after its edit in {@code editLog}'s monitor (see {@link #journal}). */
  void orderWith(Object editLog) {
    this.journal = editLog;
  }

  void attachRetryLog(NvmRetryLog log) {
    this.retryLog = log;
  }

  /** The retry log, for the other write-throughs' batches (null before it is attached). */
  NvmRetryLog retryLog() {
    return retryLog;
  }

  /**
   * The operation about to be logged is one a client may retry ({@code toLogRpcIds} in 2.7.3): its
   * call's entry goes into the batch that persists it.
   */
  void retryable(int kind, long inodeId) {
    pendingRetry = retryLog == null ? null : retryLog.forCurrentCall(kind, inodeId);
  }

  FSNamesystem namesystem() {
    return fsn;
  }

  InodeStore store() {
    return store;
  }

  IdPageMap pages() {
    return pages;
  }

  private long pageOf(INode inode) {
    long p = pages.get(inode.getId());
    if (p == IdPageMap.MISSING) {
      throw new IllegalStateException(
          "inode "
              + inode.getId()
              + " ("
              + inode.getFullPathName()
              + ") has no page in the region");
    }
    return p;
  }

  /** The inode at {@code path}; a symlink there is the inode itself, not followed. */
  private INode resolve(String path) throws IOException {
    INode n = fsn.getFSDirectory().getINodesInPath(path, false).getLastINode();
    if (n == null) {
      throw new IllegalStateException("path " + path + " does not resolve after the operation");
    }
    return n;
  }

  private interface Op {
    void stage(Txn t) throws IOException;
  }

  /**
   * Runs one write-through: pending removals + {@code op}, one batch. {@code verb} and {@code
   * subject} name the operation in a failure message; they are only joined then, so the hot path
   * builds no strings.
   */
  /**
   * A batch failed and the NameNode was stopped; in a test JVM whose exit is disabled the NameNode
   * lives on, and must not write a region whose memory it no longer matches.
   */
  private volatile boolean stopped;

  private void persist(String verb, Object subject, Op op) {
    Object j = journal;
    if (j == null) {
      persistNow(verb, subject, op);
    } else {
      synchronized (j) {
        persistNow(verb, subject, op);
      }
    }
  }

  private void persistNow(String verb, Object subject, Op op) {
    if (stopped) {
      return; // a failed batch stopped the NameNode (a test that disabled the exit keeps it)
    }
    if (deletePending) {
      WriteThroughFailure.stop(
          verb + " " + subject + " (a delete was logged but its removed inodes never arrived)",
          null);
    }
    NvmRetryLog.Entry retry = pendingRetry;
    pendingRetry = null;
    collecting = fsn != null && snapshots.active(fsn.getSnapshotManager());
    List<INodeFile> withDiffs = null;
    LongLongMap freed = null; // the debug check's
    try (Txn t = store.begin()) {
      stageRemovals(t);
      op.stage(t);
      // a batch of counters only (a generation stamp in the middle of a truncate) ends no change
      boolean checked = collecting && (!staged.isEmpty() || removals.count() > 0);
      List<INode> snapshotChanged = slim.takeSnapshotChanged();
      SnapshotChanges listChanges = slim.takeSnapshotChanges();
      if (collecting) {
        staged.addAll(snapshotChanged);
        boolean sweep = snapshots.sweepPending();
        withDiffs = snapshots.stage(t, fsn, staged, pages, listChanges);
        if (sweep) {
          // the stock walk also cut the block lists of files only snapshots hold now to what the
          // snapshots keep (collectBlocksAndClear, which only drops trailing blocks): those files
          // have diffs, and their pages follow; a current file's blocks are its own
          for (INodeFile f : withDiffs) {
            if (f.getFileWithSnapshotFeature().isCurrentFileDeleted()
                || store.inode(pageOf(f)).blockCount() != f.numBlocks()) {
              stageInode(t, f);
            }
          }
        }
      }
      if (retry != null) {
        retryLog.stage(t, retry);
      }
      freed = RemovalParents.CHECK_PAGES ? t.freedPages() : null;
      t.commit();
      snapshots.afterBatch(checked, fsn, verb); // the debug check, if asked for
    } catch (IOException | RuntimeException e) {
      stopped = true;
      WriteThroughFailure.stop(verb + " " + subject, e);
    } finally {
      staged.clear();
      collecting = false;
    }
    forgetRemovals();
    RemovalParents.noFreedPageMapped(pages, freed, verb + " " + subject);
    if (withDiffs != null) {
      for (INodeFile f : withDiffs) {
        slim.fileChanged(f); // its diffs live on this object: pinned (InodeCache)
      }
    }
  }

  private void stageRemovals(Txn t) throws IOException {
    int n = removals.count();
    if (n > 0) {
      t.removeAll(removals.pages(), n);
      truncates.stageRemovals(t, removals.ids(), n);
      snapshots.stageRemovals(t, removals.ids(), n);
    }
  }

  private void forgetRemovals() {
    removalParent = null;
    removals.forget(pages, slim.cache());
  }

  // ------------------------------------------------------------------ state of one inode

  /** Stages every field of {@code n} that differs from its page. */
  private void stageInode(Txn t, INode n) throws IOException {
    note(n);
    InodeEncoder.stageState(t, pageOf(n), n);
    if (n.isFile()) {
      truncates.stage(t, n.asFile());
    }
  }

  private void stageMtime(Txn t, INode n) {
    if (n != null) {
      note(n);
      t.setMtime(pageOf(n), n.getModificationTime());
    }
  }

  /** While snapshot state exists, an inode the batch stages may have a new diff to persist. */
  private void note(INode n) {
    if (collecting) {
      staged.add(n);
    }
  }

  /** A new inode under its in-memory parent, plus the parent's mtime. Returns its page. */
  private long stageCreate(Txn t, INode n) throws IOException {
    INodeDirectory parent = n.getParent();
    long parentPage = pageOf(parent);
    long page = t.create(parentPage, InodeEncoder.attrs(t, n));
    note(n);
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

  /**
   * logReassignLease. The namesystem logs a lease reassignment BEFORE it changes the file: 2.7.3's
   * {@code FSNamesystem.reassignLease} calls the edit log, then {@code reassignLeaseInternal} sets
   * the new holder on the file's under-construction feature. So the file in memory still names the
   * old holder here, and syncing its state would persist the old holder again. The page takes the
   * new holder from the call, as the stock edit log records it in OP_REASSIGN_LEASE (whose replay
   * changes only the client name); the client machine stays.
   */
  void leaseReassigned(final String path, final String newHolder) {
    final INode[] n = new INode[1];
    persist(
        "lease reassignment of",
        path,
        t -> {
          INodeFile f = (n[0] = resolve(path)).asFile();
          FileUnderConstructionFeature uc = f.getFileUnderConstructionFeature();
          if (uc == null) {
            throw new IllegalStateException(path + " is not under construction");
          }
          t.setUnderConstruction(pageOf(f), newHolder, uc.getClientMachine());
        });
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
    persist(
        "rename",
        src + " -> " + dst,
        t -> {
          INode n = moved[0] = resolve(dst);
          long page = pageOf(n);
          InodeView v = store.inode(page);
          long oldParentPage = v.parentPage();
          INodeDirectory parent = n.getParent();
          long parentPage = pageOf(parent);
          t.move(page, parentPage, n.getLocalNameBytes());
          note(n);
          stageMtime(t, parent);
          if (oldParentPage != parentPage) {
            stageMtime(t, fsn.getFSDirectory().getInode(v.parentId()));
          }
        });
    slim.moved(moved[0]);
  }

  /** logDelete: the subtree is unlinked in memory; its inode list arrives with {@link #removed}. */
  void deleted(String src) {
    deleted(src, null);
  }

  /**
   * With HA, logDelete hands its edit over instead of logging it: it is logged when the removed
   * inodes arrive, in the monitor that also applies the delete's batch, so no other edit (a
   * delegation token's, from the secret manager's thread) can come between the two.
   */
  void deleted(String src, Runnable edit) {
    if (deletePending) {
      WriteThroughFailure.stop("delete " + src + " (the previous delete never completed)", null);
    }
    deleteSrc = src;
    deletePending = true;
    deferredDeleteEdit = edit;
  }

  /**
   * HA standby: the loader applied OP_DELETE, and the namesystem handed the removed inodes over
   * (removeLeasesAndINodes, kept pending as for an overwrite): they are committed now with their
   * parent's mtime, one batch, as the active's delete was. A delete that removed nothing (the stock
   * replay skips a path that does not exist) writes nothing.
   */
  void deleteApplied() {
    if (removals.count() == 0) {
      pendingRetry = null;
      return;
    }
    final INodeDirectory parent = removalParent;
    persist("delete under", parent, t -> stageMtime(t, parent));
  }

  /**
   * The sources of the concat being run, resolved by {@link NvmFSNamesystem#concat} under the write
   * lock before the stock concat removes them: 2.7.3's concat drops its sources from the namespace
   * without {@code removeLeasesAndINodes}, and its edit names them only by path.
   */
  private List<INode> concatSources;

  void concatStarting(List<INode> sources) {
    this.concatSources = sources;
  }

  /**
   * logConcat (OP_CONCAT_DELETE): one batch with the target's new block list and mtime, its
   * parent's mtime, and the sources' pages removed (their blocks now belong to the target). The
   * target's blocks, which 2.7.3 points at the file object, are then pointed at its ref as at a
   * close.
   */
  void concatenated(final String target) {
    List<INode> sources = concatSources;
    concatSources = null;
    if (sources == null) {
      WriteThroughFailure.stop("concat into " + target + " (its sources were not resolved)", null);
    }
    removed(target, sources);
    final INodeFile[] trg = new INodeFile[1];
    persist(
        "concat into",
        target,
        t -> {
          trg[0] = resolve(target).asFile();
          stageInode(t, trg[0]);
          stageMtime(t, trg[0].getParent());
        });
    changed(trg[0]);
  }

  /**
   * The namesystem dropped these inodes from its inode map (removeLeasesAndINodes): after a delete
   * (commits it now, with the parent's mtime) or before the logOpenFile / logRename of an overwrite
   * (kept for that op's batch). {@code src} is the removed path.
   */
  void removed(String src, List<INode> inodes) {
    if (inodes != null) {
      for (INode n : inodes) {
        long p = pages.get(n.getId());
        if (p == IdPageMap.MISSING) {
          continue; // never persisted (e.g. removed in the same op that would have created it)
        }
        if (RemovalParents.stillListed(store, slim, pages, removals.set(), n, p)) {
          slim.keepListed(n);
          continue;
        }
        removals.add(n.getId(), p); // (named twice: its page is freed once)
      }
    }
    if (deletePending) {
      if (snapshots.active(fsn.getSnapshotManager())) {
        snapshots.sweepAfterDelete(slim.takeWalkedDirectories()); // scoped, or all (references)
      }
      final INodeDirectory parent = deletedParent();
      final Runnable edit = deferredDeleteEdit;
      deletePending = false;
      deleteSrc = null;
      deferredDeleteEdit = null;
      Object j = journal;
      if (j == null || edit == null) {
        persist("delete under", parent.getId(), t -> stageMtime(t, parent));
      } else {
        synchronized (j) {
          edit.run(); // OP_DELETE takes its transaction id, then the batch is stamped with it
          persistNow("delete under", parent.getId(), t -> stageMtime(t, parent));
        }
      }
    } else if (removals.count() > 0 && removalParent == null) {
      removalParent = RemovalParents.parentOf(fsn.getFSDirectory(), pages, src);
    }
  }

  /**
   * The directory the pending delete removed its subtree from. The subtree's root is the removed
   * inode whose page's parent is not among the removed pages (for a file, the one removed inode);
   * its page names its parent by id, which the inode map resolves without walking the path again.
   * The parent path is resolved instead (as logDelete did before) if the delete removed nothing
   * persisted, or when snapshots exist: a snapshot keeps the deleted root, and what the delete
   * removed is only what was created below it since, whose root is a child of the deleted one.
   */
  private INodeDirectory deletedParent() {
    try {
      INodeDirectory p =
          snapshots.active(fsn.getSnapshotManager())
              ? null
              : RemovalParents.rootParent(
                  store, fsn.getFSDirectory(), removals.pages(), removals.count());
      return p != null ? p : resolve(RemovalParents.parentPath(deleteSrc)).asDirectory();
    } catch (IOException | RuntimeException e) {
      WriteThroughFailure.stop("delete " + deleteSrc, e);
      return null; // not reached
    }
  }

  /**
   * The write lock's outermost hold is being released. Removals still pending belong to an
   * operation that failed after the namesystem removed them (2.7.3's create with overwrite deletes
   * the old file, then may refuse the new one, e.g. on a namespace quota, and logs nothing): memory
   * no longer has them, so the region must not either. They are committed now, with the mtime the
   * removal gave their parent, so that a restart brings back what the NameNode served.
   */
  void endOfWriteOperation() {
    pendingRetry = null; // an operation that logged nothing after all
    if (removals.count() > 0 && !deletePending) {
      final INodeDirectory parent = removalParent;
      persist("removal left by a failed operation under", parent, t -> stageMtime(t, parent));
    }
    snapshots.endOfOperation(fsn); // the debug check, if asked for
  }

  // ------------------------------------------------------------------ snapshots

  /** logCreateSnapshot: the snapshot's record, the counter and the snapshot root's state. */
  void snapshotCreated(final String root, final String name) {
    final INode[] dir = new INode[1];
    persist(
        "snapshot creation in",
        root,
        t -> {
          stageInode(t, dir[0] = resolve(root));
          snapshots.snapshotCreated(dir[0].asDirectory(), name);
        });
  }

  /** logRenameSnapshot: the snapshot's record with its new name, and the root's state. */
  void snapshotRenamed(final String root, final String oldName, final String newName) {
    final INode[] dir = new INode[1];
    persist(
        "snapshot rename in",
        root,
        t -> {
          stageInode(t, dir[0] = resolve(root));
          snapshots.snapshotRenamed(dir[0].asDirectory(), oldName, newName);
        });
  }

  /**
   * logDeleteSnapshot: 2.7.3 merged the snapshot's diffs into its prior's and dropped from the
   * inode map what only that snapshot held; one batch frees their pages, rewrites every diff record
   * that changed and removes the snapshot's record.
   */
  void snapshotDeleted(final String root, final String name) {
    snapshots.sweepDeletedSnapshot();
    slim.takeWalkedDirectories(); // a later delete counts its own walk
    removed(root, slim.takeMapRemovals());
    final INode[] dir = new INode[1];
    persist(
        "snapshot deletion in",
        root,
        t -> {
          stageInode(t, dir[0] = resolve(root));
          snapshots.snapshotDeleted(dir[0].asDirectory(), name);
        });
  }

  void counter(final String what, final long sbOffset, final long value) {
    persist(what, value, t -> t.raiseCounter(sbOffset, value));
  }

  void lastTxId(long txid) {
    persist("transaction id", txid, t -> t.raiseCounter(RegionLayout.SB_LAST_TXID, txid));
  }

  /** Counters of a freshly created region, from the fresh namesystem. */
  void initCounters(BlockIdManager ids, long lastInodeId) {
    persist("initial counters", "", t -> InodeEncoder.stageCounters(t, ids, lastInodeId));
  }
}
