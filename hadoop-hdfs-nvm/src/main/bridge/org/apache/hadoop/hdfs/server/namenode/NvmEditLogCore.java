package org.apache.hadoop.hdfs.server.namenode;

import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;

/**
 * What every typed hook of the NVM edit log ({@link NvmFSEditLog}) stands on: the journals (the
 * null journal without HA, the shared one with it), the write-through engines and their accessors
 * (each stops the NameNode if a change arrives before the region is open, and tells the rollback
 * image guard first), the segment markers, the durability behind {@code logSync} (group commit of
 * the region, docs/region-format.md §7.7), and {@link #logEdit}'s refusal of every op no typed hook
 * persists.
 */
abstract class NvmEditLogCore extends FSEditLog {
  private volatile NvmWriteThrough writeThrough;
  private volatile NvmRollbackImageGuard rollbackGuard;
  private volatile NvmTokenWriteThrough tokens;
  private volatile NvmCacheWriteThrough cache;

  /** HA: ops go to the shared journal too (see {@link NvmFSEditLog}). */
  final boolean ha;

  /**
   * HA standby: the transaction id of the op the tailer is applying (its batch is stamped with it),
   * -1 when not applying; the active stamps its batches with the last id it wrote.
   */
  private volatile long applyingTxId = -1;

  /** The name directories (FSEditLog keeps its own reference private). */
  private final NNStorage nameDirs;

  NvmEditLogCore(Configuration conf, NNStorage storage, boolean ha) {
    super(journalConf(conf, ha), storage, journals(conf, ha));
    this.ha = ha;
    this.nameDirs = storage;
  }

  /**
   * The journals: the null journal, after the shared edits dirs with HA (the stock journal
   * implementations, QJM in practice; the local edits dirs are not used).
   */
  private static List<URI> journals(Configuration conf, boolean ha) {
    List<URI> dirs = new ArrayList<>();
    if (ha) {
      dirs.addAll(FSNamesystem.getSharedEditsDirs(conf));
    }
    dirs.add(NullJournalManager.URI_);
    return dirs;
  }

  /**
   * A private copy of the configuration in which the edits dirs are the null journal's URI and its
   * plugin class is registered (and, without HA, no shared edits dir); the operator's configuration
   * is unchanged.
   */
  static Configuration journalConf(Configuration conf, boolean ha) {
    Configuration c = new Configuration(conf);
    String uri = NullJournalManager.URI_.toString();
    c.set(DFSConfigKeys.DFS_NAMENODE_EDITS_DIR_KEY, uri);
    c.unset(DFSConfigKeys.DFS_NAMENODE_EDITS_DIR_REQUIRED_KEY);
    if (!ha) {
      c.unset(DFSConfigKeys.DFS_NAMENODE_SHARED_EDITS_DIR_KEY);
    }
    c.set(
        DFSConfigKeys.DFS_NAMENODE_EDITS_PLUGIN_PREFIX + "." + NullJournalManager.SCHEME,
        NullJournalManager.class.getName());
    return c;
  }

  boolean isHa() {
    return ha;
  }

  /** The transaction id a batch committed now belongs to (HA; see {@link #applyingTxId}). */
  long stampTxId() {
    long a = applyingTxId;
    return a >= 0 ? a : getLastWrittenTxId();
  }

  /** HA standby: the tailer applies the op with this id ({@code -1}: none). */
  void applying(long txid) {
    this.applyingTxId = txid;
  }

  void attach(NvmWriteThrough engine) {
    this.writeThrough = engine;
  }

  void attachTokens(NvmTokenWriteThrough t) {
    this.tokens = t;
  }

  void attachCache(NvmCacheWriteThrough c) {
    this.cache = c;
  }

  NvmWriteThrough writeThrough() {
    return writeThrough;
  }

  NvmTokenWriteThrough tokenWriteThrough() {
    return tokens();
  }

  NvmCacheWriteThrough cacheWriteThrough() {
    return cache();
  }

  void setRollbackGuard(NvmRollbackImageGuard guard) {
    this.rollbackGuard = guard;
  }

  /** The write-through engine, for a namespace change about to be persisted. */
  NvmWriteThrough wt() {
    return engine(writeThrough, "a namespace change");
  }

