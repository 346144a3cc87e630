package org.nvmnn.it.crash;

import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.nvmnn.it.crash.CrashPointSweepTest.CLIENT;
import static org.nvmnn.it.crash.CrashPointSweepTest.cluster;
import static org.nvmnn.it.crash.CrashPointSweepTest.create;
import static org.nvmnn.it.crash.CrashPointSweepTest.fs;
import static org.nvmnn.it.crash.CrashPointSweepTest.nn;
import static org.nvmnn.it.crash.CrashPointSweepTest.sweep;
import static org.nvmnn.it.crash.CrashPointSweepTest.writeFile;

import java.lang.reflect.Method;
import java.util.EnumSet;
import org.apache.hadoop.fs.CacheFlag;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.XAttr;
import org.apache.hadoop.fs.XAttrSetFlag;
import org.apache.hadoop.fs.permission.AclEntry;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DFSTestUtil;
import org.apache.hadoop.hdfs.XAttrHelper;
import org.apache.hadoop.hdfs.protocol.CacheDirectiveInfo;
import org.apache.hadoop.hdfs.protocol.CachePoolInfo;
import org.apache.hadoop.hdfs.security.token.delegation.DelegationTokenIdentifier;
import org.apache.hadoop.hdfs.security.token.delegation.DelegationTokenSecretManager;
import org.apache.hadoop.hdfs.server.namenode.NameNodeAdapter;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.security.token.delegation.AbstractDelegationTokenSecretManager;
import org.apache.hadoop.security.token.delegation.DelegationKey;
import org.nvmnn.it.crash.CrashPointSweepTest.Watch;

/**
 * The crash sweep's rows for the state beside the inode tree and for the features added since the
 * first sweep ({@link CrashPointSweepTest} runs them in its one test, through its {@code sweep}):
 * the token secret manager, ACLs and xattrs, truncate, symlinks, snapshots, concat and the cache
 * manager.
 */
final class FeatureSweeps {
  private FeatureSweeps() {}

  /** The delegation token secret manager's edits (region-format.md §5.5). */
  @SuppressWarnings("unchecked")
  static void sweepTokens() throws Exception {
    String me = UserGroupInformation.getCurrentUser().getShortUserName();
    final Token<DelegationTokenIdentifier>[] t = new Token[2];
    sweep("getDelegationToken (a token record)", () -> t[0] = nn.getDelegationToken(new Text(me)));
    sweep(
        "getDelegationToken, 1000-character renewer (a RECORD_EXT chain)",
        () ->
            t[1] = nn.getDelegationToken(new Text(new String(new char[1000]).replace('\0', 'r'))));
    sweep("renewDelegationToken", () -> nn.renewDelegationToken(t[0]));
    sweep("cancelDelegationToken (the chained one)", () -> nn.cancelDelegationToken(t[1]));
    DelegationTokenSecretManager dtsm = NameNodeAdapter.getDtSecretManager(cluster.getNamesystem());
    Method roll = AbstractDelegationTokenSecretManager.class.getDeclaredMethod("rollMasterKey");
    roll.setAccessible(true); // what the secret manager's thread runs once a key update is due
    sweep("updateMasterKey (a new key, the retiring key's final expiry)", () -> roll.invoke(dtsm));
    for (DelegationKey k : dtsm.getAllKeys()) {
      if (k.getKeyId() == 1) {
        k.setExpiryDate(1); // the start-up key expired long ago
      }
    }
    sweep("updateMasterKey (and the expired key dropped)", () -> roll.invoke(dtsm));
  }

  private static XAttr xattr(String name, byte[] value) {
    return XAttrHelper.buildXAttr(name, value);
  }

  private static byte[] bytes(int n, int seed) {
    byte[] b = new byte[n];
    new java.util.Random(seed).nextBytes(b);
    return b;
  }

  private static final EnumSet<XAttrSetFlag> CREATE_X = EnumSet.of(XAttrSetFlag.CREATE);

