package org.nvmnn.workload.fuzz;

import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.List;
import org.apache.hadoop.crypto.CryptoProtocolVersion;
import org.apache.hadoop.fs.CacheFlag;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.fs.XAttrSetFlag;
import org.apache.hadoop.fs.permission.AclEntry;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.protocol.CacheDirectiveInfo;
import org.apache.hadoop.hdfs.protocol.CachePoolInfo;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.DatanodeID;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.protocol.LastBlockWithStatus;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.security.token.delegation.DelegationTokenIdentifier;
import org.apache.hadoop.io.EnumSetWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.security.token.Token;

/**
 * Every call the fuzzer makes: the ClientProtocol methods (each with its arguments' types and how a
 * successful answer updates the side's {@link Bindings}), the fake DataNode's actions ({@code
 * dn*}), and RESTART (both NameNodes SIGKILLed and restarted, namespaces compared). Which calls the
 * NVM NameNode refuses by design is not decided here but read from docs/unsupported-operations.md
 * ({@link RefusalList}).
 */
enum Call {
  // --- namespace writes ---
  create(
      p(Param.PATH, Param.PERM, Param.CLIENT, Param.FLAGS, Param.BOOL, Param.SHORT, Param.LONG),
      (c, a) -> {
        String src = (String) a[0];
        HdfsFileStatus st =
            c.nn.create(
                src,
                perm(a[1]),
                (String) a[2],
                flags(a[3]),
                (Boolean) a[4],
                (Short) a[5],
                (Long) a[6],
                CryptoProtocolVersion.supported());
        c.b.reset(src);
        if (st != null) {
          c.b.fileId(src, st.getFileId());
        }
        return st;
      }),
  append(
      p(Param.PATH, Param.CLIENT, Param.FLAGS),
      (c, a) -> {
        String src = (String) a[0];
        LastBlockWithStatus r = c.nn.append(src, (String) a[1], flags(a[2]));
        c.b.reset(src);
        if (r.getFileStatus() != null) {
          c.b.fileId(src, r.getFileStatus().getFileId());
        }
        if (r.getLastBlock() != null) {
          c.b.pushBlock(src, r.getLastBlock().getBlock());
        }
        return r;
      }),
  addBlock(
      p(Param.PATH, Param.CLIENT, Param.BLOCK, Param.FILEID, Param.BOOL),
      (c, a) -> {
        String src = (String) a[0];
        DatanodeInfo[] excluded =
            (Boolean) a[4] ? new DatanodeInfo[] {new DatanodeInfo(c.dn.id())} : null;
        LocatedBlock lb =
            c.nn.addBlock(
                src, (String) a[1], block(c, a[2]), excluded, ((FileRef) a[3]).resolve(c.b), null);
        c.b.pushBlock(src, lb.getBlock());
        return lb;
      }),
  abandonBlock(
      p(Param.BLOCK, Param.FILEID, Param.PATH, Param.CLIENT),
      (c, a) -> {
        String src = (String) a[2];
        c.nn.abandonBlock(block(c, a[0]), ((FileRef) a[1]).resolve(c.b), src, (String) a[3]);
        c.b.popBlock(src);
        return null;
      }),
  complete(
      p(Param.PATH, Param.CLIENT, Param.BLOCK, Param.FILEID),
      (c, a) ->
          c.nn.complete(
              (String) a[0], (String) a[1], block(c, a[2]), ((FileRef) a[3]).resolve(c.b))),
  fsync(
      p(Param.PATH, Param.FILEID, Param.CLIENT, Param.LONG),
      (c, a) -> {
        c.nn.fsync((String) a[0], ((FileRef) a[1]).resolve(c.b), (String) a[2], (Long) a[3]);
        return null;
      }),
  updateBlockForPipeline(
      p(Param.BLOCK, Param.CLIENT),
      (c, a) -> {
        LocatedBlock lb = c.nn.updateBlockForPipeline(block(c, a[0]), (String) a[1]);
        String path = ((BlockRef) a[0]).path();
        if (path != null && lb != null) {
          c.b.pipelineGs(path, lb.getBlock().getGenerationStamp());
        }
        return lb;
      }),
  updatePipeline(
      p(Param.CLIENT, Param.BLOCK, Param.BLOCK, Param.BOOL),
      (c, a) -> {
        boolean withNode = (Boolean) a[3];
        ExtendedBlock oldB = block(c, a[1]);
        ExtendedBlock newB = block(c, a[2]);
        c.nn.updatePipeline(
            (String) a[0],
            oldB,
            newB,
            withNode ? new DatanodeID[] {c.dn.id()} : new DatanodeID[0],
            withNode ? new String[] {c.dn.storageId()} : new String[0]);
        String path = ((BlockRef) a[2]).path();
        if (path != null && newB != null) {
          c.b.replaceLast(path, newB);
          c.dn.newStamp(newB);
        }
        return null;
      }),
  rename(
      p(Param.PATH, Param.PATH),
      (c, a) -> {
        String src = (String) a[0];
        String dst = (String) a[1];
        // the old rename moves src into dst when dst is a directory: find out where it lands
        HdfsFileStatus d = c.nn.getFileInfo(dst);
        boolean ok = c.nn.rename(src, dst);
        if (ok) {
          c.b.renamed(src, d != null && d.isDir() ? child(dst, src) : dst);
        }
        return ok;
      }),
  rename2(
      p(Param.PATH, Param.PATH, Param.RENAME),
      (c, a) -> {
        c.nn.rename2((String) a[0], (String) a[1], (Options.Rename[]) a[2]);
        c.b.renamed((String) a[0], (String) a[1]);
        return null;
      }),
  delete(
      p(Param.PATH, Param.BOOL),
      (c, a) -> {
        boolean ok = c.nn.delete((String) a[0], (Boolean) a[1]);
        if (ok) {
          c.b.deleted((String) a[0]);
        }
        return ok;
      }),
  mkdirs(
      p(Param.PATH, Param.PERM, Param.BOOL),
      (c, a) -> c.nn.mkdirs((String) a[0], perm(a[1]), (Boolean) a[2])),
  setPermission(
      p(Param.PATH, Param.PERM),
      (c, a) -> {
        c.nn.setPermission((String) a[0], perm(a[1]));
        return null;
      }),
  setOwner(
      p(Param.PATH, Param.OWNER, Param.OWNER),
      (c, a) -> {
        c.nn.setOwner((String) a[0], (String) a[1], (String) a[2]);
        return null;
      }),
  setTimes(
      p(Param.PATH, Param.LONG, Param.LONG),
      (c, a) -> {
        c.nn.setTimes((String) a[0], (Long) a[1], (Long) a[2]);
        return null;
      }),
  setReplication(
      p(Param.PATH, Param.SHORT), (c, a) -> c.nn.setReplication((String) a[0], (Short) a[1])),
  setStoragePolicy(
      p(Param.PATH, Param.STR),
      (c, a) -> {
        c.nn.setStoragePolicy((String) a[0], (String) a[1]);
        return null;
      }),
  setQuota(
      p(Param.PATH, Param.LONG, Param.LONG, Param.enumOf(StorageType.class)),
      (c, a) -> {
        c.nn.setQuota((String) a[0], (Long) a[1], (Long) a[2], (StorageType) a[3]);
        return null;
      }),
  recoverLease(
      p(Param.PATH, Param.CLIENT), (c, a) -> c.nn.recoverLease((String) a[0], (String) a[1])),
  renewLease(
      p(Param.CLIENT),
      (c, a) -> {
        c.nn.renewLease((String) a[0]);
        return null;
      }),