  /**
   * {@code e}, about to persist a change: one before the region is open stops the NameNode, and the
   * rollback guard hears of every change first (an fsimage saved before it, which carries the
   * namespace, the cache manager's and the secret manager's state, must not load as complete).
   */
  private <T> T engine(T e, String change) {
    if (e == null) {
      WriteThroughFailure.stop(change + " before the region was opened", null);
    }
    NvmRollbackImageGuard g = rollbackGuard;
    if (g != null) {
      g.beforeChange();
    }
    return e;
  }

  // ---- segment markers: the txid high-water mark goes to the superblock

  @Override
  synchronized void startLogSegment(long segmentTxId, boolean writeHeaderTxn) throws IOException {
    super.startLogSegment(segmentTxId, writeHeaderTxn);
    if (ha) {
      // the segment's first op is acknowledged now; its later ops' batches may reach the region
      // before the quorum accepts them, so the mark goes down before any of them (NvmHaWriterMark)
      NvmHaWriterMark.segmentStarted(nameDirs, segmentTxId);
    }
    if (writeThrough != null) {
      writeThrough.lastTxId(getLastWrittenTxId());
      syncRegion(true);
    }
  }

  /**
   * With HA: every op of the segment is acknowledged and the segment finalized; no mark. Unless the
   * shared journal failed in the segment: 2.7.3 then aborts its stream and terminates the NameNode,
   * and a later end of the segment finalizes nothing (an in-process NameNode, stopped after the
   * termination, seems to end it cleanly); the mark stays.
   */
  @Override
  public synchronized void endCurrentLogSegment(boolean writeEndTxn) {
    boolean sharedWritable = true;
    for (JournalSet.JournalAndStream j : getJournals()) {
      sharedWritable &= !j.isShared() || j.isActive();
    }
    super.endCurrentLogSegment(writeEndTxn);
    if (ha && sharedWritable) {
      if (writeThrough != null) {
        // the region then ends where the finalized segment does, as a standby's does (it persists
        // the segment markers it applies), so a restart opens the next segment after it
        writeThrough.lastTxId(getLastWrittenTxId());
      }
      syncRegion(true);
      try {
        NvmHaWriterMark.segmentEnded(nameDirs);
      } catch (IOException e) {
        // a mark left behind only makes the next start check the segment against the journal
        LOG.warn("NVM NameNode: cannot remove the HA writer mark", e);
      }
    }
  }

  // ---- durability: group commit of the region behind logSync (docs/region-format.md §7.7)

  /**
   * Stock {@code logSync} (with HA: this thread's ops acknowledged by the journal quorum, group
   * commit as stock), then this thread's batches made durable in the region, in one group commit
   * with every other thread's staged so far. Runs after the namesystem lock is released, so the
   * flushes and barriers of the region are out of it; the RPC answers after this returns. With HA
   * only the batches up to this thread's last one are committed: later ones belong to ops the
   * quorum may not have acknowledged yet, and the region must not get ahead of it.
   */
  @Override
  public void logSync() {
    if (!ha) {
      // nothing was logged for this thread's ops (the typed methods build no op without HA), and
      // the stock sync would run a whole round over the null journal: a thread that never logged
      // an edit has "Long.MAX_VALUE" as its transaction id, which is never synced
      syncRegion(false);
      return;
    }
    try {
      super.logSync();
    } catch (RuntimeException | Error e) {
      abandonRegionCommits(); // the journal failed: 2.7.3 terminates (a test's ExitUtil throws)
      throw e;
    }
    syncRegion(false);
  }

  /** Stock, then every staged batch made durable. */
  @Override
  void logSyncAll() {
    try {
      super.logSyncAll();
    } catch (RuntimeException | Error e) {
      abandonRegionCommits();
      throw e;
    }
    syncRegion(true);
  }

  /**
   * The journal could not sync: the NameNode stops, and no staged batch may reach the region any
   * more, not even when it closes: with HA their ops may be missing from the quorum.
   */
  private void abandonRegionCommits() {
    NvmWriteThrough w = writeThrough;
    if (w != null) {
      w.store().abandonStaged();
    }
  }

  private void syncRegion(boolean all) {
    NvmWriteThrough w = writeThrough;
    if (w == null) {
      return;
    }
    try {
      if (all) {
        w.store().syncAll();
      } else {
        w.store().syncMine(!ha);
      }
    } catch (IOException e) {
      // memory changed and the change may be acknowledged to nobody: as a failed edit-log sync
      // does in 2.7.3, the NameNode stops rather than serve what it cannot keep
      WriteThroughFailure.stop("a group commit of the region", e);
    }
  }