  /**
   * ACLs and xattrs (region-format.md §5.6): each change writes the inode's whole attribute
   * encoding as a new ATTR_EXT chain and switches IN_ATTRS to it in the batch's commit; the old
   * chain is freed after. Each operation watches the inode it changes: its ACL, permission and
   * xattrs must recover to what the NameNode answered before or after.
   */
  static void sweepAttributes() throws Exception {
    String f = "/s/attr/f";
    fs.mkdirs(new Path("/s/attr"));
    writeFile(f, 10);
    Watch onF = new Watch(f, f);
    sweep(
        "setXAttr (a small value: one ATTR_EXT page)",
        () -> nn.setXAttr(f, xattr("user.small", bytes(3, 1)), CREATE_X),
        onF);
    sweep(
        "setXAttr, a 10,000-byte value (a chain of ATTR_EXT pages)",
        () -> nn.setXAttr(f, xattr("trusted.big", bytes(10_000, 2)), CREATE_X),
        onF);
    sweep(
        "setXAttr with REPLACE (the whole chain written again)",
        () -> nn.setXAttr(f, xattr("user.small", bytes(5, 3)), EnumSet.of(XAttrSetFlag.REPLACE)),
        onF);
    sweep(
        "removeXAttr (the long one: one page again)",
        () -> nn.removeXAttr(f, xattr("trusted.big", null)),
        onF);
    sweep(
        "removeXAttr (the last one: IN_ATTRS back to 0)",
        () -> nn.removeXAttr(f, xattr("user.small", null)),
        onF);

    String d = "/s/acl";
    fs.mkdirs(new Path(d));
    Watch onD = new Watch(d, d);
    sweep(
        "setAcl (named and default entries: IN_PERM and a chain)",
        () ->
            nn.setAcl(
                d,
                AclEntry.parseAclSpec(
                    "user::rwx,user:bob:r-x,group::r-x,mask::r-x,other::---,"
                        + "default:user::rwx,default:user:bob:rwx,default:group::r-x,"
                        + "default:group:staff:r--,default:mask::rwx,default:other::---",
                    true)),
        onD);
    sweep(
        "modifyAclEntries",
        () -> nn.modifyAclEntries(d, AclEntry.parseAclSpec("user:carol:rw-", true)),
        onD);
    sweep(
        "mkdirs under a default ACL (inherited in the create's batch)",
        () -> assertTrue(nn.mkdirs(d + "/sub", FsPermission.getDirDefault(), false)),
        new Watch(null, d + "/sub"));
    final long[] id = new long[1];
    sweep(
        "create under a default ACL (inherited in the create's batch)",
        () -> id[0] = create(d + "/file", false).getFileId(),
        new Watch(null, d + "/file"));
    assertTrue(nn.complete(d + "/file", CLIENT, null, id[0]));
    sweep(
        "removeAcl (of an inherited ACL: IN_ATTRS back to 0)",
        () -> nn.removeAcl(d + "/sub"),
        new Watch(d + "/sub", d + "/sub"));
    nn.setXAttr(d + "/file", xattr("user.x", bytes(600, 4)), CREATE_X);
    sweep(
        "delete of a file with an ACL and xattrs (its chain freed)",
        () -> assertTrue(nn.delete(d + "/file", false)),
        new Watch(d + "/file", null));
    String g = "/s/attr/g";
    writeFile(g, 10);
    nn.setXAttr(g, xattr("user.g", bytes(300, 5)), CREATE_X);
    nn.modifyAclEntries(g, AclEntry.parseAclSpec("user:dave:r--", true));
    sweep(
        "rename of a file with an ACL and xattrs",
        () -> assertTrue(nn.rename(g, d + "/g-moved")),
        new Watch(g, d + "/g-moved"));
  }

  /**
   * truncate: on a block boundary one batch (the shorter block list); inside a block the truncate's
   * batch (the file under construction, its truncate block record) and then the block recovery's
   * (the new generation stamp, the closed file without the record), each a state a crash may leave.
   */
  static void sweepTruncate() throws Exception {
    String dir = "/s/truncate/";
    DFSTestUtil.createFile(fs, new Path(dir + "boundary"), 3 * 1024 * 1024 + 10, (short) 1, 4L);
    DFSTestUtil.createFile(fs, new Path(dir + "inside"), 1024 * 1024 + 5000, (short) 1, 5L);
    sweep(
        "truncate on a block boundary (two blocks dropped)",
        () -> assertTrue(nn.truncate(dir + "boundary", 1024 * 1024, CLIENT)));
    sweep(
        "truncate inside a block, then its block recovery closes the file",
        () -> {
          assertFalse(nn.truncate(dir + "inside", 1024 * 1024 + 777, CLIENT));
          long end = System.currentTimeMillis() + 60_000;
          while (!nn.isFileClosed(dir + "inside")) {
            assertTrue("the truncate's block recovery", System.currentTimeMillis() < end);
            Thread.sleep(50);
          }
        });
  }