  // --- reads ---
  getFileInfo(
      p(Param.PATH),
      (c, a) -> {
        HdfsFileStatus st = c.nn.getFileInfo((String) a[0]);
        if (st != null) {
          c.b.fileId((String) a[0], st.getFileId());
        }
        return st;
      }),
  getFileLinkInfo(p(Param.PATH), (c, a) -> c.nn.getFileLinkInfo((String) a[0])),
  getListing(
      p(Param.PATH, Param.STR, Param.BOOL),
      (c, a) ->
          c.nn.getListing(
              (String) a[0],
              a[1] == null
                  ? HdfsFileStatus.EMPTY_NAME
                  : ((String) a[1]).getBytes(StandardCharsets.UTF_8),
              (Boolean) a[2])),
  getContentSummary(p(Param.PATH), (c, a) -> c.nn.getContentSummary((String) a[0])),
  getBlockLocations(
      p(Param.PATH, Param.LONG, Param.LONG),
      (c, a) -> c.nn.getBlockLocations((String) a[0], (Long) a[1], (Long) a[2])),
  getPreferredBlockSize(p(Param.PATH), (c, a) -> c.nn.getPreferredBlockSize((String) a[0])),
  isFileClosed(p(Param.PATH), (c, a) -> c.nn.isFileClosed((String) a[0])),
  getStoragePolicies(p(), (c, a) -> c.nn.getStoragePolicies()),
  getServerDefaults(p(), (c, a) -> c.nn.getServerDefaults()),
  getAclStatus(p(Param.PATH), (c, a) -> c.nn.getAclStatus((String) a[0])),
  getXAttrs(
      p(Param.PATH, Param.STR),
      (c, a) -> c.nn.getXAttrs((String) a[0], AttrArgs.names((String) a[1]))),
  listXAttrs(p(Param.PATH), (c, a) -> c.nn.listXAttrs((String) a[0])),
  getLinkTarget(p(Param.PATH), (c, a) -> c.nn.getLinkTarget((String) a[0])),
  checkAccess(
      p(Param.PATH, Param.enumOf(FsAction.class)),
      (c, a) -> {
        c.nn.checkAccess((String) a[0], (FsAction) a[1]);
        return null;
      }),
  getSnapshottableDirListing(p(), (c, a) -> c.nn.getSnapshottableDirListing()),
  getSnapshotDiffReport(
      p(Param.PATH, Param.STR, Param.STR),
      (c, a) -> c.nn.getSnapshotDiffReport((String) a[0], (String) a[1], (String) a[2])),
  getEZForPath(p(Param.PATH), (c, a) -> c.nn.getEZForPath((String) a[0])),
  listEncryptionZones(p(Param.LONG), (c, a) -> c.nn.listEncryptionZones((Long) a[0])),
  listCachePools(p(Param.STR), (c, a) -> c.nn.listCachePools((String) a[0])),
  listCacheDirectives(
      p(Param.LONG),
      (c, a) -> c.nn.listCacheDirectives((Long) a[0], new CacheDirectiveInfo.Builder().build())),
  listCorruptFileBlocks(
      p(Param.PATH, Param.STR), (c, a) -> c.nn.listCorruptFileBlocks((String) a[0], (String) a[1])),
  getDelegationToken(
      p(Param.STR),
      (c, a) -> c.nn.getDelegationToken(a[0] == null ? null : new Text((String) a[0]))),
  renewDelegationToken(p(), (c, a) -> c.nn.renewDelegationToken(emptyToken())),
  cancelDelegationToken(
      p(),
      (c, a) -> {
        c.nn.cancelDelegationToken(emptyToken());
        return null;
      }),
  getCurrentEditLogTxid(p(), (c, a) -> c.nn.getCurrentEditLogTxid()),
  getDatanodeReport(
      p(Param.enumOf(HdfsConstants.DatanodeReportType.class)),
      (c, a) -> c.nn.getDatanodeReport((HdfsConstants.DatanodeReportType) a[0])),

