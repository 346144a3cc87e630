package org.apache.hadoop.hdfs.server.namenode;

import java.io.IOException;
import java.util.EnumSet;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.crypto.CipherSuite;
import org.apache.hadoop.crypto.CryptoProtocolVersion;
import org.apache.hadoop.fs.CacheFlag;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.XAttr;
import org.apache.hadoop.fs.XAttrSetFlag;
import org.apache.hadoop.fs.permission.AclEntry;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DFSUtil;
import org.apache.hadoop.hdfs.XAttrHelper;
import org.apache.hadoop.hdfs.protocol.CacheDirective;
import org.apache.hadoop.hdfs.protocol.CacheDirectiveInfo;
import org.apache.hadoop.hdfs.protocol.CachePoolInfo;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.EncryptionZone;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.protocol.LastBlockWithStatus;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocolPB.PBHelper;
import org.apache.hadoop.hdfs.security.token.delegation.DelegationTokenIdentifier;
import org.apache.hadoop.hdfs.security.token.delegation.DelegationTokenSecretManager;
import org.apache.hadoop.hdfs.server.common.HdfsServerConstants;
import org.apache.hadoop.hdfs.server.namenode.nvm.AttributeCodec;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeLimits;
import org.apache.hadoop.hdfs.server.namenode.nvm.PageCodec;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout;
import org.apache.hadoop.hdfs.server.namenode.web.resources.NamenodeWebHdfsMethods;
import org.apache.hadoop.io.EnumSetWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.ipc.Server;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.token.Token;

/**
 * The RPC server of a NameNode in NVM mode. It is the stock {@link NameNodeRpcServer}, except that
 * operations that grow the namespace first ask {@link NvmSpaceGuard} for room in the region, and
 * (in {@link NvmRpcRefusals}) that every operation whose result the NVM region cannot persist is
 * refused with an {@link NvmUnsupportedOperationException} before any namesystem change, permission
 * check or retry-cache entry: a refused call changes nothing. The one check made first is safe
 * mode, for writes, so that a NameNode in safe mode answers as the stock one does. The list and the
 * reasons are in {@code docs/unsupported-operations.md}. Read-only methods (getAclStatus,
 * getXAttrs, listXAttrs, snapshot listings, cache and encryption-zone listings) are inherited
 * unchanged.
 */
class NvmRpcServer extends NvmRpcRefusals {

  private final NvmSpaceGuard space;

  NvmRpcServer(Configuration conf, NameNode nn) throws IOException {
    super(conf, nn);
    this.space = new NvmSpaceGuard(conf, namesystem);
    if (namesystem instanceof NvmFSNamesystem) {
      ((NvmFSNamesystem) namesystem).guardOwnerSpace(space);
    }
  }

  // ---- operations that grow the namespace: refused when the region is nearly full ----

  @Override
  public HdfsFileStatus create(
      String src,
      FsPermission masked,
      String clientName,
      EnumSetWritable<CreateFlag> flag,
      boolean createParent,
      short replication,
      long blockSize,
      CryptoProtocolVersion[] supportedVersions)
      throws IOException {
    space.check(
        "create",
        src,
        (createParent ? NvmSpaceGuard.pathPages(src) : NvmSpaceGuard.lastPages(src))
            + space.newStringPages(clientName, clientMachine())
            + encryptionInfoPages(src)); // the owner's string: NvmFSNamesystem.startFile

    return super.create(
        src, masked, clientName, flag, createParent, replication, blockSize, supportedVersions);
  }

  @Override
  public boolean mkdirs(String src, FsPermission masked, boolean createParent) throws IOException {
    space.check("mkdirs", src, NvmSpaceGuard.pathPages(src)); // owner: NvmFSNamesystem.mkdirs
    return super.mkdirs(src, masked, createParent);
  }

  @Override
  public LastBlockWithStatus append(String src, String clientName, EnumSetWritable<CreateFlag> flag)
      throws IOException {
    space.check(
        "append to",
        src,
        space.newStringPages(clientName, clientMachine()) + NvmSpaceGuard.BLOCK_LIST_PAGES);
    return super.append(src, clientName, flag);
  }

  @Override
  public LocatedBlock addBlock(
      String src,
      String clientName,
      ExtendedBlock previous,
      DatanodeInfo[] excludedNodes,
      long fileId,
      String[] favoredNodes)
      throws IOException {
    space.check("add a block to", src, NvmSpaceGuard.BLOCK_LIST_PAGES);
    return super.addBlock(src, clientName, previous, excludedNodes, fileId, favoredNodes);
  }

  @Override
  public boolean rename(String src, String dst) throws IOException {
    space.check("rename to", dst, NvmSpaceGuard.lastPages(dst));
    return super.rename(src, dst);
  }

