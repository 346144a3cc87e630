package org.apache.hadoop.hdfs.server.namenode;

import java.io.IOException;
import java.util.List;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.fs.permission.PermissionStatus;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockCollection;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockInfoContiguous;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockInfoContiguousUnderConstruction;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockStoragePolicySuite;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeStorageInfo;
import org.apache.hadoop.hdfs.server.namenode.INode.BlocksMapUpdateInfo;

/**
 * The {@link BlockCollection} of a closed file's blocks: 32 bytes (object header, the parent link
 * INode keeps, the inode id, the namespace) instead of the full {@link INodeFile}, so the BlocksMap
 * does not keep a materialized inode alive for every file.
 *
 * <p>The block layer's questions (replication, preferred block size, storage policy, blocks, under
 * construction) are answered by the file's cached object when it is in the inode cache — it may
 * hold a change its page gets at the end of the running operation — and from the page otherwise,
 * without materializing. Everything else, and every place upstream casts a block collection to an
 * INode and calls {@code asFile()}, gets the materialized file. The parent link is kept by {@link
 * SlimNamespace} (set when the ref is made, moved by a rename), so {@link #getFullPathName()} works
 * as for any INode.
 */
final class NvmFileRef extends INode implements BlockCollection {
  private final long id;
  private final SlimNamespace slim;

  NvmFileRef(long id, INodeDirectory parent, SlimNamespace slim) {
    super(parent);
    this.id = id;
    this.slim = slim;
  }

  /** The file's object, from the cache or materialized. */
  private INodeFile file() {
    return slim.file(id);
  }

  /** The cached object if there is one: it is newer than the page while an operation runs. */
  private INodeFile cached() {
    return slim.cachedFile(id);
  }

  // ---- BlockCollection: cheap answers

  @Override
  public short getBlockReplication() {
    INodeFile f = cached();
    return f != null ? f.getBlockReplication() : (short) slim.view(id).replication();
  }

  @Override
  public long getPreferredBlockSize() {
    INodeFile f = cached();
    return f != null ? f.getPreferredBlockSize() : slim.view(id).preferredBlockSize();
  }

  @Override
  public byte getStoragePolicyID() {
    INodeFile f = cached();
    if (f != null) {
      return f.getStoragePolicyID();
    }
    byte local = getLocalStoragePolicyID();
    if (local != BlockStoragePolicySuite.ID_UNSPECIFIED) {
      return local;
    }
    INodeDirectory p = getParent();
    return p == null ? local : p.getStoragePolicyID();
  }

  @Override
  public byte getLocalStoragePolicyID() {
    INodeFile f = cached();
    return f != null ? f.getLocalStoragePolicyID() : (byte) slim.view(id).storagePolicy();
  }

  @Override
  public boolean isUnderConstruction() {
    INodeFile f = cached();
    return f != null ? f.isUnderConstruction() : slim.view(id).isUnderConstruction();
  }

  @Override
  public BlockInfoContiguous[] getBlocks() {
    INodeFile f = cached();
    return f != null ? f.getBlocks() : slim.storedBlocks(id);
  }

  @Override
  public int numBlocks() {
    INodeFile f = cached();
    return f != null ? f.numBlocks() : slim.view(id).blockCount();
  }

  @Override
  public BlockInfoContiguous getLastBlock() {
    BlockInfoContiguous[] b = getBlocks();
    return b == null || b.length == 0 ? null : b[b.length - 1];
  }

  @Override
  public String getName() {
    return getFullPathName();
  }

  /** An object not in the cache is rebuilt from the BlocksMap, so only a cached one needs it. */
  @Override
  public void setBlock(int index, BlockInfoContiguous blk) {
    INodeFile f = cached();
    if (f != null) {
      f.setBlock(index, blk);
    }
  }

  @Override
  public BlockInfoContiguousUnderConstruction setLastBlock(
      BlockInfoContiguous lastBlock, DatanodeStorageInfo[] locations) throws IOException {
    return file().setLastBlock(lastBlock, locations);
  }

  // ---- INode: the identity answered here, everything else by the materialized file

  @Override
  public long getId() {
    return id;
  }