  // --- administration ---
  setSafeMode(
      p(Param.enumOf(HdfsConstants.SafeModeAction.class), Param.BOOL),
      (c, a) -> c.nn.setSafeMode((HdfsConstants.SafeModeAction) a[0], (Boolean) a[1])),
  saveNamespace(
      p(),
      (c, a) -> {
        c.nn.saveNamespace();
        return null;
      }),
  rollEdits(p(), (c, a) -> c.nn.rollEdits()),
  refreshNodes(
      p(),
      (c, a) -> {
        c.nn.refreshNodes();
        return null;
      }),
  rollingUpgrade(
      p(Param.enumOf(HdfsConstants.RollingUpgradeAction.class)),
      (c, a) -> c.nn.rollingUpgrade((HdfsConstants.RollingUpgradeAction) a[0])),

  // --- ACLs and xattrs (persisted in the region since issue 25, region-format.md §5.6) ---
  setAcl(
      p(Param.PATH, Param.STR),
      (c, a) -> {
        c.nn.setAcl((String) a[0], acl(a[1]));
        return null;
      }),
  modifyAclEntries(
      p(Param.PATH, Param.STR),
      (c, a) -> {
        c.nn.modifyAclEntries((String) a[0], acl(a[1]));
        return null;
      }),
  removeAclEntries(
      p(Param.PATH, Param.STR),
      (c, a) -> {
        c.nn.removeAclEntries((String) a[0], AttrArgs.acl((String) a[1], false));
        return null;
      }),
  removeDefaultAcl(
      p(Param.PATH),
      (c, a) -> {
        c.nn.removeDefaultAcl((String) a[0]);
        return null;
      }),
  removeAcl(
      p(Param.PATH),
      (c, a) -> {
        c.nn.removeAcl((String) a[0]);
        return null;
      }),
  setXAttr(
      p(Param.PATH, Param.STR, Param.STR, Param.XFLAGS),
      (c, a) -> {
        c.nn.setXAttr((String) a[0], AttrArgs.xattr((String) a[1], (String) a[2]), xflags(a[3]));
        return null;
      }),
  removeXAttr(
      p(Param.PATH, Param.STR),
      (c, a) -> {
        c.nn.removeXAttr((String) a[0], AttrArgs.xattr((String) a[1], null));
        return null;
      }),

