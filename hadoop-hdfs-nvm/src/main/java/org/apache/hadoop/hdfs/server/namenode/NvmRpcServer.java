package org.apache.hadoop.hdfs.server.namenode;

import java.io.IOException;
import java.util.EnumSet;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CacheFlag;
import org.apache.hadoop.fs.XAttr;
import org.apache.hadoop.fs.XAttrSetFlag;
import org.apache.hadoop.fs.permission.AclEntry;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.inotify.EventBatchList;
import org.apache.hadoop.hdfs.protocol.CacheDirectiveInfo;
import org.apache.hadoop.hdfs.protocol.CachePoolInfo;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.RollingUpgradeAction;
import org.apache.hadoop.hdfs.protocol.RollingUpgradeInfo;
import org.apache.hadoop.hdfs.security.token.delegation.DelegationTokenIdentifier;
import org.apache.hadoop.hdfs.server.namenode.nvm.NvmConfigKeys;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.security.token.Token;

/**
 * The RPC server of a NameNode in NVM mode. It is the stock {@link NameNodeRpcServer}, except
 * that every operation whose result the NVM region cannot persist is refused with an
 * {@link NvmUnsupportedOperationException} as the very first thing the method does, before any
 * namesystem call, permission check or retry-cache entry: a refused call changes nothing. The
 * list and the reasons are in {@code docs/unsupported-operations.md}. Read-only methods
 * (getAclStatus, getXAttrs, listXAttrs, snapshot listings, cache and encryption-zone listings)
 * are inherited unchanged.
 */
class NvmRpcServer extends NameNodeRpcServer {

  NvmRpcServer(Configuration conf, NameNode nn) throws IOException {
    super(conf, nn);
  }

  /** The exception for a refused operation; {@code feature} is plural ("snapshots are"). */
  static NvmUnsupportedOperationException refuse(String featureIsOrAre) {
    return new NvmUnsupportedOperationException("NVM NameNode: " + featureIsOrAre + " not supported ("
        + NvmConfigKeys.NVM_ENABLED_KEY + "=true); the namespace was not changed");
  }

  // ---- snapshots: the region has no snapshot diff lists ----

  @Override
  public String createSnapshot(String snapshotRoot, String snapshotName) throws IOException {
    throw refuse("snapshots are");
  }

  @Override
  public void deleteSnapshot(String snapshotRoot, String snapshotName) throws IOException {
    throw refuse("snapshots are");
  }

  @Override
  public void renameSnapshot(String snapshotRoot, String snapshotOldName, String snapshotNewName)
      throws IOException {
    throw refuse("snapshots are");
  }

  @Override
  public void allowSnapshot(String snapshotRoot) throws IOException {
    throw refuse("snapshots are");
  }

  @Override
  public void disallowSnapshot(String snapshot) throws IOException {
    throw refuse("snapshots are");
  }

  // ---- ACLs: an inode page has mode bits only ----

  @Override
  public void modifyAclEntries(String src, List<AclEntry> aclSpec) throws IOException {
    throw refuse("ACLs are");
  }

  @Override
  public void removeAclEntries(String src, List<AclEntry> aclSpec) throws IOException {
    throw refuse("ACLs are");
  }

  @Override
  public void removeDefaultAcl(String src) throws IOException {
    throw refuse("ACLs are");
  }

  @Override
  public void removeAcl(String src) throws IOException {
    throw refuse("ACLs are");
  }

  @Override
  public void setAcl(String src, List<AclEntry> aclSpec) throws IOException {
    throw refuse("ACLs are");
  }

  // ---- extended attributes ----

  @Override
  public void setXAttr(String src, XAttr xAttr, EnumSet<XAttrSetFlag> flag) throws IOException {
    throw refuse("extended attributes (xattrs) are");
  }

  @Override
  public void removeXAttr(String src, XAttr xAttr) throws IOException {
    throw refuse("extended attributes (xattrs) are");
  }

  /**
   * A file's storage policy is a field of its page and is allowed; a directory's is an xattr in
   * 2.7.3 and is refused.
   */
  // ---- namespace operations the region has no record for ----

  @Override
  public void createSymlink(String target, String link, FsPermission dirPerms, boolean createParent)
      throws IOException {
    throw refuse("symlinks are");
  }

  @Override
  public boolean truncate(String src, long newLength, String clientName) throws IOException {
    throw refuse("truncate is");
  }

  @Override
  public void concat(String trg, String[] src) throws IOException {
    throw refuse("concat is");
  }

  @Override
  public void createEncryptionZone(String src, String keyName) throws IOException {
    throw refuse("encryption zones are");
  }

  // ---- centralized cache management: directives and pools live in the fsimage/edit log ----

  @Override
  public long addCacheDirective(CacheDirectiveInfo path, EnumSet<CacheFlag> flags) throws IOException {
    throw refuse("centralized cache directives are");
  }

  @Override
  public void modifyCacheDirective(CacheDirectiveInfo directive, EnumSet<CacheFlag> flags) throws IOException {
    throw refuse("centralized cache directives are");
  }

  @Override
  public void removeCacheDirective(long id) throws IOException {
    throw refuse("centralized cache directives are");
  }

  @Override
  public void addCachePool(CachePoolInfo info) throws IOException {
    throw refuse("centralized cache pools are");
  }

  @Override
  public void modifyCachePool(CachePoolInfo info) throws IOException {
    throw refuse("centralized cache pools are");
  }

  @Override
  public void removeCachePool(String cachePoolName) throws IOException {
    throw refuse("centralized cache pools are");
  }

  // ---- edit-log-only state ----

  /** QUERY reads state and is allowed; PREPARE and FINALIZE write rolling-upgrade markers. */
  @Override
  public RollingUpgradeInfo rollingUpgrade(RollingUpgradeAction action) throws IOException {
    if (action != RollingUpgradeAction.QUERY) {
      throw refuse("rolling upgrades (" + action + ") are");
    }
    return super.rollingUpgrade(action);
  }

  @Override
  public Token<DelegationTokenIdentifier> getDelegationToken(Text renewer) throws IOException {
    throw refuse("delegation tokens are");
  }

  @Override
  public long renewDelegationToken(Token<DelegationTokenIdentifier> token) throws IOException {
    throw refuse("delegation tokens are");
  }

  @Override
  public void cancelDelegationToken(Token<DelegationTokenIdentifier> token) throws IOException {
    throw refuse("delegation tokens are");
  }

  /** inotify reads namespace events from the edit log, which holds none in NVM mode. */
  @Override
  public EventBatchList getEditsFromTxid(long txid) throws IOException {
    throw refuse("inotify (edit log events) is");
  }
}
