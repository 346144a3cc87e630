package org.apache.hadoop.hdfs.server.namenode;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hdfs.DFSUtil;
import org.apache.hadoop.hdfs.server.namenode.FSEditLogOp.AddBlockOp;
import org.apache.hadoop.hdfs.server.namenode.FSEditLogOp.AddCacheDirectiveInfoOp;
import org.apache.hadoop.hdfs.server.namenode.FSEditLogOp.AddCachePoolOp;
import org.apache.hadoop.hdfs.server.namenode.FSEditLogOp.AddCloseOp;
import org.apache.hadoop.hdfs.server.namenode.FSEditLogOp.AllocateBlockIdOp;
import org.apache.hadoop.hdfs.server.namenode.FSEditLogOp.AllowSnapshotOp;
import org.apache.hadoop.hdfs.server.namenode.FSEditLogOp.AppendOp;
import org.apache.hadoop.hdfs.server.namenode.FSEditLogOp.CancelDelegationTokenOp;
import org.apache.hadoop.hdfs.server.namenode.FSEditLogOp.ClearNSQuotaOp;
import org.apache.hadoop.hdfs.server.namenode.FSEditLogOp.ConcatDeleteOp;
import org.apache.hadoop.hdfs.server.namenode.FSEditLogOp.CreateSnapshotOp;
import org.apache.hadoop.hdfs.server.namenode.FSEditLogOp.DeleteSnapshotOp;
import org.apache.hadoop.hdfs.server.namenode.FSEditLogOp.DisallowSnapshotOp;
import org.apache.hadoop.hdfs.server.namenode.FSEditLogOp.GetDelegationTokenOp;
import org.apache.hadoop.hdfs.server.namenode.FSEditLogOp.MkdirOp;
import org.apache.hadoop.hdfs.server.namenode.FSEditLogOp.ModifyCacheDirectiveInfoOp;
import org.apache.hadoop.hdfs.server.namenode.FSEditLogOp.ModifyCachePoolOp;
import org.apache.hadoop.hdfs.server.namenode.FSEditLogOp.ReassignLeaseOp;
import org.apache.hadoop.hdfs.server.namenode.FSEditLogOp.RemoveCacheDirectiveInfoOp;
import org.apache.hadoop.hdfs.server.namenode.FSEditLogOp.RemoveCachePoolOp;
import org.apache.hadoop.hdfs.server.namenode.FSEditLogOp.RemoveXAttrOp;
import org.apache.hadoop.hdfs.server.namenode.FSEditLogOp.RenameOldOp;
import org.apache.hadoop.hdfs.server.namenode.FSEditLogOp.RenameOp;
import org.apache.hadoop.hdfs.server.namenode.FSEditLogOp.RenameSnapshotOp;
import org.apache.hadoop.hdfs.server.namenode.FSEditLogOp.RenewDelegationTokenOp;
import org.apache.hadoop.hdfs.server.namenode.FSEditLogOp.SetAclOp;
import org.apache.hadoop.hdfs.server.namenode.FSEditLogOp.SetGenstampV1Op;
import org.apache.hadoop.hdfs.server.namenode.FSEditLogOp.SetGenstampV2Op;
import org.apache.hadoop.hdfs.server.namenode.FSEditLogOp.SetNSQuotaOp;
import org.apache.hadoop.hdfs.server.namenode.FSEditLogOp.SetOwnerOp;
import org.apache.hadoop.hdfs.server.namenode.FSEditLogOp.SetPermissionsOp;
import org.apache.hadoop.hdfs.server.namenode.FSEditLogOp.SetQuotaByStorageTypeOp;
import org.apache.hadoop.hdfs.server.namenode.FSEditLogOp.SetQuotaOp;
import org.apache.hadoop.hdfs.server.namenode.FSEditLogOp.SetReplicationOp;
import org.apache.hadoop.hdfs.server.namenode.FSEditLogOp.SetStoragePolicyOp;
import org.apache.hadoop.hdfs.server.namenode.FSEditLogOp.SetXAttrOp;
import org.apache.hadoop.hdfs.server.namenode.FSEditLogOp.SymlinkOp;
import org.apache.hadoop.hdfs.server.namenode.FSEditLogOp.TimesOp;
import org.apache.hadoop.hdfs.server.namenode.FSEditLogOp.TruncateOp;
import org.apache.hadoop.hdfs.server.namenode.FSEditLogOp.UpdateBlocksOp;
import org.apache.hadoop.hdfs.server.namenode.FSEditLogOp.UpdateMasterKeyOp;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout;