  // --- snapshots: allowSnapshot and disallowSnapshot are compared as any call; the rest, and the
  // calls below, the NVM NameNode refuses (docs/unsupported-operations.md); sent to stock only
  // when the NVM NameNode did not refuse ---
  allowSnapshot(
      p(Param.PATH),
      (c, a) -> {
        c.nn.allowSnapshot((String) a[0]);
        return null;
      }),
  disallowSnapshot(
      p(Param.PATH),
      (c, a) -> {
        c.nn.disallowSnapshot((String) a[0]);
        return null;
      }),
  createSnapshot(
      p(Param.PATH, Param.STR), (c, a) -> c.nn.createSnapshot((String) a[0], (String) a[1])),
  renameSnapshot(
      p(Param.PATH, Param.STR, Param.STR),
      (c, a) -> {
        c.nn.renameSnapshot((String) a[0], (String) a[1], (String) a[2]);
        return null;
      }),
  deleteSnapshot(
      p(Param.PATH, Param.STR),
      (c, a) -> {
        c.nn.deleteSnapshot((String) a[0], (String) a[1]);
        return null;
      }),
  createSymlink(
      p(Param.PATH, Param.PATH, Param.PERM, Param.BOOL),
      (c, a) -> {
        c.nn.createSymlink((String) a[0], (String) a[1], perm(a[2]), (Boolean) a[3]);
        return null;
      }),
  truncate(
      p(Param.PATH, Param.LONG, Param.CLIENT),
      (c, a) -> c.nn.truncate((String) a[0], (Long) a[1], (String) a[2])),
  concat(
      p(Param.PATH, Param.STRS),
      (c, a) -> {
        c.nn.concat((String) a[0], (String[]) a[1]);
        return null;
      }),
  createEncryptionZone(
      p(Param.PATH, Param.STR),
      (c, a) -> {
        c.nn.createEncryptionZone((String) a[0], (String) a[1]);
        return null;
      }),
  addCacheDirective(
      p(Param.PATH, Param.STR),
      (c, a) ->
          c.nn.addCacheDirective(
              new CacheDirectiveInfo.Builder()
                  .setPath(new Path((String) a[0]))
                  .setPool((String) a[1])
                  .build(),
              EnumSet.of(CacheFlag.FORCE))),
  modifyCacheDirective(
      p(Param.LONG, Param.PATH),
      (c, a) -> {
        c.nn.modifyCacheDirective(
            new CacheDirectiveInfo.Builder()
                .setId((Long) a[0])
                .setPath(new Path((String) a[1]))
                .build(),
            EnumSet.of(CacheFlag.FORCE));
        return null;
      }),
  removeCacheDirective(
      p(Param.LONG),
      (c, a) -> {
        c.nn.removeCacheDirective((Long) a[0]);
        return null;
      }),
  addCachePool(
      p(Param.STR),
      (c, a) -> {
        c.nn.addCachePool(new CachePoolInfo((String) a[0]));
        return null;
      }),
  modifyCachePool(
      p(Param.STR),
      (c, a) -> {
        c.nn.modifyCachePool(new CachePoolInfo((String) a[0]).setLimit(1L));
        return null;
      }),
  removeCachePool(
      p(Param.STR),
      (c, a) -> {
        c.nn.removeCachePool((String) a[0]);
        return null;
      }),
  getEditsFromTxid(p(Param.LONG), (c, a) -> c.nn.getEditsFromTxid((Long) a[0])),