  @Override
  public void rename2(String src, String dst, Options.Rename... options) throws IOException {
    space.check("rename to", dst, NvmSpaceGuard.lastPages(dst));
    super.rename2(src, dst, options);
  }

  @Override
  public void setOwner(String src, String username, String groupname) throws IOException {
    space.check("set the owner of", src, space.newStringPages(username, groupname));
    super.setOwner(src, username, groupname);
  }

  /** The user a new inode gets as its owner: the caller's short name. */
  private static String remoteUser() throws IOException {
    return RemoteUserName.of(NameNode.getRemoteUser());
  }

  /** The client machine the namesystem records for a lease (as the stock RPC server finds it). */
  private static String clientMachine() {
    String m = NamenodeWebHdfsMethods.getRemoteAddress();
    if (m == null) {
      m = Server.getRemoteAddress();
    }
    return m == null ? "" : m;
  }

  // ---- ACLs and xattrs: the inode's attribute chain is rewritten whole, so it must fit first ----

  @Override
  public void modifyAclEntries(String src, List<AclEntry> aclSpec) throws IOException {
    space.checkPages("modify the ACL of", src, attributePages(src, aclBytes(aclSpec)));
    super.modifyAclEntries(src, aclSpec);
  }

  @Override
  public void removeAclEntries(String src, List<AclEntry> aclSpec) throws IOException {
    space.checkPages("remove ACL entries of", src, attributePages(src, 0));
    super.removeAclEntries(src, aclSpec);
  }

  @Override
  public void removeDefaultAcl(String src) throws IOException {
    space.checkPages("remove the default ACL of", src, attributePages(src, 0));
    super.removeDefaultAcl(src);
  }

  @Override
  public void removeAcl(String src) throws IOException {
    space.checkPages("remove the ACL of", src, attributePages(src, 0));
    super.removeAcl(src);
  }

  @Override
  public void setAcl(String src, List<AclEntry> aclSpec) throws IOException {
    space.checkPages("set the ACL of", src, attributePages(src, aclBytes(aclSpec)));
    super.setAcl(src, aclSpec);
  }

  @Override
  public void setXAttr(String src, XAttr xAttr, EnumSet<XAttrSetFlag> flag) throws IOException {
    long extra = xAttr == null || xAttr.getName() == null ? 0 : AttributeCodec.encodedSize(xAttr);
    space.checkPages("set an xattr of", src, attributePages(src, extra));
    super.setXAttr(src, xAttr, flag);
  }

  @Override
  public void removeXAttr(String src, XAttr xAttr) throws IOException {
    space.checkPages("remove an xattr of", src, attributePages(src, 0));
    super.removeXAttr(src, xAttr);
  }

  private static long aclBytes(List<AclEntry> spec) {
    long n = 0;
    if (spec != null) {
      for (AclEntry e : spec) {
        n += e == null ? 0 : AttributeCodec.encodedSize(e);
      }
    }
    return n;
  }

  /**
   * ATTR_EXT pages the new attribute chain of {@code src} may take: its encoding now plus {@code
   * extraBytes} (the new chain is written before the old one is freed). A path that does not
   * resolve counts 0: the stock call that follows answers it. So does a relative one, which is not
   * resolved: FSDirectory throws an AssertionError ("Absolute path required") for it, where the
   * stock call first answers what it checks before the path (safe mode, the xattr's size and
   * namespace).
   */
  private long attributePages(String src, long extraBytes) {
    long current = 0;
    namesystem.readLock();
    try {
      FSDirectory fsd = namesystem.getFSDirectory();
      String path =
          FSDirectory.resolvePath(src, FSDirectory.getPathComponentsForReservedPath(src), fsd);
      INode n = path != null && path.startsWith(Path.SEPARATOR) ? fsd.getINode(path) : null;
      if (n != null) {
        current = InodeAttributes.encode(n).length;
      }
    } catch (IOException | RuntimeException e) {
      current = 0;
    } finally {
      namesystem.readUnlock();
    }
    return InodeLimits.attrExtPages(current + extraBytes);
  }

  // ---- namespace operations the region has no record for ----

