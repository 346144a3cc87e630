package org.nvmnn.it.ha;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.server.namenode.NvmTestAccess;
import org.apache.hadoop.hdfs.server.namenode.ha.HATestUtil;
import org.apache.hadoop.hdfs.server.namenode.nvm.NvmConfigKeys;
import org.junit.Rule;
import org.junit.Test;
import org.nvmnn.it.NvmCluster;

/**
 * An NVM NameNode and a stock 2.7.3 NameNode as one HA pair, in both roles: how a cluster adopts
 * the jar and rolls back without downtime (docs/ha.md §5). The second NameNode is switched to the
 * stock code path and restarted; the stock active's ops are tailed by the NVM standby into its
 * region; each failover serves the namespace the other NameNode served; then the NVM NameNode is
 * the active again and the stock one tails it.
 */
public class NvmHaMixedPairTest {
  @Rule public final HaPair pair = new HaPair("mixed");

  private static void ops(DistributedFileSystem fs, String root) throws Exception {
    fs.mkdirs(new Path(root + "/a/b"));
    fs.create(new Path(root + "/a/f"), (short) 1).close();
    fs.rename(new Path(root + "/a/f"), new Path(root + "/a/b/g"));
    fs.setPermission(
        new Path(root + "/a"), new org.apache.hadoop.fs.permission.FsPermission((short) 0700));
    fs.mkdirs(new Path(root + "/gone"));
    fs.delete(new Path(root + "/gone"), true);
    fs.allowSnapshot(new Path(root + "/a")); // OP_ALLOW_SNAPSHOT: a word of the directory page
    fs.mkdirs(new Path(root + "/s"));
    fs.allowSnapshot(new Path(root + "/s"));
    fs.disallowSnapshot(new Path(root + "/s"));
  }

  @Test(timeout = 300_000)
  public void nvmAndStockNameNodesTakeOverFromEachOther() throws Exception {
    MiniDFSCluster c = pair.start(0);
    DistributedFileSystem fs = pair.client();
    ops(fs, "/nvm-active-1");

    // nn1 goes stock (the adoption's reverse: rolling back one NameNode)
    c.getConfiguration(1).setBoolean(NvmConfigKeys.NVM_ENABLED_KEY, false);
    c.restartNameNode(1, false);
    assertTrue(NvmTestAccess.isNvm(c.getNameNode(0)));
    assertFalse(NvmTestAccess.isNvm(c.getNameNode(1)));
    HATestUtil.waitForStandbyToCatchUp(c.getNameNode(0), c.getNameNode(1));
    NvmCluster.Snapshot onNvm = NvmCluster.snapshot(fs);
    String dirsOnNvm = NvmCluster.snapshottableDirs(fs).toString();
    assertEquals("[/nvm-active-1/a 65536]", dirsOnNvm);

    c.transitionToStandby(0);
    c.transitionToActive(1); // NVM active -> stock active
    NvmCluster.assertSameNamespace("stock active after NVM", onNvm, NvmCluster.snapshot(fs));
    assertEquals("stock active after NVM", dirsOnNvm, NvmCluster.snapshottableDirs(fs).toString());
    ops(fs, "/stock-active");
    HATestUtil.waitForStandbyToCatchUp(c.getNameNode(1), c.getNameNode(0)); // NVM standby tails
    NvmCluster.Snapshot onStock = NvmCluster.snapshot(fs);
    String dirsOnStock = NvmCluster.snapshottableDirs(fs).toString();

    c.transitionToStandby(1);
    c.transitionToActive(0); // stock active -> NVM active
    NvmCluster.assertSameNamespace("NVM active after stock", onStock, NvmCluster.snapshot(fs));
    assertEquals(
        "NVM active after stock", dirsOnStock, NvmCluster.snapshottableDirs(fs).toString());
    ops(fs, "/nvm-active-2");
    NvmCluster.Snapshot onNvm2 = NvmCluster.snapshot(fs);
    String dirsOnNvm2 = NvmCluster.snapshottableDirs(fs).toString();

    // the NVM NameNode restarts from its region alone: what it tailed from the stock active is
    // there
    HATestUtil.waitForStandbyToCatchUp(c.getNameNode(0), c.getNameNode(1));
    c.transitionToStandby(0);
    c.restartNameNode(0, false);
    c.transitionToActive(0);
    NvmCluster.assertSameNamespace(
        "NVM NameNode restarted from its region", onNvm2, NvmCluster.snapshot(fs));
    assertEquals(
        "[/nvm-active-1/a 65536, /nvm-active-2/a 65536, /stock-active/a 65536]", dirsOnNvm2);
    assertEquals(
        "NVM NameNode restarted from its region",
        dirsOnNvm2,
        NvmCluster.snapshottableDirs(fs).toString());
  }
}