  // --- the fake DataNode (one per NameNode, same identity on both) ---
  /** The DataNode received {@code len} bytes of the block and reports it finalized. */
  dnWrite(
      p(Param.BLOCK, Param.LONG),
      (c, a) -> {
        BlockRef ref = (BlockRef) a[0];
        ExtendedBlock b = ref.resolve(c.b);
        if (b == null) {
          throw new IllegalStateException("no such block");
        }
        long len = (Long) a[1];
        b.setNumBytes(len);
        c.dn.received(b);
        if (ref.path() != null && ref.kind == BlockRef.Kind.LAST) {
          c.b.replaceLast(ref.path(), b);
        }
        return null;
      }),
  /** A heartbeat; block recovery commands in the answer are carried out. */
  dnHeartbeat(p(), (c, a) -> c.dn.heartbeat()),
  /** A full block report of every replica the DataNode holds. */
  dnReport(
      p(),
      (c, a) -> {
        c.dn.fullReport();
        return null;
      }),

  /** Both NameNodes SIGKILLed and restarted; namespaces listed and compared before and after. */
  RESTART(p(), null);

  interface Exec {
    Object run(Ctx c, Object[] a) throws Exception;
  }

  /** What an executor works with: the caller's proxy, the side's bindings and fake DataNode. */
  static final class Ctx {
    final ClientProtocol nn;
    final Bindings b;
    final FuzzDatanode dn;

    Ctx(ClientProtocol nn, Bindings b, FuzzDatanode dn) {
      this.nn = nn;
      this.b = b;
      this.dn = dn;
    }
  }

  final Param[] params;
  final Exec exec;

  Call(Param[] params, Exec exec) {
    this.params = params;
    this.exec = exec;
  }

  boolean isDatanode() {
    return name().startsWith("dn");
  }

  private static Param[] p(Param... ps) {
    return ps;
  }

  private static FsPermission perm(Object o) {
    return o == null ? null : new FsPermission((short) (int) (Integer) o);
  }

  @SuppressWarnings("unchecked")
  private static EnumSetWritable<CreateFlag> flags(Object o) {
    return new EnumSetWritable<>((EnumSet<CreateFlag>) o, CreateFlag.class);
  }

  private static ExtendedBlock block(Ctx c, Object o) {
    return ((BlockRef) o).resolve(c.b);
  }

  private static List<AclEntry> acl(Object spec) {
    return AttrArgs.acl((String) spec, true);
  }

  @SuppressWarnings("unchecked")
  private static EnumSet<XAttrSetFlag> xflags(Object o) {
    return (EnumSet<XAttrSetFlag>) o;
  }

  private static Token<DelegationTokenIdentifier> emptyToken() {
    return new Token<>();
  }

  static String child(String dir, String src) {
    String name = src.substring(src.lastIndexOf('/') + 1);
    return dir.endsWith("/") ? dir + name : dir + "/" + name;
  }
}
