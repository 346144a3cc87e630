package org.nvmnn.it.core;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;
import static org.nvmnn.it.core.MigrationTestSupport.cluster;
import static org.nvmnn.it.core.MigrationTestSupport.region;
import static org.nvmnn.it.core.MigrationTestSupport.tool;

import java.io.File;
import java.security.PrivilegedExceptionAction;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.crypto.key.JavaKeyStoreProvider;
import org.apache.hadoop.fs.FileEncryptionInfo;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.XAttrSetFlag;
import org.apache.hadoop.fs.permission.AclEntry;
import org.apache.hadoop.fs.permission.AclStatus;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DFSTestUtil;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.server.namenode.NvmTestAccess;
import org.apache.hadoop.hdfs.server.namenode.nvm.AttributeCodec;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeStore;
import org.apache.hadoop.hdfs.server.namenode.nvm.NvmConfigKeys;
import org.apache.hadoop.hdfs.server.namenode.nvm.PersistMode;
import org.apache.hadoop.hdfs.server.namenode.nvm.Region;
import org.apache.hadoop.hdfs.server.namenode.nvm.Txn;
import org.apache.hadoop.hdfs.server.namenode.nvm.tools.RegionStat;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.After;
import org.junit.Test;
import org.nvmnn.it.NvmCluster;

/**
 * ACLs and extended attributes cross a migration both ways: a stock namespace's access and default
 * ACLs (inherited by children), xattrs in the user, trusted, security and raw namespaces (one of
 * 16,000 bytes, one without a value, one empty) on files, directories and the root, and a
 * directory's storage policy next to an xattr are imported into a region and served by the NVM
 * NameNode exactly as the stock NameNode served them; with changes made in NVM mode they are
 * exported and served by the stock NameNode again, with a snapshot, a snapshottable directory and
 * an encryption zone among them; an attribute the written region lost fails the import's
 * verification.
 */
public class AttributeMigrationTest {
  private static final EnumSet<XAttrSetFlag> CREATE = EnumSet.of(XAttrSetFlag.CREATE);

  /** Files with an xattr and a named ACL entry each: most are cold in NVM mode (16 cached). */
  private static final int COLD_FILES = 30;

  private MiniDFSCluster cluster;

  @After
  public void tearDown() {
    NvmTestAccess.beforeImportVerifies(null);
    if (cluster != null) {
      cluster.shutdown();
    }
  }

  private static byte[] bytes(int n, int seed) {
    byte[] b = new byte[n];
    new java.util.Random(seed).nextBytes(b);
    return b;
  }

  private static byte[] utf8(String s) {
    return s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
  }

  /** An empty file (replication 1: the cluster has no DataNode). */
  private static void touch(FileSystem fs, Path p) throws Exception {
    fs.create(p, (short) 1).close();
  }

  /** The attributes, all made by the stock NameNode. */
  private static void build(DistributedFileSystem fs) throws Exception {
    Path acl = new Path("/acl");
    fs.mkdirs(acl);
    fs.setAcl(
        acl,
        AclEntry.parseAclSpec(
            "user::rwx,user:bob:r-x,group::r-x,group:staff:r--,mask::r-x,other::---,"
                + "default:user::rwx,default:user:bob:rwx,default:group::r-x,"
                + "default:mask::rwx,default:other::---",
            true));
    touch(fs, new Path(acl, "f")); // the default ACL as its access ACL
    fs.mkdirs(new Path(acl, "sub/deeper")); // as access and default ACL, twice
    touch(fs, new Path(acl, "sub/deeper/g"));
    Path onlyDefault = new Path("/defaults");
    fs.mkdirs(onlyDefault);
    fs.modifyAclEntries(onlyDefault, AclEntry.parseAclSpec("default:user:carol:r-x", true));

    Path x = new Path("/x");
    touch(fs, x);
    fs.setXAttr(x, "user.small", utf8("v1"), CREATE);
    fs.setXAttr(x, "user.big", bytes(16_000, 1), CREATE); // a chain of 72 pages
    fs.setXAttr(x, "user.novalue", null, CREATE);
    fs.setXAttr(x, "user.empty", new byte[0], CREATE);
    fs.setXAttr(x, "trusted.t", utf8("trusted"), CREATE);
    fs.setXAttr(new Path("/.reserved/raw/x"), "raw.r", bytes(40, 2), CREATE);
    fs.modifyAclEntries(x, AclEntry.parseAclSpec("user:carol:rw-", true));
    Path secret = new Path("/secret");
    touch(fs, secret);
    fs.setXAttr(secret, "security.hdfs.unreadable.by.superuser", null, CREATE);

    Path policy = new Path("/policy");
    fs.mkdirs(policy);
    fs.setStoragePolicy(policy, "COLD");
    fs.setXAttr(policy, "user.d", utf8("dir"), CREATE);
    touch(fs, new Path(policy, "h"));
    fs.setXAttr(new Path("/"), "user.root", utf8("r"), CREATE);
    fs.mkdirs(new Path("/plain"));

    for (int i = 0; i < COLD_FILES; i++) {
      Path p = new Path("/cold/c" + i);
      touch(fs, p);
      fs.setXAttr(p, "user.i", utf8("" + i), CREATE);
      fs.modifyAclEntries(p, AclEntry.parseAclSpec("user:u" + i + ":r--", true));
    }
  }

