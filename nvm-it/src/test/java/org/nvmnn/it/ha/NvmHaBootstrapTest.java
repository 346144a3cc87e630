package org.nvmnn.it.ha;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.File;
import java.util.List;
import org.apache.commons.io.FileUtils;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.apache.hadoop.hdfs.server.namenode.NvmTestAccess;
import org.apache.hadoop.hdfs.server.namenode.ha.BootstrapStandby;
import org.apache.hadoop.hdfs.server.namenode.ha.HATestUtil;
import org.apache.hadoop.hdfs.server.namenode.nvm.tools.NamespaceDump;
import org.junit.Rule;
import org.junit.Test;
import org.nvmnn.it.NvmCluster;

/**
 * A NameNode with nothing (its name directories and region wiped) joins a running NVM pair with the
 * stock {@code -bootstrapStandby}: it downloads the active's newest checkpoint (one the standby's
 * checkpointer uploaded, not the image of the format), builds its region from it and the shared
 * journal, tails, takes over, and holds the same namespace as the active, a snapshot's entries
 * included (the import writes the snapshot records).
 */
public class NvmHaBootstrapTest {
  @Rule public final HaPair pair = new HaPair("bootstrap");

  private static long newestImage(File dir) {
    long newest = -1;
    String[] names = new File(dir, "current").list();
    for (String n : names == null ? new String[0] : names) {
      if (n.matches("fsimage_\\d+")) {
        newest = Math.max(newest, Long.parseLong(n.substring("fsimage_".length())));
      }
    }
    return newest;
  }

  /** The entries of a directory: name, type and modification time each. */
  private static String children(DistributedFileSystem fs, String dir) throws Exception {
    StringBuilder b = new StringBuilder();
    for (org.apache.hadoop.fs.FileStatus s : fs.listStatus(new Path(dir))) {
      b.append(s.getPath().getName())
          .append(s.isDirectory() ? " d " : " f ")
          .append(s.getModificationTime())
          .append('\n');
    }
    return b.toString();
  }

  @Test(timeout = 300_000)
  public void aWipedNameNodeBootstrapsFromACheckpointAndTakesOver() throws Exception {
    Configuration conf = pair.conf();
    conf.setInt(DFSConfigKeys.DFS_NAMENODE_CHECKPOINT_TXNS_KEY, 20);
    conf.setInt(DFSConfigKeys.DFS_NAMENODE_CHECKPOINT_CHECK_PERIOD_KEY, 1);
    MiniDFSCluster c = pair.start(0);
    DistributedFileSystem fs = pair.client();
    for (int i = 0; i < 60; i++) {
      fs.mkdirs(new Path("/d" + (i % 7) + "/e" + i));
      if (i == 2) {
        // a snapshot and a change under it, in the checkpoint: the region built from it holds
        // them (NvmImport writes the snapshot records)
        fs.allowSnapshot(new Path("/d0"));
        fs.createSnapshot(new Path("/d0"), "s1");
        fs.delete(new Path("/d0/e0"), true);
      }
    }
    // 2.7.3's replay of OP_CREATE_SNAPSHOT sets /d0's mtime from the replaying NameNode's clock,
    // and later edits only raise it, so the standby's checkpoint carries its own: set it for all
    fs.setTimes(new Path("/d0"), 1234567890123L, -1);
    // the standby checkpoints every 20 transactions and uploads the image to the active
    long deadline = System.currentTimeMillis() + 60_000;
    while (newestImage(HaPair.nameDir(c, 0)) <= 0 && System.currentTimeMillis() < deadline) {
      HATestUtil.waitForStandbyToCatchUp(c.getNameNode(0), c.getNameNode(1));
      Thread.sleep(500);
    }
    long image = newestImage(HaPair.nameDir(c, 0));
    assertTrue("the standby's checkpoint reached the active: fsimage_" + image, image > 0);
    for (int i = 0; i < 10; i++) {
      fs.mkdirs(new Path("/after-checkpoint/" + i));
    }

    c.shutdownNameNode(1);
    for (java.net.URI u : c.getNameDirs(1)) {
      FileUtils.deleteDirectory(new File(u));
    }
    assertEquals(
        "bootstrapStandby",
        0,
        BootstrapStandby.run(new String[] {"-force", "-nonInteractive"}, c.getConfiguration(1)));
    assertTrue(
        "the active's checkpoint was downloaded", newestImage(HaPair.nameDir(c, 1)) == image);

    c.restartNameNode(1, false); // no region: built from fsimage_<image> and the journal
    NameNode nn1 = c.getNameNode(1);
    assertTrue(NvmTestAccess.isNvm(nn1));
    HATestUtil.waitForStandbyToCatchUp(c.getNameNode(0), nn1);
    NvmCluster.Snapshot onActive = NvmCluster.snapshot(fs);
    String s1OnActive = children(fs, "/d0/.snapshot/s1");
    assertTrue(s1OnActive, s1OnActive.contains("e0 "));

    c.transitionToStandby(0);
    c.transitionToActive(1);
    NvmCluster.assertSameNamespace(
        "the bootstrapped NameNode serves the namespace", onActive, NvmCluster.snapshot(fs));
    assertEquals("the snapshot's entries", s1OnActive, children(fs, "/d0/.snapshot/s1"));
    fs.mkdirs(new Path("/on-nn1"));
    HATestUtil.waitForStandbyToCatchUp(nn1, c.getNameNode(0));
    int inodes = NvmCluster.snapshot(fs).size();

    c.shutdownNameNodes();
    List<String> dump1 =
        NamespaceDump.lines(new File(HaPair.nameDir(c, 1), "current/nvm-namespace.region"));
    assertEquals(
        NamespaceDump.lines(new File(HaPair.nameDir(c, 0), "current/nvm-namespace.region")), dump1);
    // one more page than the current tree has inodes: /d0/e0, which only s1 holds; the two regions'
    // dumps are equal line for line, so the import put its page where the NameNode that took the
    // delete left it
    assertEquals(inodes + 1, dump1.size());
  }
}
