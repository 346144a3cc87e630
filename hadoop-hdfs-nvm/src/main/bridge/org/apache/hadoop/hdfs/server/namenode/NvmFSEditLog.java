package org.apache.hadoop.hdfs.server.namenode;

import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.fs.XAttr;
import org.apache.hadoop.fs.permission.AclEntry;
import org.apache.hadoop.fs.permission.FsPermission;
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
class NvmFSEditLog
    extends NvmEditLogCore { // not final: upstream tests spy on the edit log (Mockito)
  NvmFSEditLog(Configuration conf, NNStorage storage, boolean ha) {
    super(conf, storage, ha);
  }

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

  // ---- snapshots: allowing and disallowing them is a word of the directory page (DI_SNAPSHOT);
  // snapshots and their diffs are records (region-format.md §13), written by the batch of each
  // edit that changes them; creating, renaming and deleting snapshots is a preview
  // (NvmConfigKeys.NVM_SNAPSHOTS_PREVIEW_KEY; docs/snapshots.md)

  @Override
  void logCreateSnapshot(String snapRoot, String snapName, boolean toLogRpcIds) {
    synchronized (order()) {
      if (ha) {
        super.logCreateSnapshot(snapRoot, snapName, toLogRpcIds);
      }
      NvmWriteThrough w = wt();
      if (toLogRpcIds) { // the retry's answer is the snapshot's path: kept by its id
        w.retryable(
            RegionLayout.RETRY_CREATE_SNAPSHOT,
            SnapshotRestore.snapshotId(w.namesystem(), snapRoot, snapName));
      }
      w.snapshotCreated(snapRoot, snapName);
    }
  }

  @Override
  void logRenameSnapshot(String path, String snapOldName, String snapNewName, boolean toLogRpcIds) {
    synchronized (order()) {
      if (ha) {
        super.logRenameSnapshot(path, snapOldName, snapNewName, toLogRpcIds);
      }
      NvmWriteThrough w = wt();
      if (toLogRpcIds) {
        w.retryable(RegionLayout.RETRY_SUCCESS, 0);
      }
      w.snapshotRenamed(path, snapOldName, snapNewName);
    }
  }

  @Override
  void logDeleteSnapshot(String snapRoot, String snapName, boolean toLogRpcIds) {
    synchronized (order()) {
      if (ha) {
        super.logDeleteSnapshot(snapRoot, snapName, toLogRpcIds);
      }
      NvmWriteThrough w = wt();
      if (toLogRpcIds) {
        w.retryable(RegionLayout.RETRY_SUCCESS, 0);
      }
      w.snapshotDeleted(snapRoot, snapName);
    }
  }

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
    NvmWriteThrough w = writeThrough();
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