/**
 * An HA standby's write-through on apply (docs/ha.md): the stock loader applies each edit the
 * tailer reads from the shared journal to memory, and this class persists the state it left, with
 * the same write-through calls the active's {@link NvmFSEditLog} made for the same edit, so that
 * the standby's region stays current op by op and each batch is stamped with its edit's transaction
 * id. {@link #before} runs just before the loader applies an op (what must be looked up before
 * memory changes: a concat's sources), {@link #after} once it has (the loader asked for the next
 * op), both under the namesystem write lock the loader holds.
 */
final class NvmEditApplier {
  /** Staged batches the standby lets wait before it commits them (see {@link #after}). */
  static final long STAGED_BATCHES_MAX = 4096;

  private final FSNamesystem fsn;
  private final NvmFSEditLog editLog;

  NvmEditApplier(FSNamesystem fsn, NvmFSEditLog editLog) {
    this.fsn = fsn;
    this.editLog = editLog;
  }

  void before(FSEditLogOp op) {
    editLog.applying(op.getTransactionId());
    if (op.hasRpcIds()) {
      NvmRetryLog.replaying(op.rpcClientId, op.rpcCallId);
    }
    if (op.opCode == FSEditLogOpCodes.OP_CONCAT_DELETE) {
      // 2.7.3's concat drops its sources without removeLeasesAndINodes (NvmFSNamesystem.concat)
      editLog.writeThrough().concatStarting(resolveAll(((ConcatDeleteOp) op).srcs));
    }
  }

  void after(FSEditLogOp op) {
    NvmWriteThrough w = editLog.writeThrough();
    try {
      persist(w, op);
      // what the namesystem's writeUnlock does after an operation on the active; the loader holds
      // the write lock over many edits, so the cache is trimmed here, between two of them
      w.endOfWriteOperation();
      w.slim().endOfWriteOperation();
      w.slim().trimCache();
      // the tail's batches are committed together when it ends (NvmFSImage.loadEdits); a long
      // catch-up commits along the way, so that what waits stays bounded
      w.store().syncIfMoreThan(STAGED_BATCHES_MAX);
    } catch (IOException e) {
      WriteThroughFailure.stop("a group commit of the region while applying the journal", e);
    } finally {
      NvmRetryLog.replayed();
      editLog.applying(-1);
    }
  }

  /** The loader stopped at the op {@link #before} prepared (it failed to apply it). */
  void abandoned() {
    editLog.writeThrough().concatStarting(null);
    NvmRetryLog.replayed();
    editLog.applying(-1);
  }