  /**
   * A symlink is a page of its own with its target (past 112 bytes in a chain): room first, and a
   * target longer than the region stores is refused before anything changes.
   */
  @Override
  public void createSymlink(String target, String link, FsPermission dirPerms, boolean createParent)
      throws IOException {
    if (FileSystem.areSymlinksEnabled() && target != null && link != null) {
      long bytes = DFSUtil.string2Bytes(target).length;
      if (bytes > RegionLayout.SYMLINK_TARGET_MAX) {
        namesystem.checkNameNodeSafeMode("Cannot create symlink " + link);
        throw refuse(
            "createSymlink",
            link,
            "symlink targets of "
                + bytes
                + " bytes (longer than the region's SYMLINK_TARGET_MAX of "
                + RegionLayout.SYMLINK_TARGET_MAX
                + " bytes) are");
      }
      space.check(
          "create symlink",
          link,
          (createParent ? NvmSpaceGuard.pathPages(link) : NvmSpaceGuard.lastPages(link))
              + InodeLimits.symlinkTargetPages(bytes)
              + space.newStringPages(remoteUser()));
    }
    super.createSymlink(target, link, dirPerms, createParent);
  }

  @Override
  public boolean truncate(String src, long newLength, String clientName) throws IOException {
    // a truncate inside a block makes the file under construction (the client's strings) and
    // writes its truncate block record
    space.check(
        "truncate",
        src,
        1 + space.newStringPages(clientName == null ? "" : clientName, clientMachine()));
    return super.truncate(src, newLength, clientName);
  }

  /**
   * concat rewrites the target's block list with the sources' blocks appended: its new extension
   * chain is written before the old one and the sources' pages are freed, so it must fit first.
   */
  @Override
  public void concat(String trg, String[] src) throws IOException {
    space.checkPages("concat into", trg, concatPages(trg, src));
    super.concat(trg, src);
  }

  /** The target's new block list pages: every block of the target and the sources. */
  private long concatPages(String trg, String[] srcs) {
    long blocks = 0;
    namesystem.readLock();
    try {
      for (String p : srcs == null ? new String[] {trg} : concatPaths(trg, srcs)) {
        try {
          INode n =
              p != null && DFSUtil.isValidName(p) ? namesystem.getFSDirectory().getINode(p) : null;
          if (n != null && n.isFile()) {
            blocks += n.asFile().numBlocks();
          }
        } catch (IOException | RuntimeException e) {
          // a path the stock concat refuses: it answers that
        }
      }
    } finally {
      namesystem.readUnlock();
    }
    return InodeLimits.blockExtPages((int) Math.min(Integer.MAX_VALUE, blocks));
  }

  private static String[] concatPaths(String trg, String[] srcs) {
    String[] all = new String[srcs.length + 1];
    all[0] = trg;
    System.arraycopy(srcs, 0, all, 1, srcs.length);
    return all;
  }

  /**
   * createEncryptionZone sets the zone's xattr on the directory (OP_SET_XATTR): its attribute chain
   * is rewritten whole, so it must fit first. Without a key provider the stock NameNode refuses at
   * once, and that answer comes first here too.
   */
  @Override
  public void createEncryptionZone(String src, String keyName) throws IOException {
    if (namesystem.getProvider() != null && keyName != null && !keyName.isEmpty()) {
      space.checkPages(
          "create an encryption zone on",
          src,
          attributePages(src, AttributeCodec.encodedSize(zoneXAttr(keyName))));
    }
    super.createEncryptionZone(src, keyName);
  }

  /**
   * The xattr createEncryptionZone gives a zone's directory, as 2.7.3 builds it; the cipher suite
   * and protocol version are one-byte enums whichever the key has, so its size is exact.
   */
  static XAttr zoneXAttr(String keyName) {
    return XAttrHelper.buildXAttr(
        HdfsServerConstants.CRYPTO_XATTR_ENCRYPTION_ZONE,
        PBHelper.convert(
                CipherSuite.AES_CTR_NOPADDING, CryptoProtocolVersion.ENCRYPTION_ZONES, keyName)
            .toByteArray());
  }

  /**
   * ATTR_EXT pages of the FileEncryptionInfo xattr a file created at {@code src} gets inside an
   * encryption zone (set before logOpenFile, so it is in the create's batch); 0 outside a zone,
   * without a key provider, or for a path the stock create answers itself.
   */
  private long encryptionInfoPages(String src) {
    if (namesystem.getProvider() == null) {
      return 0;
    }
    String key;
    namesystem.readLock();
    try {
      FSDirectory fsd = namesystem.getFSDirectory();
      if (!fsd.ezManager.hasCreatedEncryptionZone()) {
        return 0;
      }
      String path =
          FSDirectory.resolvePath(src, FSDirectory.getPathComponentsForReservedPath(src), fsd);
      EncryptionZone zone = fsd.getEZForPath(fsd.getINodesInPath(path, true));
      if (zone == null) {
        return 0;
      }
      key = zone.getKeyName();
    } catch (IOException | RuntimeException e) {
      return 0;
    } finally {
      namesystem.readUnlock();
    }
    // PerFileEncryptionInfoProto: the encrypted data key (at most 64 bytes, a 512-bit key), the IV
    // (16 bytes) and the key version name (the key's name, '@', a number), each with a tag and a
    // length of at most 3 bytes
    long value = 4 + 64 + 4 + 16 + 4 + 3L * key.length() + 21;
    XAttr probe = XAttrHelper.buildXAttr(HdfsServerConstants.CRYPTO_XATTR_FILE_ENCRYPTION_INFO);
    return InodeLimits.attrExtPages(AttributeCodec.encodedSize(probe) + value);
  }

