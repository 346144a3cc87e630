package org.nvmnn.it.ha;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.XAttrSetFlag;
import org.apache.hadoop.fs.permission.AclEntry;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.protocol.CacheDirectiveInfo;
import org.apache.hadoop.hdfs.protocol.CachePoolInfo;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.apache.hadoop.hdfs.server.namenode.NvmTestAccess;
import org.apache.hadoop.hdfs.server.namenode.ha.HATestUtil;
import org.apache.hadoop.hdfs.server.namenode.nvm.tools.NamespaceDump;
import org.apache.hadoop.io.IOUtils;
import org.junit.Rule;
import org.junit.Test;
import org.nvmnn.it.NvmCluster;

/**
 * Two NVM NameNodes as an HA pair over a real quorum journal (MiniQJMHACluster: three
 * JournalNodes): the active writes every change to its region and logs the stock op to the journal;
 * the standby tails the journal and keeps its own region current op by op. After each failover the
 * new active serves exactly the namespace the old one served (contents read back through the
 * DataNode), and after both NameNodes stop, the two regions hold the same namespace, inode for
 * inode.
 */
public class NvmHaPairTest {
  private static final int BLOCK = HaPair.BLOCK;

  @Rule public final HaPair pair = new HaPair("pair");

  private static byte[] content(int seed, int length) {
    byte[] b = new byte[length];
    new Random(seed).nextBytes(b);
    return b;
  }

  private static void write(FileSystem fs, Path p, byte[] data) throws Exception {
    try (FSDataOutputStream out = fs.create(p, (short) 1)) {
      out.write(data);
    }
  }

  private static byte[] read(FileSystem fs, Path p) throws Exception {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    try (FSDataInputStream in = fs.open(p)) {
      IOUtils.copyBytes(in, b, 4096);
    }
    return b.toByteArray();
  }

  /** Operations of every persisted kind, under {@code root}. */
  private static void operations(DistributedFileSystem fs, String root) throws Exception {
    Path r = new Path(root);
    fs.mkdirs(new Path(r, "d/e/f"));
    write(fs, new Path(r, "d/one"), content(1, 3000));
    write(fs, new Path(r, "d/two"), content(2, 2 * BLOCK + 17));
    write(fs, new Path(r, "gone"), content(3, 100));
    fs.rename(new Path(r, "d/one"), new Path(r, "d/e/one"));
    fs.rename(new Path(r, "d/two"), new Path(r, "d/e/one"), Options.Rename.OVERWRITE);
    fs.delete(new Path(r, "gone"), false);
    fs.setPermission(new Path(r, "d/e"), new FsPermission((short) 0750));
    fs.setOwner(new Path(r, "d/e/one"), "alice", "eng");
    // an atime within the access-time precision (1 hour): served() reading the file keeps it
    fs.setTimes(new Path(r, "d/e/one"), 1234567890000L, System.currentTimeMillis() - 1000);
    fs.setReplication(new Path(r, "d/e/one"), (short) 2);
    fs.setQuota(new Path(r, "d"), 1000, 1L << 40);
    fs.setXAttr(new Path(r, "d"), "user.k", "v".getBytes("UTF-8"), EnumSet.of(XAttrSetFlag.CREATE));
    fs.setAcl(
        new Path(r, "d/e/f"),
        AclEntry.parseAclSpec("user::rwx,user:bob:r-x,group::r-x,other::---", true));
    fs.modifyAclEntries(new Path(r, "d"), AclEntry.parseAclSpec("default:user:carol:rwx", true));
    fs.mkdirs(new Path(r, "d/inherits")); // takes d's default ACL
    fs.setStoragePolicy(new Path(r, "d/e"), "HOT");
    fs.allowSnapshot(new Path(r, "d/e")); // OP_ALLOW_SNAPSHOT: the page's DI_SNAPSHOT word
    fs.mkdirs(new Path(r, "s"));
    fs.allowSnapshot(new Path(r, "s"));
    fs.disallowSnapshot(new Path(r, "s")); // and OP_DISALLOW_SNAPSHOT
    write(fs, new Path(r, "t"), content(4, BLOCK + 500));
    fs.truncate(new Path(r, "t"), BLOCK); // on a block boundary: done at once
    write(fs, new Path(r, "c1"), content(5, 700));
    write(fs, new Path(r, "c2"), content(6, 800));
    fs.concat(new Path(r, "c1"), new Path[] {new Path(r, "c2")});
    fs.createSymlink(new Path("/target/of/link"), new Path(r, "link"), false);
    try (FSDataOutputStream out = fs.append(new Path(r, "d/e/one"))) {
      out.write(content(7, 99));
    }
    String pool = "pool" + root.replace('/', '-');
    fs.addCachePool(new CachePoolInfo(pool).setMode(new FsPermission((short) 0755)));
    fs.addCacheDirective(
        new CacheDirectiveInfo.Builder().setPath(new Path(r, "t")).setPool(pool).build());
  }