  private void persist(NvmWriteThrough w, FSEditLogOp op) {
    boolean rpc = op.hasRpcIds();
    switch (op.opCode) {
      case OP_START_LOG_SEGMENT:
      case OP_END_LOG_SEGMENT:
        w.lastTxId(op.getTransactionId());
        return;
      case OP_ADD:
        {
          String path = ((AddCloseOp) op).path;
          INode n = resolve(path);
          if (rpc) {
            w.retryable(RegionLayout.RETRY_CREATE, n.getId());
          }
          w.created(path, n);
          return;
        }
      case OP_MKDIR:
        {
          String path = ((MkdirOp) op).path;
          w.created(path, resolve(path));
          return;
        }
      case OP_SYMLINK:
        {
          String path = ((SymlinkOp) op).path;
          retrySuccess(w, rpc);
          w.created(path, resolve(path));
          return;
        }
      case OP_APPEND:
        {
          String path = ((AppendOp) op).path;
          INode n = resolve(path);
          if (rpc) {
            w.retryable(RegionLayout.RETRY_APPEND, n.getId());
          }
          w.inodeChanged(path, n);
          return;
        }
      case OP_CLOSE:
        w.pathChanged(((AddCloseOp) op).path);
        return;
      case OP_ADD_BLOCK:
        w.pathChanged(((AddBlockOp) op).getPath());
        return;
      case OP_UPDATE_BLOCKS:
        retrySuccess(w, rpc);
        w.pathChanged(((UpdateBlocksOp) op).path);
        return;
      case OP_TRUNCATE:
        w.pathChanged(((TruncateOp) op).src);
        return;
      case OP_REASSIGN_LEASE:
        {
          ReassignLeaseOp r = (ReassignLeaseOp) op;
          w.leaseReassigned(r.path, r.newHolder);
          return;
        }
      case OP_SET_REPLICATION:
        w.pathChanged(((SetReplicationOp) op).path);
        return;
      case OP_SET_STORAGE_POLICY:
        w.pathChanged(((SetStoragePolicyOp) op).path);
        return;
      case OP_SET_PERMISSIONS:
        w.pathChanged(((SetPermissionsOp) op).src);
        return;
      case OP_SET_OWNER:
        w.pathChanged(((SetOwnerOp) op).src);
        return;
      case OP_SET_NS_QUOTA:
        w.pathChanged(((SetNSQuotaOp) op).src);
        return;
      case OP_CLEAR_NS_QUOTA:
        w.pathChanged(((ClearNSQuotaOp) op).src);
        return;
      case OP_ALLOW_SNAPSHOT:
        w.pathChanged(((AllowSnapshotOp) op).snapshotRoot);
        return;
      case OP_DISALLOW_SNAPSHOT:
        w.pathChanged(((DisallowSnapshotOp) op).snapshotRoot);
        return;
      case OP_CREATE_SNAPSHOT:
        // the loader ran 2.7.3's snapshot code over this namespace: the same id as the active's
        CreateSnapshotOp create = (CreateSnapshotOp) op;
        if (rpc) {
          w.retryable(
              RegionLayout.RETRY_CREATE_SNAPSHOT,
              SnapshotRestore.snapshotId(fsn, create.snapshotRoot, create.snapshotName));
        }
        w.snapshotCreated(create.snapshotRoot, create.snapshotName);
        return;
      case OP_RENAME_SNAPSHOT:
        RenameSnapshotOp rename = (RenameSnapshotOp) op;
        retrySuccess(w, rpc);
        w.snapshotRenamed(rename.snapshotRoot, rename.snapshotOldName, rename.snapshotNewName);
        return;
      case OP_DELETE_SNAPSHOT:
        // what only that snapshot held the loader dropped from the inode map (SlimInodeMap)
        DeleteSnapshotOp delete = (DeleteSnapshotOp) op;
        retrySuccess(w, rpc);
        w.snapshotDeleted(delete.snapshotRoot, delete.snapshotName);
        return;
      case OP_SET_QUOTA:
        w.pathChanged(((SetQuotaOp) op).src);
        return;
      case OP_SET_QUOTA_BY_STORAGETYPE:
        w.pathChanged(((SetQuotaByStorageTypeOp) op).src);
        return;
      case OP_TIMES:
        w.pathChanged(((TimesOp) op).path);
        return;
      case OP_SET_ACL:
        w.pathChanged(((SetAclOp) op).src);
        return;
      case OP_SET_XATTR:
        retrySuccess(w, rpc);
        w.pathChanged(((SetXAttrOp) op).src);
        return;
      case OP_REMOVE_XATTR:
        retrySuccess(w, rpc);
        w.pathChanged(((RemoveXAttrOp) op).src);
        return;
      case OP_RENAME_OLD:
        {
          RenameOldOp r = (RenameOldOp) op;
          retrySuccess(w, rpc);
          w.renamed(r.src, r.dst);
          return;
        }
      case OP_RENAME:
        {
          RenameOp r = (RenameOp) op;
          retrySuccess(w, rpc);
          w.renamed(r.src, r.dst);
          return;
        }
      case OP_DELETE:
        retrySuccess(w, rpc);
        w.deleteApplied();
        return;
      case OP_CONCAT_DELETE:
        retrySuccess(w, rpc);
        w.concatenated(((ConcatDeleteOp) op).trg);
        return;
      case OP_SET_GENSTAMP_V1:
        w.counter(
            "generation stamp v1", RegionLayout.SB_GENSTAMP_V1, ((SetGenstampV1Op) op).genStampV1);
        return;
      case OP_SET_GENSTAMP_V2:
        w.counter(
            "generation stamp", RegionLayout.SB_GENSTAMP_V2, ((SetGenstampV2Op) op).genStampV2);
        return;
      case OP_ALLOCATE_BLOCK_ID:
        w.counter("block id", RegionLayout.SB_LAST_BLOCK_ID, ((AllocateBlockIdOp) op).blockId);
        return;
      case OP_GET_DELEGATION_TOKEN:
        {
          GetDelegationTokenOp t = (GetDelegationTokenOp) op;
          editLog.tokenWriteThrough().tokenIssued(t.token, t.expiryTime);
          return;
        }
      case OP_RENEW_DELEGATION_TOKEN:
        {
          RenewDelegationTokenOp t = (RenewDelegationTokenOp) op;
          editLog.tokenWriteThrough().tokenRenewed(t.token, t.expiryTime);
          return;
        }
      case OP_CANCEL_DELEGATION_TOKEN:
        editLog.tokenWriteThrough().tokenCancelled(((CancelDelegationTokenOp) op).token);
        return;
      case OP_UPDATE_MASTER_KEY:
        editLog
            .tokenWriteThrough()
            .masterKeyUpdated(
                ((UpdateMasterKeyOp) op).key, fsn.getDelegationTokenSecretManager().getAllKeys());
        return;
      case OP_ADD_CACHE_POOL:
        editLog.cacheWriteThrough().poolAdded(((AddCachePoolOp) op).info, rpc);
        return;
      case OP_MODIFY_CACHE_POOL:
        editLog.cacheWriteThrough().poolModified(((ModifyCachePoolOp) op).info, rpc);
        return;
      case OP_REMOVE_CACHE_POOL:
        editLog.cacheWriteThrough().poolRemoved(((RemoveCachePoolOp) op).poolName, rpc);
        return;
      case OP_ADD_CACHE_DIRECTIVE:
        editLog.cacheWriteThrough().directiveAdded(((AddCacheDirectiveInfoOp) op).directive, rpc);
        return;
      case OP_MODIFY_CACHE_DIRECTIVE:
        editLog
            .cacheWriteThrough()
            .directiveModified(((ModifyCacheDirectiveInfoOp) op).directive, rpc);
        return;
      case OP_REMOVE_CACHE_DIRECTIVE:
        editLog.cacheWriteThrough().directiveRemoved(((RemoveCacheDirectiveInfoOp) op).id, rpc);
        return;
      default:
        // rolling upgrades: memory has the change and the region cannot hold it
        WriteThroughFailure.stop(
            "edit "
                + op.opCode
                + " (transaction "
                + op.getTransactionId()
                + ") read from the shared journal: a region cannot hold it"
                + " (docs/unsupported-operations.md)",
            null);
    }
  }

  private static void retrySuccess(NvmWriteThrough w, boolean rpc) {
    if (rpc) {
      w.retryable(RegionLayout.RETRY_SUCCESS, 0);
    }
  }

  /** The inode the loader left at {@code path}; a symlink there is the inode itself. */
  private INode resolve(String path) {
    try {
      INode n = fsn.getFSDirectory().getINodesInPath(path, false).getLastINode();
      if (n != null) {
        return n;
      }
    } catch (IOException | RuntimeException e) {
      WriteThroughFailure.stop("applying an edit to " + path, e);
    }
    WriteThroughFailure.stop("applying an edit to " + path + ": the path does not resolve", null);
    return null;
  }

  private List<INode> resolveAll(String[] paths) {
    List<INode> out = new ArrayList<>();
    if (paths != null) {
      for (String p : paths) {
        try {
          INode n = p != null && DFSUtil.isValidName(p) ? fsn.getFSDirectory().getINode(p) : null;
          if (n != null) {
            out.add(n);
          }
        } catch (IOException | RuntimeException e) {
          // the loader's concat refuses it as the active's did
        }
      }
    }
    return out;
  }
}