  @Override
  public byte[] getLocalNameBytes() {
    INodeFile f = cached();
    return f != null ? f.getLocalNameBytes() : slim.view(id).nameBytes();
  }

  @Override
  public boolean isFile() {
    return true;
  }

  @Override
  public INodeFile asFile() {
    return file();
  }

  @Override
  public boolean isDirectory() {
    return false;
  }

  @Override
  PermissionStatus getPermissionStatus(int snapshotId) {
    return file().getPermissionStatus(snapshotId);
  }

  @Override
  String getUserName(int snapshotId) {
    return file().getUserName(snapshotId);
  }

  @Override
  void setUser(String user) {
    file().setUser(user);
  }

  @Override
  String getGroupName(int snapshotId) {
    return file().getGroupName(snapshotId);
  }

  @Override
  void setGroup(String group) {
    file().setGroup(group);
  }

  @Override
  FsPermission getFsPermission(int snapshotId) {
    return file().getFsPermission(snapshotId);
  }

  @Override
  public short getFsPermissionShort() {
    return file().getFsPermissionShort();
  }

  @Override
  public long getPermissionLong() {
    return file().getPermissionLong();
  }

  @Override
  void setPermission(FsPermission permission) {
    file().setPermission(permission);
  }

  @Override
  AclFeature getAclFeature(int snapshotId) {
    return file().getAclFeature(snapshotId);
  }

  @Override
  void addAclFeature(AclFeature aclFeature) {
    file().addAclFeature(aclFeature);
  }

  @Override
  void removeAclFeature() {
    file().removeAclFeature();
  }

  @Override
  XAttrFeature getXAttrFeature(int snapshotId) {
    return file().getXAttrFeature(snapshotId);
  }

  @Override
  void addXAttrFeature(XAttrFeature xAttrFeature) {
    file().addXAttrFeature(xAttrFeature);
  }

  @Override
  void removeXAttrFeature() {
    file().removeXAttrFeature();
  }

  @Override
  void recordModification(int latestSnapshotId) {
    file().recordModification(latestSnapshotId);
  }

  @Override
  public QuotaCounts cleanSubtree(
      BlockStoragePolicySuite bsps,
      int snapshotId,
      int priorSnapshotId,
      BlocksMapUpdateInfo collectedBlocks,
      List<INode> removedINodes) {
    return file().cleanSubtree(bsps, snapshotId, priorSnapshotId, collectedBlocks, removedINodes);
  }

  @Override
  public void destroyAndCollectBlocks(
      BlockStoragePolicySuite bsps,
      BlocksMapUpdateInfo collectedBlocks,
      List<INode> removedINodes) {
    file().destroyAndCollectBlocks(bsps, collectedBlocks, removedINodes);
  }

  @Override
  public ContentSummaryComputationContext computeContentSummary(
      ContentSummaryComputationContext summary) {
    return file().computeContentSummary(summary);
  }

  @Override
  public QuotaCounts computeQuotaUsage(
      BlockStoragePolicySuite bsps,
      byte blockStoragePolicyId,
      QuotaCounts counts,
      boolean useCache,
      int lastSnapshotId) {
    return file().computeQuotaUsage(bsps, blockStoragePolicyId, counts, useCache, lastSnapshotId);
  }

  @Override
  public void setLocalName(byte[] name) {
    file().setLocalName(name);
  }

  @Override
  long getModificationTime(int snapshotId) {
    return file().getModificationTime(snapshotId);
  }

  @Override
  public INode updateModificationTime(long mtime, int latestSnapshotId) {
    return file().updateModificationTime(mtime, latestSnapshotId);
  }

  @Override
  public void setModificationTime(long modificationTime) {
    file().setModificationTime(modificationTime);
  }

  @Override
  long getAccessTime(int snapshotId) {
    return file().getAccessTime(snapshotId);
  }

  @Override
  public void setAccessTime(long accessTime) {
    file().setAccessTime(accessTime);
  }

  @Override
  public byte getStoragePolicyIDForQuota(byte parentStoragePolicyId) {
    return file().getStoragePolicyIDForQuota(parentStoragePolicyId);
  }

  @Override
  public String toString() {
    return "NvmFileRef(inode " + id + ")";
  }
}