  private static DistributedFileSystem failoverFs(MiniDFSCluster c, Configuration conf)
      throws Exception {
    return (DistributedFileSystem) HATestUtil.configureFailoverFs(c, conf);
  }

  private static File region(MiniDFSCluster c, int nn) {
    return new File(new File(c.getNameDirs(nn).iterator().next()), "current/nvm-namespace.region");
  }

  /** What the active serves: listing, attributes, contents of every file, cache state. */
  private static List<String> served(DistributedFileSystem fs) throws Exception {
    List<String> out = new ArrayList<>();
    NvmCluster.Snapshot snap = NvmCluster.snapshot(fs);
    for (String p : snap.paths()) {
      out.add(p + " " + snap.get(p));
    }
    for (String f : new String[] {"/a/d/e/one", "/a/t", "/a/c1", "/b/d/e/one", "/b/c1"}) {
      Path p = new Path(f);
      if (fs.exists(p)) {
        out.add(f + " content " + java.util.Arrays.hashCode(read(fs, p)));
      }
    }
    for (String p : toList(fs.listCachePools())) {
      out.add("pool " + p);
    }
    for (String d : NvmCluster.snapshottableDirs(fs)) {
      out.add("snapshottable " + d);
    }
    for (String d : toList(fs.listCacheDirectives(null))) {
      out.add("directive " + d);
    }
    return out;
  }

  private static <T> List<String> toList(org.apache.hadoop.fs.RemoteIterator<T> it)
      throws Exception {
    List<String> out = new ArrayList<>();
    while (it.hasNext()) {
      Object e = it.next();
      if (e instanceof CachePoolInfo) {
        out.add(((CachePoolInfo) e).getPoolName());
      } else if (e instanceof org.apache.hadoop.hdfs.protocol.CachePoolEntry) {
        out.add(((org.apache.hadoop.hdfs.protocol.CachePoolEntry) e).getInfo().getPoolName());
      } else if (e instanceof org.apache.hadoop.hdfs.protocol.CacheDirectiveEntry) {
        CacheDirectiveInfo i = ((org.apache.hadoop.hdfs.protocol.CacheDirectiveEntry) e).getInfo();
        out.add(i.getId() + " " + i.getPath() + " " + i.getPool());
      } else {
        out.add(String.valueOf(e));
      }
    }
    return out;
  }

  @Test(timeout = 300_000)
  public void theStandbysRegionFollowsTheActiveAcrossFailovers() throws Exception {
    MiniDFSCluster c = pair.start(1);
    NameNode nn0 = c.getNameNode(0);
    NameNode nn1 = c.getNameNode(1);
    assertTrue(NvmTestAccess.isNvm(nn0) && NvmTestAccess.isNvm(nn1));
    DistributedFileSystem fs = pair.client();

    operations(fs, "/a");
    List<String> onNn0 = served(fs);
    HATestUtil.waitForStandbyToCatchUp(nn0, nn1); // rolls the active's segment, tails it

    c.transitionToStandby(0);
    c.transitionToActive(1);
    assertEquals("nn1, now active, serves what nn0 served", onNn0, served(fs));

    operations(fs, "/b");
    fs.delete(new Path("/a/d/e/f"), true);
    List<String> onNn1 = served(fs);
    HATestUtil.waitForStandbyToCatchUp(nn1, nn0);

    // both restart from their regions, nn0 becomes active; nn0's region already holds every edit
    // the standby applied (a restart only applies the finalized edits after it)
    long applied = nn0.getNamesystem().getFSImage().getLastAppliedTxId();
    c.shutdownNameNode(0);
    assertTrue(
        "the standby's region recorded the last edit it applied, " + applied,
        NamespaceDump.counters(HaPair.region(c, 0)).contains("lastTxId=" + applied));
    c.shutdownNameNode(1);
    c.restartNameNode(0, false);
    c.transitionToActive(0);
    assertEquals("nn0 after a restart from its region", onNn1, served(fs));
    c.restartNameNode(1, false);
    HATestUtil.waitForStandbyToCatchUp(c.getNameNode(0), c.getNameNode(1));
    int inodes = NvmCluster.snapshot(fs).size();

    c.shutdownNameNodes();
    List<String> dump0 = NamespaceDump.lines(HaPair.region(c, 0));
    List<String> dump1 = NamespaceDump.lines(HaPair.region(c, 1));
    assertEquals("the two regions hold the same namespace", dump0, dump1);
    assertEquals("an inode line for every path served", inodes, dump0.size());
  }
}
