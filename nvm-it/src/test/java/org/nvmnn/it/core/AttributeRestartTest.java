package org.nvmnn.it.core;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.security.PrivilegedExceptionAction;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.XAttrSetFlag;
import org.apache.hadoop.fs.permission.AclEntry;
import org.apache.hadoop.fs.permission.AclStatus;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.XAttrHelper;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.SafeModeAction;
import org.apache.hadoop.hdfs.server.namenode.nvm.NvmConfigKeys;
import org.apache.hadoop.hdfs.server.protocol.NamenodeProtocols;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.After;
import org.junit.Test;

/**
 * ACLs and extended attributes (issue 25) persist and come back after restarts exactly as the stock
 * NameNode serves them: xattrs in the user, trusted, security and raw namespaces (one of 16,000
 * bytes, one without a value), on files, directories and the root, next to a directory's storage
 * policy; access and default ACLs, default ACLs copied to new children, ACL edits and removals; a
 * rename keeps them, a delete drops them. With an inode cache of 8 files most files are cold when
 * they are read back. Permission checks by named ACL entries give the same answers before and after
 * the restart. The same calls against the stock NameNode give the reference.
 */
public class AttributeRestartTest {
  private static final int COLD_FILES = 40;
  private MiniDFSCluster cluster;

  @After
  public void tearDown() {
    if (cluster != null) {
      cluster.shutdown();
    }
  }

  private static byte[] bytes(int n, int seed) {
    byte[] b = new byte[n];
    new java.util.Random(seed).nextBytes(b);
    return b;
  }

  private static void touch(FileSystem fs, Path p) throws Exception {
    try (FSDataOutputStream out = fs.create(p, (short) 1)) {
      out.write(7);
    }
  }

  private static final EnumSet<XAttrSetFlag> CREATE = EnumSet.of(XAttrSetFlag.CREATE);

  private void changes(DistributedFileSystem fs) throws Exception {
    Path a = new Path("/a");
    fs.mkdirs(a);
    fs.setAcl(
        a,
        AclEntry.parseAclSpec(
            "user::rwx,user:bob:r-x,group::r-x,mask::r-x,other::---,"
                + "default:user::rwx,default:user:bob:rwx,default:group::r-x,"
                + "default:group:staff:r--,default:mask::rwx,default:other::---",
            true));
    Path f = new Path(a, "f");
    touch(fs, f); // inherits the default ACL as its access ACL
    fs.mkdirs(new Path(a, "sub/deeper")); // inherits it as access and default ACL
    fs.setXAttr(f, "user.small", "v1".getBytes("UTF-8"), CREATE);
    fs.setXAttr(f, "user.big", bytes(16_000, 1), CREATE); // a chain of 72 pages
    fs.setXAttr(f, "user.novalue", null, CREATE);
    fs.setXAttr(f, "user.empty", new byte[0], CREATE);
    fs.setXAttr(f, "trusted.t", "trusted".getBytes("UTF-8"), CREATE);
    fs.setXAttr(new Path("/.reserved/raw/a/f"), "raw.r", bytes(40, 2), CREATE);
    fs.setXAttr(f, "user.small", "v2".getBytes("UTF-8"), EnumSet.of(XAttrSetFlag.REPLACE));
    fs.removeXAttr(f, "user.novalue");
    fs.modifyAclEntries(f, AclEntry.parseAclSpec("user:carol:rw-", true));

    Path secret = new Path(a, "secret");
    touch(fs, secret);
    fs.setXAttr(secret, "security.hdfs.unreadable.by.superuser", null, CREATE);

    Path sub = new Path(a, "sub");
    fs.setStoragePolicy(sub, "COLD");
    fs.setXAttr(sub, "user.d", "dir".getBytes("UTF-8"), CREATE);
    fs.removeDefaultAcl(new Path(sub, "deeper"));
    fs.setXAttr(new Path("/"), "user.root", "r".getBytes("UTF-8"), CREATE);

    Path plain = new Path("/plain");
    fs.mkdirs(plain);
    fs.setAcl(plain, AclEntry.parseAclSpec("user::rwx,user:bob:rwx,group::r-x,other::r-x", true));
    fs.removeAcl(plain); // back to mode bits only

    Path cold = new Path("/cold");
    for (int i = 0; i < COLD_FILES; i++) {
      Path p = new Path(cold, "c" + i);
      touch(fs, p);
      fs.setXAttr(p, "user.i", ("" + i).getBytes("UTF-8"), CREATE);
      if (i % 2 == 0) {
        fs.modifyAclEntries(p, AclEntry.parseAclSpec("user:u" + i + ":r--", true));
      }
    }
    fs.rename(new Path(cold, "c0"), new Path(a, "moved"));
    fs.delete(new Path(cold, "c1"), false);
    fs.setPermission(f, new FsPermission((short) 0640)); // the mask of an extended ACL
  }