  /** Changes in NVM mode, for the export to carry. */
  private static void change(DistributedFileSystem fs) throws Exception {
    fs.removeAclEntries(new Path("/acl/f"), AclEntry.parseAclSpec("user:bob", false));
    fs.removeXAttr(new Path("/x"), "user.small");
    fs.setXAttr(new Path("/policy"), "user.nvm", utf8("n"), CREATE);
    touch(fs, new Path("/acl/sub/made-in-nvm")); // inherits the default ACL
    fs.setAcl(new Path("/cold/c3"), AclEntry.parseAclSpec("user::rw-,group::r--,other::---", true));
  }

  private static String acl(AclStatus s) {
    List<String> e = new ArrayList<>();
    for (AclEntry x : s.getEntries()) {
      e.add(x.toString());
    }
    return s.getOwner() + ":" + s.getGroup() + (s.isStickyBit() ? " sticky " : " ") + e;
  }

  /**
   * Every path, walked from the root: permission (with the ACL bit), ACL status, every xattr as the
   * superuser reads it through /.reserved/raw (values as length and hash) and storage policy.
   */
  private static List<String> state(DistributedFileSystem fs) throws Exception {
    List<String> out = new ArrayList<>();
    walk(fs, new Path("/"), out);
    return out;
  }

  private static void walk(DistributedFileSystem fs, Path p, List<String> out) throws Exception {
    String s = p.toUri().getPath();
    FsPermission perm = fs.getFileStatus(p).getPermission();
    Map<String, String> x = new TreeMap<>();
    for (Map.Entry<String, byte[]> e :
        fs.getXAttrs(new Path("/.reserved/raw" + ("/".equals(s) ? "" : s))).entrySet()) {
      byte[] v = e.getValue();
      x.put(e.getKey(), v == null ? "null" : v.length + "#" + Arrays.hashCode(v));
    }
    out.add(
        s
            + " "
            + perm
            + (perm.getAclBit() ? "+ " : " ")
            + acl(fs.getAclStatus(p))
            + " "
            + x
            + " policy="
            + fs.getClient().getFileInfo(s).getStoragePolicy());
    if (fs.getFileStatus(p).isDirectory()) {
      for (FileStatus c : fs.listStatus(p)) {
        walk(fs, c.getPath(), out);
      }
    }
  }

  private static String line(List<String> state, String path) {
    for (String l : state) {
      if (l.startsWith(path + " ")) {
        return l;
      }
    }
    throw new AssertionError(path + " not in " + state);
  }