  /** Symlinks: a page of their own (a long target in a NAME_EXT chain), moved and removed. */
  static void sweepSymlinks() throws Exception {
    org.apache.hadoop.fs.FileSystem.enableSymlinks();
    StringBuilder longTarget = new StringBuilder("/s/file");
    while (longTarget.length() < 400) {
      longTarget.append("/component");
    }
    FsPermission perm = FsPermission.getDefault();
    sweep("createSymlink", () -> nn.createSymlink("/s/file", "/s/link", perm, false));
    sweep(
        "createSymlink with a 400-byte target (a chain) and its parents",
        () -> nn.createSymlink(longTarget.toString(), "/s/links/deep/long", perm, true));
    sweep("rename a symlink", () -> assertTrue(nn.rename("/s/link", "/s/a/link")));
    sweep("delete a symlink", () -> assertTrue(nn.delete("/s/links/deep/long", false)));
  }

  /**
   * Snapshots (the preview, region-format.md §13): each snapshot edit, and ordinary edits under a
   * snapshot, whose batches also write the diff records 2.7.3's code changed.
   */
  static void sweepSnapshots() throws Exception {
    String d = "/s/snap";
    DFSTestUtil.createFile(fs, new Path(d + "/f1"), 1000, (short) 1, 4L);
    DFSTestUtil.createFile(fs, new Path(d + "/f2"), 1000, (short) 1, 5L);
    DFSTestUtil.createFile(fs, new Path(d + "/sub/f3"), 1000, (short) 1, 6L);
    nn.allowSnapshot(d);
    sweep(
        "createSnapshot (the first: counter, snapshot and the root's diff records)",
        () -> nn.createSnapshot(d, "s1"));
    sweep(
        "create under a snapshot (the directory's created list)", () -> writeFile(d + "/new", 10));
    for (int i = 0; i < 100; i++) {
      nn.mkdirs(d + "/m" + i, FsPermission.getDirDefault(), false);
    }
    sweep(
        "mkdir under a snapshot whose lists hold 101 entries (its own entry record, the lists"
            + " untouched)",
        () -> nn.mkdirs(d + "/m100", FsPermission.getDirDefault(), false));
    sweep(
        "setPermission under a snapshot (a file diff with the pre-image)",
        () -> nn.setPermission(d + "/f1", new FsPermission((short) 0600)));
    sweep(
        "delete under a snapshot (the file kept, in the deleted list)",
        () -> assertTrue(nn.delete(d + "/f2", false)));
    sweep(
        "delete a directory under a snapshot (its subtree kept)",
        () -> assertTrue(nn.delete(d + "/sub", true)));
    sweep("createSnapshot (the second)", () -> nn.createSnapshot(d, "s2"));
    sweep(
        "create a deleted file's name again (two pages of one name)",
        () -> writeFile(d + "/f2", 20));
    sweep("renameSnapshot", () -> nn.renameSnapshot(d, "s2", "t2"));
    String e = "/s/snap2";
    nn.mkdirs(e, FsPermission.getDirDefault(), false);
    nn.allowSnapshot(e);
    nn.createSnapshot(e, "e1");
    sweep(
        "rename out of a snapshot into another snapshotted tree (references' records)",
        () -> assertTrue(nn.rename(d + "/f1", e + "/f1")));
    sweep(
        "rename within a snapshotted directory (a WithName and a DstReference)",
        () -> assertTrue(nn.rename(d + "/new", d + "/new2")));
    sweep(
        "rename a renamed file again (its reference moves)",
        () -> assertTrue(nn.rename(e + "/f1", d + "/f1b")));
    sweep(
        "delete a renamed file (only the snapshot's reference keeps it)",
        () -> assertTrue(nn.delete(d + "/f1b", false)));
    nn.mkdirs("/s/x/y", FsPermission.getDirDefault(), true);
    assertTrue(nn.rename(d + "/new2", "/s/x/y/new2"));
    sweep(
        "delete the directory a renamed file was moved into (its page under its old place)",
        () -> assertTrue(nn.delete("/s/x", true)));
    // Y renamed out of X, then X into Y: held by old places only after the delete, X's page must
    // go under its old place before Y's goes under X (whose page the rename put under Y's)
    nn.mkdirs(d + "/X/Y", FsPermission.getDirDefault(), true);
    nn.mkdirs("/s/z", FsPermission.getDirDefault(), true);
    nn.createSnapshot(d, "s3");
    assertTrue(nn.rename(d + "/X/Y", "/s/z/Y"));
    assertTrue(nn.rename(d + "/X", "/s/z/Y/X"));
    sweep(
        "delete two renamed directories, each one's old place in the other (two moves, in order)",
        () -> assertTrue(nn.delete("/s/z", true)));
    sweep("deleteSnapshot (diffs merged into the prior)", () -> nn.deleteSnapshot(d, "s1"));
    sweep("deleteSnapshot (the last: what only it held freed)", () -> nn.deleteSnapshot(d, "t2"));
    // one edit that changes 200 diff records: a batch of about 29 KiB of log, larger than the log
    // area, whose redo record keeps its payload in chain pages (region-format.md §4.1)
    String m = "/s/many";
    for (int i = 0; i < 200; i++) {
      writeFile(m + "/f" + i, 0);
    }
    nn.allowSnapshot(m);
    nn.createSnapshot(m, "m1");
    for (int i = 0; i < 200; i++) {
      nn.setPermission(m + "/f" + i, new FsPermission((short) 0600));
    }
    nn.createSnapshot(m, "m2");
    for (int i = 0; i < 200; i++) {
      nn.setPermission(m + "/f" + i, new FsPermission((short) 0640));
    }
    sweep(
        "deleteSnapshot changing 200 files' diff records (a chained redo record)",
        () -> nn.deleteSnapshot(m, "m1"));
  }