  private static String acl(AclStatus s) {
    List<String> e = new ArrayList<>();
    for (AclEntry x : s.getEntries()) {
      e.add(x.toString());
    }
    return s.getOwner() + ":" + s.getGroup() + " " + e;
  }

  /** Every path's permission (and ACL bit), ACL and xattrs (values as length and hash). */
  private static List<String> state(DistributedFileSystem fs) throws Exception {
    List<String> paths = new ArrayList<>();
    paths.addAll(Arrays.asList("/", "/a", "/a/f", "/a/secret", "/a/sub", "/a/sub/deeper"));
    paths.addAll(Arrays.asList("/plain", "/a/moved"));
    for (int i = 2; i < COLD_FILES; i++) {
      paths.add("/cold/c" + i);
    }
    List<String> out = new ArrayList<>();
    for (String s : paths) {
      Path p = new Path(s);
      FsPermission perm = fs.getFileStatus(p).getPermission();
      Map<String, String> x = new TreeMap<>();
      for (Map.Entry<String, byte[]> e : fs.getXAttrs(p).entrySet()) {
        byte[] v = e.getValue();
        x.put(e.getKey(), v == null ? "null" : v.length + "#" + Arrays.hashCode(v));
      }
      out.add(s + " " + perm + (perm.getAclBit() ? "+" : "") + " " + acl(fs.getAclStatus(p)) + x);
    }
    Map<String, byte[]> raw = fs.getXAttrs(new Path("/.reserved/raw/a/f"));
    out.add("raw.r " + Arrays.hashCode(raw.get("raw.r")));
    out.add("policy " + fs.getClient().getFileInfo("/a/sub").getStoragePolicy());
    out.add("c1 exists " + fs.exists(new Path("/cold/c1")));
    return out;
  }

  /** Whether {@code user} may read {@code p} (named ACL entries decide for bob and carol). */
  private static String reads(MiniDFSCluster c, String user, String p) throws Exception {
    UserGroupInformation ugi = UserGroupInformation.createUserForTesting(user, new String[] {user});
    return ugi.doAs(
        (PrivilegedExceptionAction<String>)
            () -> {
              FileSystem fs = FileSystem.newInstance(c.getURI(0), c.getConfiguration(0));
              try (FSDataInputStream in = fs.open(new Path(p))) {
                return user + " reads " + p + ": " + in.read();
              } catch (java.io.IOException e) {
                return user + " reads " + p + ": " + e.getClass().getSimpleName();
              } finally {
                fs.close();
              }
            });
  }

  private static List<String> access(MiniDFSCluster c) throws Exception {
    List<String> out = new ArrayList<>();
    for (String u : new String[] {"bob", "carol", "dave"}) {
      out.add(reads(c, u, "/a/f"));
      out.add(reads(c, u, "/cold/c2"));
    }
    return out;
  }

  private List<String> scenario(boolean nvm) throws Exception {
    cluster =
        MigrationTestSupport.cluster(
            getClass(), nvm ? "n" : "s", nvm, 1, NvmConfigKeys.NVM_CACHE_INODES_KEY + "=8");
    DistributedFileSystem fs = cluster.getFileSystem();
    changes(fs);
    List<String> before = state(fs);
    List<String> accessBefore = access(cluster);
    cluster.restartNameNode(0);
    cluster.waitActive();
    fs = cluster.getFileSystem();
    assertEquals("after the restart", before, state(fs));
    assertEquals("permission checks after the restart", accessBefore, access(cluster));

    // changes after the restart persist as well
    fs.removeXAttr(new Path("/a/f"), "user.big");
    fs.setAcl(new Path("/cold/c3"), AclEntry.parseAclSpec("user::rw-,group::r--,other::---", true));
    fs.create(new Path("/a/sub/new")).close(); // /a/sub keeps its default ACL; COLD: no block
    cluster.restartNameNode(0);
    cluster.waitActive();
    fs = cluster.getFileSystem();
    List<String> seen = new ArrayList<>(state(fs));
    seen.add(acl(fs.getAclStatus(new Path("/a/sub/new"))));
    seen.addAll(accessBefore);
    return seen;
  }