  /**
   * Whether users named in the ACLs (and one who is not) may list /acl/sub and read /x's xattrs.
   */
  private static List<String> access(MiniDFSCluster c) throws Exception {
    List<String> out = new ArrayList<>();
    for (String user : new String[] {"bob", "carol", "dave"}) {
      UserGroupInformation ugi =
          UserGroupInformation.createUserForTesting(user, new String[] {user});
      out.add(
          ugi.doAs(
              (PrivilegedExceptionAction<String>)
                  () -> {
                    FileSystem fs = FileSystem.newInstance(c.getURI(0), c.getConfiguration(0));
                    try {
                      return user
                          + " "
                          + attempt(() -> fs.listStatus(new Path("/acl/sub")).length)
                          + " "
                          + attempt(() -> fs.getXAttrs(new Path("/x")).size());
                    } finally {
                      fs.close();
                    }
                  }));
    }
    return out;
  }

  private interface Call {
    Object run() throws Exception;
  }

  private static String attempt(Call c) {
    try {
      return String.valueOf(c.run());
    } catch (Exception e) {
      return e.getClass().getSimpleName();
    }
  }

  @Test(timeout = 300_000)
  public void aclsAndXattrsSurviveImportAndExport() throws Exception {
    cluster = cluster(getClass(), "attrs", false, 0);
    DistributedFileSystem fs = cluster.getFileSystem();
    build(fs);
    List<String> onStock = state(fs);
    List<String> accessOnStock = access(cluster);
    // the reference holds what the test is about (a state that lost them would compare equal)
    String g = line(onStock, "/acl/sub/deeper/g");
    assertTrue(g, g.contains("+ ") && g.contains("user:bob:rwx"));
    assertTrue(
        line(onStock, "/acl/sub"), line(onStock, "/acl/sub").contains("default:user:bob:rwx"));
    assertTrue(
        line(onStock, "/defaults"), line(onStock, "/defaults").contains("default:user:carol"));
    String x = line(onStock, "/x");
    assertTrue(x, x.contains("user.big=16000#") && x.contains("user.novalue=0#"));
    assertTrue(
        x, x.contains("user.empty=0#") && x.contains("raw.r=40#") && x.contains("trusted.t=7#"));
    assertTrue(line(onStock, "/secret").contains("security.hdfs.unreadable.by.superuser=0#"));
    String policy = line(onStock, "/policy");
    assertTrue(policy, policy.contains("user.d=3#") && policy.contains("policy=2")); // COLD
    assertTrue(line(onStock, "/").contains("user.root=1#"));
    assertTrue(
        accessOnStock.toString(),
        accessOnStock.get(0).startsWith("bob 1 ")
            && accessOnStock.get(2).startsWith("dave AccessControlException"));

    cluster.shutdownNameNode(0);
    MigrationTestSupport.Run run = tool(cluster, "import");
    assertEquals(run.toString(), 0, run.exit);
    assertTrue(run.toString(), run.out.contains(", 40 with ACL entries or xattrs)"));
    // the room the import counted is what the region uses (the 16,000-byte value's pages too)
    Matcher pages = Pattern.compile(" (\\d+) region pages").matcher(run.out);
    assertTrue(run.toString(), pages.find());
    assertEquals(Long.parseLong(pages.group(1)), RegionStat.run(region(cluster)).pagesUsed());
    MigrationTestSupport.setMode(cluster, true);
    cluster.restartNameNode(0, true);
    fs = cluster.getFileSystem();
    assertEquals("after the import", onStock, state(fs));
    assertEquals("permission checks after the import", accessOnStock, access(cluster));
    change(fs);
    List<String> onNvm = state(fs);
    assertFalse(onNvm.equals(onStock));

    fs = MigrationTestSupport.exportAndStartStock(cluster);
    assertEquals("after the export", onNvm, state(fs));
  }

