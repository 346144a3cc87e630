package org.apache.hadoop.hdfs.server.namenode;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSUtil;
import org.apache.hadoop.hdfs.HAUtil;
import org.apache.hadoop.hdfs.inotify.EventBatchList;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.RollingUpgradeAction;
import org.apache.hadoop.hdfs.protocol.RollingUpgradeInfo;
import org.apache.hadoop.hdfs.server.namenode.nvm.NvmConfigKeys;
import org.apache.hadoop.hdfs.server.protocol.NamenodeCommand;
import org.apache.hadoop.hdfs.server.protocol.NamenodeRegistration;
import org.apache.hadoop.hdfs.server.protocol.RemoteEditLogManifest;

/**
 * The refusals of the NVM NameNode's RPC server ({@link NvmRpcServer}): every call whose result the
 * region cannot hold is refused with an {@link NvmUnsupportedOperationException} before anything
 * changes, after the safe-mode answer a stock NameNode gives a write first, and written to the
 * audit log as a denied call (docs/unsupported-operations.md): snapshots (but allowing and
 * disallowing them), a rolling upgrade's PREPARE, a checkpointer's calls, inotify without HA.
 */
abstract class NvmRpcRefusals extends NameNodeRpcServer {
  /**
   * HA: the shared journal holds every edit, so the calls that read or roll it (the standby's log
   * roll, inotify) are the stock ones.
   */
  final boolean ha;

  /** Snapshots may be created, renamed and deleted (the preview). */
  final boolean snapshotsPreview;

  NvmRpcRefusals(Configuration conf, NameNode nn) throws IOException {
    super(conf, nn);
    this.ha = HAUtil.isHAEnabled(conf, DFSUtil.getNamenodeNameServiceId(conf));
    this.snapshotsPreview =
        conf.getBoolean(
            NvmConfigKeys.NVM_SNAPSHOTS_PREVIEW_KEY, NvmConfigKeys.NVM_SNAPSHOTS_PREVIEW_DEFAULT);
  }

  /** The exception for a refused operation; {@code feature} is plural ("snapshots are"). */
  static NvmUnsupportedOperationException refuse(String featureIsOrAre) {
    return new NvmUnsupportedOperationException(
        "NVM NameNode: "
            + featureIsOrAre
            + " not supported ("
            + NvmConfigKeys.NVM_ENABLED_KEY
            + "=true); the namespace was not changed");
  }

  /**
   * The refusal of an operation that would write. A NameNode in safe mode answers every write with
   * a {@code SafeModeException} before it looks at the operation (clients retry on it and tests
   * expect it), so the same order holds here: safe mode first, then the refusal. Neither step
   * changes anything.
   */
  NvmUnsupportedOperationException refuseWrite(
      String cmd, String src, String what, String featureIsOrAre) throws IOException {
    namesystem.checkNameNodeSafeMode("Cannot write " + what + " in safe mode");
    return refuse(cmd, src, featureIsOrAre);
  }

  /**
   * The refusal of {@code cmd} on {@code src}, written to the audit log as the stock NameNode
   * writes a call it denies ({@code allowed=false}): an operator who reads the audit log sees it.
   */
  NvmUnsupportedOperationException refuse(String cmd, String src, String featureIsOrAre) {
    NvmRefusalAudit.log(namesystem, cmd, src);
    return refuse(featureIsOrAre);
  }

  // ---- snapshots: allowing and disallowing them is persisted (a word of the directory page) and
  // passes through; creating, renaming and deleting them only in the preview (docs/snapshots.md)
  // ----

  @Override
  public String createSnapshot(String snapshotRoot, String snapshotName) throws IOException {
    if (snapshotsPreview) {
      return super.createSnapshot(snapshotRoot, snapshotName);
    }
    throw refuseWrite(
        "createSnapshot", snapshotRoot, "snapshot of " + snapshotRoot, "snapshots are");
  }

