package org.apache.hadoop.hdfs.server.namenode;

import java.io.IOException;
import java.util.Collections;
import java.util.List;
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
 * NvmWriteThrough}) and does NOT build an op. The journal is a {@link NullJournalManager}, so
 * segment markers (the only ops that still reach {@link #logEdit}) go nowhere: no edit-log record
 * is written or fsynced for any namespace operation. Any other op reaching {@link #logEdit} is one
 * this class does not know how to persist; since memory already changed, it stops the NameNode.
 */
class NvmFSEditLog extends FSEditLog { // not final: upstream tests spy on the edit log (Mockito)
  private volatile NvmWriteThrough writeThrough;
  private volatile NvmRollbackImageGuard rollbackGuard;
  private volatile NvmTokenWriteThrough tokens;
  private volatile NvmCacheWriteThrough cache;

  NvmFSEditLog(Configuration conf, NNStorage storage) {
    super(journalConf(conf), storage, Collections.singletonList(NullJournalManager.URI_));
  }

  /**
   * A private copy of the configuration in which the edits dirs are the null journal's URI and its
   * plugin class is registered; the operator's configuration is unchanged.
   */
  static Configuration journalConf(Configuration conf) {
    Configuration c = new Configuration(conf);
    String uri = NullJournalManager.URI_.toString();
    c.set(DFSConfigKeys.DFS_NAMENODE_EDITS_DIR_KEY, uri);
    c.unset(DFSConfigKeys.DFS_NAMENODE_EDITS_DIR_REQUIRED_KEY);
    c.unset(DFSConfigKeys.DFS_NAMENODE_SHARED_EDITS_DIR_KEY);
    c.set(
        DFSConfigKeys.DFS_NAMENODE_EDITS_PLUGIN_PREFIX + "." + NullJournalManager.SCHEME,
        NullJournalManager.class.getName());
    return c;
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
    if (writeThrough != null) {
      writeThrough.lastTxId(getLastWrittenTxId());
    }
  }

  @Override
  void logEdit(FSEditLogOp op) {
    switch (op.opCode) {
      case OP_START_LOG_SEGMENT:
      case OP_END_LOG_SEGMENT:
        super.logEdit(op); // not namespace state; the null journal discards it
        return;
      default:
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

  // ---- inode creation

  @Override
  public void logMkDir(String path, INode newNode) {
    wt().created(path, newNode);
  }

  @Override
  public void logOpenFile(String path, INodeFile newNode, boolean overwrite, boolean toLogRpcIds) {
    // with overwrite the old file's removal arrived before (removeLeasesAndINodes) and
    // goes into this batch
    NvmWriteThrough w = wt();
    if (toLogRpcIds) {
      w.retryable(RegionLayout.RETRY_CREATE, newNode.getId());
    }
    w.created(path, newNode);
  }

  @Override
  void logSymlink(
      String path, String value, long mtime, long atime, INodeSymlink node, boolean toLogRpcIds) {
    NvmWriteThrough w = wt();
    if (toLogRpcIds) {
      w.retryable(RegionLayout.RETRY_SUCCESS, 0);
    }
    w.created(path, node);
  }

  // ---- file state

  @Override
  public void logAppendFile(String path, INodeFile file, boolean newBlock, boolean toLogRpcIds) {
    NvmWriteThrough w = wt();
    if (toLogRpcIds) {
      w.retryable(RegionLayout.RETRY_APPEND, file.getId());
    }
    w.inodeChanged(path, file);
  }

  @Override
  public void logCloseFile(String path, INodeFile newNode) {
    wt().inodeChanged(path, newNode);
  }

  @Override
  public void logAddBlock(String path, INodeFile file) {
    wt().inodeChanged(path, file);
  }

  @Override
  public void logUpdateBlocks(String path, INodeFile file, boolean toLogRpcIds) {
    NvmWriteThrough w = wt();
    if (toLogRpcIds) { // updatePipeline
      w.retryable(RegionLayout.RETRY_SUCCESS, 0);
    }
    w.inodeChanged(path, file);
  }

  @Override
  void logReassignLease(String leaseHolder, String src, String newHolder) {
    // called before the namesystem sets newHolder on the file: the page takes it from here
    wt().leaseReassigned(src, newHolder);
  }

  // ---- attributes

  @Override
  void logSetReplication(String src, short replication) {
    wt().pathChanged(src);
  }

  @Override
  void logSetStoragePolicy(String src, byte policyId) {
    wt().pathChanged(src);
  }

  @Override
  void logSetQuota(String src, long nsQuota, long dsQuota) {
    wt().pathChanged(src);
  }

  @Override
  void logSetQuotaByStorageType(String src, long dsQuota, StorageType type) {
    wt().pathChanged(src);
  }

  @Override
  void logSetPermissions(String src, FsPermission permissions) {
    wt().pathChanged(src);
  }

  @Override
  void logSetOwner(String src, String username, String groupname) {
    wt().pathChanged(src);
  }

  @Override
  void logTimes(String src, long mtime, long atime) {
    wt().pathChanged(src);
  }

  /**
   * OP_SET_ACL: setAcl, modifyAclEntries, removeAclEntries, removeDefaultAcl and removeAcl all log
   * the whole resulting ACL; the page takes the inode's mode bits and attribute chain from memory.
   */
  @Override
  void logSetAcl(String src, List<AclEntry> entries) {
    wt().pathChanged(src);
  }

  /** OP_SET_XATTR (setXAttr, createEncryptionZone): the inode's whole attribute chain. */
  @Override
  void logSetXAttrs(String src, List<XAttr> xAttrs, boolean toLogRpcIds) {
    NvmWriteThrough w = wt();
    if (toLogRpcIds) {
      w.retryable(RegionLayout.RETRY_SUCCESS, 0);
    }
    w.pathChanged(src);
  }

  /** OP_REMOVE_XATTR. */
  @Override
  void logRemoveXAttrs(String src, List<XAttr> xAttrs, boolean toLogRpcIds) {
    NvmWriteThrough w = wt();
    if (toLogRpcIds) {
      w.retryable(RegionLayout.RETRY_SUCCESS, 0);
    }
    w.pathChanged(src);
  }

  // ---- structure

  @Override
  void logRename(String src, String dst, long timestamp, boolean toLogRpcIds) {
    NvmWriteThrough w = wt();
    if (toLogRpcIds) {
      w.retryable(RegionLayout.RETRY_SUCCESS, 0);
    }
    w.renamed(src, dst);
  }

  @Override
  void logRename(
      String src, String dst, long timestamp, boolean toLogRpcIds, Options.Rename... options) {
    NvmWriteThrough w = wt();
    if (toLogRpcIds) {
      w.retryable(RegionLayout.RETRY_SUCCESS, 0);
    }
    w.renamed(src, dst);
  }

  @Override
  void logDelete(String src, long timestamp, boolean toLogRpcIds) {
    NvmWriteThrough w = wt();
    if (toLogRpcIds) { // staged with the removal's batch (NvmWriteThrough.removed)
      w.retryable(RegionLayout.RETRY_SUCCESS, 0);
    }
    w.deleted(src);
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
    wt().pathChanged(src);
  }

  @Override
  void logConcat(String trg, String[] srcs, long timestamp, boolean toLogRpcIds) {
    NvmWriteThrough w = wt();
    if (toLogRpcIds) {
      w.retryable(RegionLayout.RETRY_SUCCESS, 0);
    }
    w.concatenated(trg);
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
    cache().poolAdded(pool, toLogRpcIds);
  }

  @Override
  void logModifyCachePool(CachePoolInfo info, boolean toLogRpcIds) {
    cache().poolModified(info, toLogRpcIds);
  }

  @Override
  void logRemoveCachePool(String poolName, boolean toLogRpcIds) {
    cache().poolRemoved(poolName, toLogRpcIds);
  }

  @Override
  void logAddCacheDirectiveInfo(CacheDirectiveInfo directive, boolean toLogRpcIds) {
    cache().directiveAdded(directive, toLogRpcIds);
  }

  @Override
  void logModifyCacheDirectiveInfo(CacheDirectiveInfo directive, boolean toLogRpcIds) {
    cache().directiveModified(directive, toLogRpcIds);
  }

  @Override
  void logRemoveCacheDirectiveInfo(Long id, boolean toLogRpcIds) {
    cache().directiveRemoved(id, toLogRpcIds);
  }

  // ---- the delegation token secret manager (NvmTokenWriteThrough): the RPC handlers log under
  // the namesystem lock, the secret manager's own thread without it

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
    tokens().tokenIssued(id, expiryTime);
  }

  @Override
  void logRenewDelegationToken(DelegationTokenIdentifier id, long expiryTime) {
    tokens().tokenRenewed(id, expiryTime);
  }

  @Override
  void logCancelDelegationToken(DelegationTokenIdentifier id) {
    tokens().tokenCancelled(id);
  }

  @Override
  void logUpdateMasterKey(DelegationKey key) {
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
    wt().counter("generation stamp v1", RegionLayout.SB_GENSTAMP_V1, genstamp);
  }

  @Override
  void logGenerationStampV2(long genstamp) {
    wt().counter("generation stamp", RegionLayout.SB_GENSTAMP_V2, genstamp);
  }

  @Override
  void logAllocateBlockId(long blockId) {
    wt().counter("block id", RegionLayout.SB_LAST_BLOCK_ID, blockId);
  }
}