  @Test(timeout = 300_000)
  public void snapshotsSnapshottableDirectoriesAndEncryptionZonesImported() throws Exception {
    File keys = new File(NamespaceOpsTestBase.baseDir(getClass()), "refusals.jks");
    cluster =
        cluster(
            getClass(),
            "refusals",
            false,
            0,
            DFSConfigKeys.DFS_ENCRYPTION_KEY_PROVIDER_URI
                + "="
                + JavaKeyStoreProvider.SCHEME_NAME
                + "://file"
                + keys.toURI().getPath(),
            NvmConfigKeys.NVM_SNAPSHOTS_PREVIEW_KEY + "=true");
    DistributedFileSystem fs = cluster.getFileSystem();
    DFSTestUtil.createKey("k", cluster, cluster.getConfiguration(0));
    fs.mkdirs(new Path("/snap/d"));
    fs.modifyAclEntries(new Path("/snap"), AclEntry.parseAclSpec("user:bob:r-x", true));
    fs.setXAttr(new Path("/snap/d"), "user.a", utf8("a"), CREATE);
    fs.allowSnapshot(new Path("/snap"));
    fs.createSnapshot(new Path("/snap"), "s1"); // imported since the snapshot preview's import
    fs.mkdirs(new Path("/ez"));
    fs.createEncryptionZone(new Path("/ez"), "k");
    fs.create(new Path("/ez/f"), (short) 1).close(); // an encrypted file: its encryption info
    List<String> onStock = state(fs);
    assertTrue(
        line(onStock, "/ez"), line(onStock, "/ez").contains("raw.hdfs.crypto.encryption.zone="));
    assertTrue(
        line(onStock, "/ez/f"),
        line(onStock, "/ez/f").contains("raw.hdfs.crypto.file.encryption.info="));
    FileEncryptionInfo infoOnStock = fs.getClient().getFileInfo("/ez/f").getFileEncryptionInfo();
    assertNotNull(infoOnStock);
    assertEquals("[/snap 65536]", NvmCluster.snapshottableDirs(fs).toString());
    fs = MigrationTestSupport.importAndStartNvm(cluster);
    assertEquals("after the import", onStock, state(fs));
    assertEquals("after the import", "[/snap 65536]", NvmCluster.snapshottableDirs(fs).toString());
    assertEquals(
        "a",
        new String(
            fs.getXAttr(new Path("/snap/.snapshot/s1/d"), "user.a"),
            java.nio.charset.StandardCharsets.UTF_8));
    // the zone's xattr came with the directory, and the rebuild registered the zone again
    assertEquals("/ez", fs.getEZForPath(new Path("/ez")).getPath());
    assertEquals("k", fs.listEncryptionZones().next().getKeyName());
    assertEquals(
        infoOnStock.toString(),
        fs.getClient().getFileInfo("/ez/f").getFileEncryptionInfo().toString());

    fs = MigrationTestSupport.exportAndStartStock(cluster);
    assertEquals("after the export", onStock, state(fs));
    assertEquals("after the export", "[/snap 65536]", NvmCluster.snapshottableDirs(fs).toString());
    assertEquals(
        "a",
        new String(
            fs.getXAttr(new Path("/snap/.snapshot/s1/d"), "user.a"),
            java.nio.charset.StandardCharsets.UTF_8));
    assertEquals("/ez", fs.getEZForPath(new Path("/ez")).getPath());
    assertEquals(
        infoOnStock.toString(),
        fs.getClient().getFileInfo("/ez/f").getFileEncryptionInfo().toString());
  }

  @Test(timeout = 180_000)
  public void aLostAttributeFailsTheImport() throws Exception {
    cluster = cluster(getClass(), "lost", false, 0);
    DistributedFileSystem fs = cluster.getFileSystem();
    fs.mkdirs(new Path("/v/w"));
    fs.setXAttr(new Path("/"), "user.root", utf8("r"), CREATE);
    cluster.shutdownNameNode(0);
    // a writer that lost the root's attributes: a clean region, the root without its xattr
    NvmTestAccess.beforeImportVerifies(
        file -> {
          try (InodeStore store = InodeStore.open(Region.open(file, PersistMode.EMULATED));
              Txn t = store.begin()) {
            t.setAttributes(store.rootPage(), AttributeCodec.NONE);
            t.commit();
          } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
          }
        });
    MigrationTestSupport.Run run = tool(cluster, "import");
    assertEquals(run.toString(), 1, run.exit);
    assertTrue(run.toString(), run.err.contains("verification failed, the region was removed"));
    assertTrue(run.toString(), run.err.contains("- / id=16385 type=dir "));
    assertTrue(run.toString(), run.err.contains(" xattrs=user.root:1:72\n+ / id=16385 type=dir "));
    assertFalse(region(cluster).exists());
    assertFalse(new File(region(cluster).getPath() + ".importing").exists());
  }
}