  @Override
  public void deleteSnapshot(String snapshotRoot, String snapshotName) throws IOException {
    if (snapshotsPreview) {
      super.deleteSnapshot(snapshotRoot, snapshotName);
      return;
    }
    throw refuseWrite(
        "deleteSnapshot", snapshotRoot, "snapshot deletion in " + snapshotRoot, "snapshots are");
  }

  @Override
  public void renameSnapshot(String snapshotRoot, String snapshotOldName, String snapshotNewName)
      throws IOException {
    if (snapshotsPreview) {
      super.renameSnapshot(snapshotRoot, snapshotOldName, snapshotNewName);
      return;
    }
    throw refuseWrite(
        "renameSnapshot", snapshotRoot, "snapshot rename in " + snapshotRoot, "snapshots are");
  }

  // ---- edit-log-only state ----

  /** QUERY reads state and is allowed; PREPARE and FINALIZE write rolling-upgrade markers. */
  @Override
  public RollingUpgradeInfo rollingUpgrade(RollingUpgradeAction action) throws IOException {
    namesystem.checkSuperuserPrivilege(); // the stock NameNode's first check, for every action
    if (action == RollingUpgradeAction.PREPARE) {
      // a non-HA stock NameNode starts a rolling upgrade only IN safe mode: no safe-mode answer
      throw refuse("rollingUpgrade", null, "rolling upgrades (" + action + ") are");
    }
    // QUERY, and FINALIZE, which has nothing to finalize (no upgrade was prepared) and answers
    // null as the stock NameNode does then, before it looks at safe mode
    return super.rollingUpgrade(action);
  }

  // ---- checkpointers (NamenodeProtocol): nothing to merge, the region is the checkpoint ----

  /**
   * The refusal of a checkpointer's call (SecondaryNameNode, CheckpointNode, BackupNode), after the
   * superuser check the stock NameNode makes first. A SecondaryNameNode running the drop-in jar
   * with NVM mode in its configuration refuses to start with the same message ({@link
   * NvmStartupOptions}); this is what one without it sees, at its first checkpoint.
   */
  private NvmUnsupportedOperationException refuseCheckpointer(String cmd) throws IOException {
    namesystem.checkSuperuserPrivilege();
    NvmRefusalAudit.log(namesystem, cmd, null);
    return new NvmUnsupportedOperationException(
        "NVM NameNode: "
            + cmd
            + " refused: a SecondaryNameNode, CheckpointNode or BackupNode"
            + NvmStartupOptions.CHECKPOINTER_REFUSED);
  }

  /** With HA the standby asks the active to roll its segment (EditLogTailer), as stock. */
  @Override
  public CheckpointSignature rollEditLog() throws IOException {
    if (ha) {
      return super.rollEditLog();
    }
    throw refuseCheckpointer("rollEditLog");
  }

  @Override
  public RemoteEditLogManifest getEditLogManifest(long sinceTxId) throws IOException {
    if (ha) {
      return super.getEditLogManifest(sinceTxId);
    }
    throw refuseCheckpointer("getEditLogManifest");
  }

  @Override
  public NamenodeRegistration registerSubordinateNamenode(NamenodeRegistration registration)
      throws IOException {
    throw refuseCheckpointer("registerSubordinateNamenode");
  }

  @Override
  public NamenodeCommand startCheckpoint(NamenodeRegistration registration) throws IOException {
    throw refuseCheckpointer("startCheckpoint");
  }

  @Override
  public void endCheckpoint(NamenodeRegistration registration, CheckpointSignature sig)
      throws IOException {
    throw refuseCheckpointer("endCheckpoint");
  }

  /**
   * inotify reads namespace events from the edit log, which holds none in NVM mode without HA; with
   * HA the shared journal holds them all.
   */
  @Override
  public EventBatchList getEditsFromTxid(long txid) throws IOException {
    if (ha) {
      return super.getEditsFromTxid(txid);
    }
    throw refuse("getEditsFromTxid", null, "inotify (edit log events) is");
  }
}