  /** concat: one batch with the target's new block list and the sources' pages removed. */
  static void sweepConcat() throws Exception {
    String dir = "/s/concat/";
    DFSTestUtil.createFile(fs, new Path(dir + "target"), 1024 * 1024, (short) 1, 1L);
    DFSTestUtil.createFile(fs, new Path(dir + "s1"), 1000, (short) 1, 2L);
    DFSTestUtil.createFile(fs, new Path(dir + "s2"), 3 * 1024 * 1024 - 5, (short) 1, 3L);
    sweep(
        "concat (5 blocks: a BLOCK_EXT chain; 2 sources removed)",
        () -> nn.concat(dir + "target", new String[] {dir + "s1", dir + "s2"}));
  }

  /** The cache manager's edits (region-format.md §5.5, cache pools and directives). */
  static void sweepCache() throws Exception {
    EnumSet<CacheFlag> force = EnumSet.of(CacheFlag.FORCE);
    sweep(
        "addCachePool (a pool record)",
        () -> nn.addCachePool(new CachePoolInfo("pool1").setLimit(1L << 30)));
    sweep(
        "addCachePool, 300-character name (a RECORD_EXT chain)",
        () -> nn.addCachePool(new CachePoolInfo(new String(new char[300]).replace('\0', 'p'))));
    final long[] id = new long[2];
    sweep(
        "addCacheDirective (the directive and the ids record)",
        () ->
            id[0] =
                nn.addCacheDirective(
                    new CacheDirectiveInfo.Builder()
                        .setPath(new Path("/s/cached"))
                        .setPool("pool1")
                        .build(),
                    force));
    sweep(
        "addCacheDirective (a second: the ids record's value)",
        () ->
            id[1] =
                nn.addCacheDirective(
                    new CacheDirectiveInfo.Builder()
                        .setPath(new Path("/s/also-cached"))
                        .setPool("pool1")
                        .setReplication((short) 2)
                        .build(),
                    force));
    sweep(
        "modifyCacheDirective (the record replaced)",
        () ->
            nn.modifyCacheDirective(
                new CacheDirectiveInfo.Builder().setId(id[0]).setReplication((short) 3).build(),
                force));
    sweep(
        "modifyCachePool (the record replaced)",
        () -> nn.modifyCachePool(new CachePoolInfo("pool1").setOwnerName("someone-else")));
    sweep("removeCacheDirective", () -> nn.removeCacheDirective(id[0]));
    sweep("removeCachePool (and its directive)", () -> nn.removeCachePool("pool1"));
  }
}
