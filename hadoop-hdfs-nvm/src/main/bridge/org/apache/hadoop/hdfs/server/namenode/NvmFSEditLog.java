package org.apache.hadoop.hdfs.server.namenode;

import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.fs.XAttr;
import org.apache.hadoop.fs.permission.AclEntry;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.protocol.Block;
import org.apache.hadoop.hdfs.protocol.CacheDirectiveInfo;
import org.apache.hadoop.hdfs.protocol.CachePoolInfo;
import org.apache.hadoop.hdfs.security.token.delegation.DelegationTokenIdentifier;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout;
import org.apache.hadoop.security.token.delegation.DelegationKey;

/**
 * The edit log of an NVM NameNode. Every typed log method the namesystem calls after changing
 * memory under the write lock persists the resulting inode state into the region ({@link
 * NvmWriteThrough}). Without HA it does NOT build an op: the journal is a {@link
 * NullJournalManager}, so segment markers (the only ops that still reach {@link #logEdit}) go
 * nowhere and no edit-log record is written or fsynced for any namespace operation. With HA the
 * stock op is logged to the shared journal as well (docs/ha.md): each typed method logs it, then
 * persists its batch, both holding this object's monitor, so batches reach the region in the order
 * of their transaction ids and each carries its own; {@code logSync} (outside the namesystem lock,
 * group commit as stock) waits for the journal quorum before the RPC answers. Any other op reaching
 * {@link #logEdit} is one this class does not know how to persist; since memory already changed, it
 * stops the NameNode.
 */
class NvmFSEditLog extends FSEditLog { // not final: upstream tests spy on the edit log (Mockito)
  private volatile NvmWriteThrough writeThrough;
  private volatile NvmRollbackImageGuard rollbackGuard;
  private volatile NvmTokenWriteThrough tokens;
  private volatile NvmCacheWriteThrough cache;

  /** HA: ops go to the shared journal too (see the class comment). */
  private final boolean ha;

  /**
   * HA standby: the transaction id of the op the tailer is applying (its batch is stamped with it),
   * -1 when not applying; the active stamps its batches with the last id it wrote.
   */
  private volatile long applyingTxId = -1;

  /** The name directories (FSEditLog keeps its own reference private). */
  private final NNStorage nameDirs;