  // ---- centralized cache management: pools and directives are records (NvmCacheWriteThrough) ----

  /** Pages of a cache record holding {@code payloadBytes}, plus the next-id record. */
  private static long cacheRecordPages(long payloadBytes) {
    return 2 + PageCodec.recordExtPages(payloadBytes + CACHE_RECORD_SLACK);
  }

  /**
   * The encoded size of a pool ({@code pool} not null) or directive as the cache manager holds it
   * now, 0 if it has none: a modify's new record holds the request's fields and the old ones.
   */
  private long storedBytes(String pool, long directiveId) {
    CacheManager cm = namesystem.getCacheManager();
    namesystem.readLock();
    try {
      if (pool != null) {
        for (CachePool p : cm.getCachePools()) {
          if (p.getPoolName().equals(pool)) {
            return NvmCacheWriteThrough.encode(p.getInfo(true)).length;
          }
        }
      } else {
        for (CacheDirective d : cm.getCacheDirectives()) {
          if (d.getId() == directiveId) {
            return NvmCacheWriteThrough.encode(d.toInfo()).length;
          }
        }
      }
      return 0;
    } finally {
      namesystem.readUnlock();
    }
  }

  /** Bytes a stored record may hold beyond the request's encoding (fields the manager fills in). */
  private static final int CACHE_RECORD_SLACK = 64;

  @Override
  public long addCacheDirective(CacheDirectiveInfo path, EnumSet<CacheFlag> flags)
      throws IOException {
    if (path != null && path.getPath() != null && path.getPool() != null) {
      space.checkPages(
          "add a cache directive for",
          String.valueOf(path.getPath()),
          cacheRecordPages(NvmCacheWriteThrough.encode(path).length));
    }
    return super.addCacheDirective(path, flags);
  }

  @Override
  public void modifyCacheDirective(CacheDirectiveInfo directive, EnumSet<CacheFlag> flags)
      throws IOException {
    if (directive != null && directive.getId() != null) {
      // the stored directive is replaced by a new record; a path may come with the change
      space.checkPages(
          "modify cache directive",
          String.valueOf(directive.getId()),
          cacheRecordPages(
              NvmCacheWriteThrough.encode(directive).length
                  + storedBytes(null, directive.getId())));
    }
    super.modifyCacheDirective(directive, flags);
  }

  @Override
  public void addCachePool(CachePoolInfo info) throws IOException {
    if (info != null && info.getPoolName() != null) {
      space.checkPages(
          "add cache pool",
          info.getPoolName(),
          cacheRecordPages(NvmCacheWriteThrough.encode(info).length));
    }
    super.addCachePool(info);
  }

  @Override
  public void modifyCachePool(CachePoolInfo info) throws IOException {
    if (info != null && info.getPoolName() != null) {
      // the stored pool is replaced: owner and group names may grow it
      space.checkPages(
          "modify cache pool",
          info.getPoolName(),
          cacheRecordPages(
              NvmCacheWriteThrough.encode(info).length + storedBytes(info.getPoolName(), 0)));
    }
    super.modifyCachePool(info);
  }

  // ---- delegation tokens: a record per token (NvmTokenWriteThrough) ----

  /**
   * A token is issued only while the token secret manager runs (Kerberos, or the switch that forces
   * tokens); its record takes pages, so the room check comes first. Renew and cancel change or free
   * an existing record. Without a running secret manager the stock NameNode answers null and writes
   * nothing.
   */
  @Override
  public Token<DelegationTokenIdentifier> getDelegationToken(Text renewer) throws IOException {
    DelegationTokenSecretManager m = namesystem.getDelegationTokenSecretManager();
    if (m != null && m.isRunning()) {
      UserGroupInformation ugi = NameNode.getRemoteUser();
      String owner = ugi.getUserName();
      String real = ugi.getRealUser() == null ? "" : ugi.getRealUser().getUserName();
      String r = renewer == null ? "" : renewer.toString();
      space.checkPages(
          "issue a delegation token to", owner, NvmSpaceGuard.tokenPages(owner, r, real));
    }
    return super.getDelegationToken(renewer);
  }
}