  /** The ops the typed methods below log with HA: each persisted by its method. */
  private static final Set<FSEditLogOpCodes> PERSISTED_WITH_HA =
      EnumSet.of(
          FSEditLogOpCodes.OP_MKDIR,
          FSEditLogOpCodes.OP_ADD,
          FSEditLogOpCodes.OP_SYMLINK,
          FSEditLogOpCodes.OP_APPEND,
          FSEditLogOpCodes.OP_CLOSE,
          FSEditLogOpCodes.OP_ADD_BLOCK,
          FSEditLogOpCodes.OP_UPDATE_BLOCKS,
          FSEditLogOpCodes.OP_REASSIGN_LEASE,
          FSEditLogOpCodes.OP_SET_REPLICATION,
          FSEditLogOpCodes.OP_SET_STORAGE_POLICY,
          FSEditLogOpCodes.OP_SET_QUOTA,
          FSEditLogOpCodes.OP_SET_QUOTA_BY_STORAGETYPE,
          FSEditLogOpCodes.OP_ALLOW_SNAPSHOT,
          FSEditLogOpCodes.OP_DISALLOW_SNAPSHOT,
          FSEditLogOpCodes.OP_CREATE_SNAPSHOT,
          FSEditLogOpCodes.OP_RENAME_SNAPSHOT,
          FSEditLogOpCodes.OP_DELETE_SNAPSHOT,
          FSEditLogOpCodes.OP_SET_PERMISSIONS,
          FSEditLogOpCodes.OP_SET_OWNER,
          FSEditLogOpCodes.OP_TIMES,
          FSEditLogOpCodes.OP_SET_ACL,
          FSEditLogOpCodes.OP_SET_XATTR,
          FSEditLogOpCodes.OP_REMOVE_XATTR,
          FSEditLogOpCodes.OP_RENAME_OLD,
          FSEditLogOpCodes.OP_RENAME,
          FSEditLogOpCodes.OP_DELETE,
          FSEditLogOpCodes.OP_TRUNCATE,
          FSEditLogOpCodes.OP_CONCAT_DELETE,
          FSEditLogOpCodes.OP_ADD_CACHE_POOL,
          FSEditLogOpCodes.OP_MODIFY_CACHE_POOL,
          FSEditLogOpCodes.OP_REMOVE_CACHE_POOL,
          FSEditLogOpCodes.OP_ADD_CACHE_DIRECTIVE,
          FSEditLogOpCodes.OP_MODIFY_CACHE_DIRECTIVE,
          FSEditLogOpCodes.OP_REMOVE_CACHE_DIRECTIVE,
          FSEditLogOpCodes.OP_GET_DELEGATION_TOKEN,
          FSEditLogOpCodes.OP_RENEW_DELEGATION_TOKEN,
          FSEditLogOpCodes.OP_CANCEL_DELEGATION_TOKEN,
          FSEditLogOpCodes.OP_UPDATE_MASTER_KEY,
          FSEditLogOpCodes.OP_SET_GENSTAMP_V1,
          FSEditLogOpCodes.OP_SET_GENSTAMP_V2,
          FSEditLogOpCodes.OP_ALLOCATE_BLOCK_ID);

  @Override
  void logEdit(FSEditLogOp op) {
    switch (op.opCode) {
      case OP_START_LOG_SEGMENT:
      case OP_END_LOG_SEGMENT:
        super.logEdit(op); // not namespace state; the null journal discards it
        return;
      default:
        if (ha && PERSISTED_WITH_HA.contains(op.opCode)) {
          super.logEdit(op); // its typed method persists its batch right after
          return;
        }
        String name = op.opCode.name();
        op.reset();
        WriteThroughFailure.stop(
            "edit-log operation "
                + name
                + " (not supported in NVM mode; the RPC layer "
                + "should have refused it)",
            null);
    }
  }

  /**
   * The monitor a typed method holds while it logs its op (HA) and persists its batch: this edit
   * log with HA, so that ops and batches are ordered together; without HA a private lock, since no
   * op is logged.
   */
  Object order() {
    return ha ? this : noOrder;
  }

  private final Object noOrder = new Object();

  /** The cache manager's write-through, for a cache pool or directive change. */
  NvmCacheWriteThrough cache() {
    return engine(cache, "a cache pool or directive change");
  }

  /** The secret manager's write-through, for a token or master key change. */
  NvmTokenWriteThrough tokens() {
    return engine(tokens, "a delegation token change");
  }
}