  NvmFSEditLog(Configuration conf, NNStorage storage, boolean ha) {
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
  private NvmWriteThrough wt() {
    NvmWriteThrough n = writeThrough;
    if (n == null) {
      WriteThroughFailure.stop("a namespace change before the region was opened", null);
    }
    NvmRollbackImageGuard g = rollbackGuard;
    if (g != null) {
      g.beforeChange(); // an fsimage saved before this change must not load as complete
    }
    return n;
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
  private Object order() {
    return ha ? this : noOrder;
  }

  private final Object noOrder = new Object();

  // ---- inode creation

  @Override
  public void logMkDir(String path, INode newNode) {
    synchronized (order()) {
      if (ha) {
        super.logMkDir(path, newNode);
      }
      wt().created(path, newNode);
    }
  }

  @Override
  public void logOpenFile(String path, INodeFile newNode, boolean overwrite, boolean toLogRpcIds) {
    synchronized (order()) {
      if (ha) {
        super.logOpenFile(path, newNode, overwrite, toLogRpcIds);
      }
      // with overwrite the old file's removal arrived before (removeLeasesAndINodes) and
      // goes into this batch
      NvmWriteThrough w = wt();
      if (toLogRpcIds) {
        w.retryable(RegionLayout.RETRY_CREATE, newNode.getId());
      }
      w.created(path, newNode);
    }
  }

  @Override
  void logSymlink(
      String path, String value, long mtime, long atime, INodeSymlink node, boolean toLogRpcIds) {
    synchronized (order()) {
      if (ha) {
        super.logSymlink(path, value, mtime, atime, node, toLogRpcIds);
      }
      NvmWriteThrough w = wt();
      if (toLogRpcIds) {
        w.retryable(RegionLayout.RETRY_SUCCESS, 0);
      }
      w.created(path, node);
    }
  }

  // ---- file state

  @Override
  public void logAppendFile(String path, INodeFile file, boolean newBlock, boolean toLogRpcIds) {
    synchronized (order()) {
      if (ha) {
        super.logAppendFile(path, file, newBlock, toLogRpcIds);
      }
      NvmWriteThrough w = wt();
      if (toLogRpcIds) {
        w.retryable(RegionLayout.RETRY_APPEND, file.getId());
      }
      w.inodeChanged(path, file);
    }
  }

  @Override
  public void logCloseFile(String path, INodeFile newNode) {
    synchronized (order()) {
      if (ha) {
        super.logCloseFile(path, newNode);
      }
      wt().inodeChanged(path, newNode);
    }
  }

  @Override
  public void logAddBlock(String path, INodeFile file) {
    synchronized (order()) {
      if (ha) {
        super.logAddBlock(path, file);
      }
      wt().inodeChanged(path, file);
    }
  }

  @Override
  public void logUpdateBlocks(String path, INodeFile file, boolean toLogRpcIds) {
    synchronized (order()) {
      if (ha) {
        super.logUpdateBlocks(path, file, toLogRpcIds);
      }
      NvmWriteThrough w = wt();
      if (toLogRpcIds) { // updatePipeline
        w.retryable(RegionLayout.RETRY_SUCCESS, 0);
      }
      w.inodeChanged(path, file);
    }
  }

  @Override
  void logReassignLease(String leaseHolder, String src, String newHolder) {
    synchronized (order()) {
      if (ha) {
        super.logReassignLease(leaseHolder, src, newHolder);
      }
      // called before the namesystem sets newHolder on the file: the page takes it from here
      wt().leaseReassigned(src, newHolder);
    }
  }

  // ---- attributes

  @Override
  void logSetReplication(String src, short replication) {
    synchronized (order()) {
      if (ha) {
        super.logSetReplication(src, replication);
      }
      wt().pathChanged(src);
    }
  }

  @Override
  void logSetStoragePolicy(String src, byte policyId) {
    synchronized (order()) {
      if (ha) {
        super.logSetStoragePolicy(src, policyId);
      }
      wt().pathChanged(src);
    }
  }

  @Override
  void logSetQuota(String src, long nsQuota, long dsQuota) {
    synchronized (order()) {
      if (ha) {
        super.logSetQuota(src, nsQuota, dsQuota);
      }
      wt().pathChanged(src);
    }
  }

  // ---- snapshots: allowing and disallowing them is a word of the directory page (DI_SNAPSHOT);
  // snapshots themselves are refused at the RPC layer (docs/snapshots.md)

  @Override
  void logAllowSnapshot(String path) {
    synchronized (order()) {
      if (ha) {
        super.logAllowSnapshot(path);
      }
      wt().pathChanged(path);
    }
  }

  @Override
  void logDisallowSnapshot(String path) {
    synchronized (order()) {
      if (ha) {
        super.logDisallowSnapshot(path);
      }
      wt().pathChanged(path);
    }
  }

  @Override
  void logSetQuotaByStorageType(String src, long dsQuota, StorageType type) {
    synchronized (order()) {
      if (ha) {
        super.logSetQuotaByStorageType(src, dsQuota, type);
      }
      wt().pathChanged(src);
    }
  }

  @Override
  void logSetPermissions(String src, FsPermission permissions) {
    synchronized (order()) {
      if (ha) {
        super.logSetPermissions(src, permissions);
      }
      wt().pathChanged(src);
    }
  }

  @Override
  void logSetOwner(String src, String username, String groupname) {
    synchronized (order()) {
      if (ha) {
        super.logSetOwner(src, username, groupname);
      }
      wt().pathChanged(src);
    }
  }

  @Override
  void logTimes(String src, long mtime, long atime) {
    synchronized (order()) {
      if (ha) {
        super.logTimes(src, mtime, atime);
      }
      wt().pathChanged(src);
    }
  }

  /**
   * OP_SET_ACL: setAcl, modifyAclEntries, removeAclEntries, removeDefaultAcl and removeAcl all log
   * the whole resulting ACL; the page takes the inode's mode bits and attribute chain from memory.
   */
  @Override
  void logSetAcl(String src, List<AclEntry> entries) {
    synchronized (order()) {
      if (ha) {
        super.logSetAcl(src, entries);
      }
      wt().pathChanged(src);
    }
  }

  /** OP_SET_XATTR (setXAttr, createEncryptionZone): the inode's whole attribute chain. */
  @Override
  void logSetXAttrs(String src, List<XAttr> xAttrs, boolean toLogRpcIds) {
    synchronized (order()) {
      if (ha) {
        super.logSetXAttrs(src, xAttrs, toLogRpcIds);
      }
      NvmWriteThrough w = wt();
      if (toLogRpcIds) {
        w.retryable(RegionLayout.RETRY_SUCCESS, 0);
      }
      w.pathChanged(src);
    }
  }

  /** OP_REMOVE_XATTR. */
  @Override
  void logRemoveXAttrs(String src, List<XAttr> xAttrs, boolean toLogRpcIds) {
    synchronized (order()) {
      if (ha) {
        super.logRemoveXAttrs(src, xAttrs, toLogRpcIds);
      }
      NvmWriteThrough w = wt();
      if (toLogRpcIds) {
        w.retryable(RegionLayout.RETRY_SUCCESS, 0);
      }
      w.pathChanged(src);
    }
  }

  // ---- structure

  @Override
  void logRename(String src, String dst, long timestamp, boolean toLogRpcIds) {
    synchronized (order()) {
      if (ha) {
        super.logRename(src, dst, timestamp, toLogRpcIds);
      }
      NvmWriteThrough w = wt();
      if (toLogRpcIds) {
        w.retryable(RegionLayout.RETRY_SUCCESS, 0);
      }
      w.renamed(src, dst);
    }
  }

  @Override
  void logRename(
      String src, String dst, long timestamp, boolean toLogRpcIds, Options.Rename... options) {
    synchronized (order()) {
      if (ha) {
        super.logRename(src, dst, timestamp, toLogRpcIds, options);
      }
      NvmWriteThrough w = wt();
      if (toLogRpcIds) {
        w.retryable(RegionLayout.RETRY_SUCCESS, 0);
      }
      w.renamed(src, dst);
    }
  }

  /**
   * The delete's batch is committed when the namesystem hands over the removed inodes
   * (removeLeasesAndINodes, right after this call); with HA the op is logged then too, so the op
   * and its batch stay together ({@link NvmWriteThrough#deleted(String, Runnable)}).
   */
  @Override
  void logDelete(String src, long timestamp, boolean toLogRpcIds) {
    NvmWriteThrough w = wt();
    if (toLogRpcIds) { // staged with the removal's batch (NvmWriteThrough.removed)
      w.retryable(RegionLayout.RETRY_SUCCESS, 0);
    }
    if (ha) {
      w.deleted(src, () -> super.logDelete(src, timestamp, toLogRpcIds));
    } else {
      w.deleted(src);
    }
  }

  /**
   * OP_TRUNCATE: the file's new block list and mtime; inside a block also its under-construction
   * state and the truncate block (NvmTruncateRecords), one batch.
   */
  @Override
  void logTruncate(
      String src,
      String clientName,
      String clientMachine,
      long size,
      long timestamp,
      Block truncateBlock) {
    synchronized (order()) {
      if (ha) {
        super.logTruncate(src, clientName, clientMachine, size, timestamp, truncateBlock);
      }
      wt().pathChanged(src);
    }
  }

  @Override
  void logConcat(String trg, String[] srcs, long timestamp, boolean toLogRpcIds) {
    synchronized (order()) {
      if (ha) {
        super.logConcat(trg, srcs, timestamp, toLogRpcIds);
      }
      NvmWriteThrough w = wt();
      if (toLogRpcIds) {
        w.retryable(RegionLayout.RETRY_SUCCESS, 0);
      }
      w.concatenated(trg);
    }
  }

  // ---- the centralized cache manager (NvmCacheWriteThrough): under the namesystem write lock

  private NvmCacheWriteThrough cache() {
    NvmCacheWriteThrough c = cache;
    if (c == null) {
      WriteThroughFailure.stop(
          "a cache pool or directive change before the region was opened", null);
    }
    NvmRollbackImageGuard g = rollbackGuard;
    if (g != null) {
      g.beforeChange(); // an fsimage carries the cache manager's state too
    }
    return c;
  }

  @Override
  void logAddCachePool(CachePoolInfo pool, boolean toLogRpcIds) {
    synchronized (order()) {
      if (ha) {
        super.logAddCachePool(pool, toLogRpcIds);
      }
      cache().poolAdded(pool, toLogRpcIds);
    }
  }

  @Override
  void logModifyCachePool(CachePoolInfo info, boolean toLogRpcIds) {
    synchronized (order()) {
      if (ha) {
        super.logModifyCachePool(info, toLogRpcIds);
      }
      cache().poolModified(info, toLogRpcIds);
    }
  }

  @Override
  void logRemoveCachePool(String poolName, boolean toLogRpcIds) {
    synchronized (order()) {
      if (ha) {
        super.logRemoveCachePool(poolName, toLogRpcIds);
      }
      cache().poolRemoved(poolName, toLogRpcIds);
    }
  }

  @Override
  void logAddCacheDirectiveInfo(CacheDirectiveInfo directive, boolean toLogRpcIds) {
    synchronized (order()) {
      if (ha) {
        super.logAddCacheDirectiveInfo(directive, toLogRpcIds);
      }
      cache().directiveAdded(directive, toLogRpcIds);
    }
  }

  @Override
  void logModifyCacheDirectiveInfo(CacheDirectiveInfo directive, boolean toLogRpcIds) {
    synchronized (order()) {
      if (ha) {
        super.logModifyCacheDirectiveInfo(directive, toLogRpcIds);
      }
      cache().directiveModified(directive, toLogRpcIds);
    }
  }

  @Override
  void logRemoveCacheDirectiveInfo(Long id, boolean toLogRpcIds) {
    synchronized (order()) {
      if (ha) {
        super.logRemoveCacheDirectiveInfo(id, toLogRpcIds);
      }
      cache().directiveRemoved(id, toLogRpcIds);
    }
  }

  // ---- the delegation token secret manager (NvmTokenWriteThrough): the RPC handlers log under
  // the namesystem lock, the secret manager's own thread without it (with HA the edit log's monitor
  // orders both, see order())

  private NvmTokenWriteThrough tokens() {
    NvmTokenWriteThrough t = tokens;
    if (t == null) {
      WriteThroughFailure.stop("a delegation token change before the region was opened", null);
    }
    NvmRollbackImageGuard g = rollbackGuard;
    if (g != null) {
      g.beforeChange(); // an fsimage carries the secret manager's state too
    }
    return t;
  }

  @Override
  void logGetDelegationToken(DelegationTokenIdentifier id, long expiryTime) {
    synchronized (order()) {
      if (ha) {
        super.logGetDelegationToken(id, expiryTime);
      }
      tokens().tokenIssued(id, expiryTime);
    }
  }

  @Override
  void logRenewDelegationToken(DelegationTokenIdentifier id, long expiryTime) {
    synchronized (order()) {
      if (ha) {
        super.logRenewDelegationToken(id, expiryTime);
      }
      tokens().tokenRenewed(id, expiryTime);
    }
  }

  @Override
  void logCancelDelegationToken(DelegationTokenIdentifier id) {
    synchronized (order()) {
      if (ha) {
        super.logCancelDelegationToken(id);
      }
      tokens().tokenCancelled(id);
    }
  }

  @Override
  void logUpdateMasterKey(DelegationKey key) {
    synchronized (order()) {
      if (ha) {
        super.logUpdateMasterKey(key);
      }
      masterKeyUpdated(key);
    }
  }

  private void masterKeyUpdated(DelegationKey key) {
    NvmWriteThrough w = writeThrough;
    DelegationKey[] now =
        w == null
            ? new DelegationKey[0]
            : w.namesystem().getDelegationTokenSecretManager().getAllKeys();
    tokens().masterKeyUpdated(key, now);
  }

  // ---- counters, persisted before the value is handed out

  @Override
  void logGenerationStampV1(long genstamp) {
    synchronized (order()) {
      if (ha) {
        super.logGenerationStampV1(genstamp);
      }
      wt().counter("generation stamp v1", RegionLayout.SB_GENSTAMP_V1, genstamp);
    }
  }

  @Override
  void logGenerationStampV2(long genstamp) {
    synchronized (order()) {
      if (ha) {
        super.logGenerationStampV2(genstamp);
      }
      wt().counter("generation stamp", RegionLayout.SB_GENSTAMP_V2, genstamp);
    }
  }

  @Override
  void logAllocateBlockId(long blockId) {
    synchronized (order()) {
      if (ha) {
        super.logAllocateBlockId(blockId);
      }
      wt().counter("block id", RegionLayout.SB_LAST_BLOCK_ID, blockId);
    }
  }
}