  private interface Call {
    void run(NamenodeProtocols nn) throws Exception;
  }

  /** What a call answers: "ok", or the class and message of what it threw. */
  private String answer(Call c) {
    try {
      c.run(cluster.getNameNodeRpc());
      return "ok";
    } catch (Throwable t) {
      return t.getClass().getName() + ": " + t.getMessage();
    }
  }

  /**
   * Calls the stock NameNode refuses with a relative or empty path: its answer (the xattr size
   * check, the xattr namespace permission check, safe mode), not the NVM NameNode's room check
   * failing FSDirectory's "Absolute path required" assertion first (found by the RPC fuzzer, seeds
   * 25, 26 and 27).
   */
  private List<String> relativePathAnswers(boolean nvm) throws Exception {
    cluster = MigrationTestSupport.cluster(getClass(), nvm ? "rn" : "rs", nvm, 1);
    byte[] big = new byte[16_384];
    EnumSet<XAttrSetFlag> none = EnumSet.noneOf(XAttrSetFlag.class);
    List<AclEntry> acl = AclEntry.parseAclSpec("user::rwx,group::r-x,other::---", true);
    List<String> out = new ArrayList<>();
    out.add(answer(nn -> nn.setXAttr("rel/x", XAttrHelper.buildXAttr("trusted.t", big), none)));
    out.add(answer(nn -> nn.setXAttr("rel/x", XAttrHelper.buildXAttr("raw.r", null), CREATE)));
    out.add(answer(nn -> nn.setXAttr("rel/x", XAttrHelper.buildXAttr("user.a", null), CREATE)));
    out.add(answer(nn -> nn.removeXAttr("rel/x", XAttrHelper.buildXAttr("raw.r"))));
    out.add(answer(nn -> nn.setAcl("rel/x", acl)));
    out.add(answer(nn -> nn.setXAttr("", XAttrHelper.buildXAttr("security.s", null), CREATE)));
    out.add(answer(nn -> nn.removeAclEntries("", acl)));
    cluster.getFileSystem().setSafeMode(SafeModeAction.SAFEMODE_ENTER);
    out.add(answer(nn -> nn.setAcl("rel/x", acl)));
    out.add(answer(nn -> nn.removeAcl("rel/x")));
    out.add(answer(nn -> nn.removeXAttr("rel/x", XAttrHelper.buildXAttr("user.a"))));
    out.add(answer(nn -> nn.setXAttr("rel/x", XAttrHelper.buildXAttr("user.a", null), CREATE)));
    cluster.getFileSystem().setSafeMode(SafeModeAction.SAFEMODE_LEAVE);
    return out;
  }

  @Test(timeout = 300_000)
  public void callsWithARelativePathGetTheStockAnswer() throws Exception {
    List<String> stock = relativePathAnswers(false);
    cluster.shutdown();
    cluster = null;
    assertTrue(stock.get(0), stock.get(0).contains("The XAttr is too big"));
    assertTrue(stock.get(1), stock.get(1).contains("AccessControlException"));
    assertTrue(stock.get(7), stock.get(7).contains("SafeModeException"));
    assertEquals(stock, relativePathAnswers(true));
  }

  @Test(timeout = 300_000)
  public void aclsAndXattrsSurviveRestartsAsInTheStockNameNode() throws Exception {
    List<String> stock = scenario(false);
    cluster.shutdown();
    cluster = null;
    List<String> nvm = scenario(true);
    assertTrue(stock.toString(), stock.get(2).contains("trusted.t"));
    assertEquals(stock, nvm);
  }
}
