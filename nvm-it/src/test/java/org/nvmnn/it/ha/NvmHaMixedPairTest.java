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
 * region; each failover serves the namespace the other NameNode served, every snapshot's tree and
 * diff report included; then the NVM NameNode is the active again and the stock one tails it.
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
    // snapshots: the standby replays OP_CREATE_SNAPSHOT / OP_RENAME_SNAPSHOT / OP_DELETE_SNAPSHOT
    // and every op under them with 2.7.3's code, and persists the diffs that made (or tails them
    // into a stock NameNode's memory)
    Path a = new Path(root + "/a");
    fs.createSnapshot(a, "s1");
    fs.create(new Path(root + "/a/new"), (short) 1).close();
    fs.rename(new Path(root + "/a/b/g"), new Path(root + "/a/g2")); // a WithName in s1
    fs.setPermission(
        new Path(root + "/a/b"), new org.apache.hadoop.fs.permission.FsPermission((short) 0750));
    fs.createSnapshot(a, "s2");
    fs.delete(new Path(root + "/a/b"), true);
    fs.renameSnapshot(a, "s2", "t2");
    fs.createSnapshot(a, "s3");
    fs.deleteSnapshot(a, "s1");
    // a NameNode replaying OP_CREATE_SNAPSHOT sets the directory's mtime from its own clock (the op
    // carries no time; so do two stock NameNodes): an explicit time, which OP_TIMES carries
    fs.setTimes(a, 1234567890000L, -1);
  }

  /** Every snapshot's tree under the snapshottable directories, and the diff reports. */
  private static String snapshots(DistributedFileSystem fs) throws Exception {
    StringBuilder b = new StringBuilder();
    org.apache.hadoop.hdfs.protocol.SnapshottableDirectoryStatus[] dirs =
        fs.getSnapshottableDirListing();
    for (org.apache.hadoop.hdfs.protocol.SnapshottableDirectoryStatus d :
        dirs == null ? new org.apache.hadoop.hdfs.protocol.SnapshottableDirectoryStatus[0] : dirs) {
      Path root = d.getFullPath();
      String last = null;
      for (org.apache.hadoop.fs.FileStatus s : fs.listStatus(new Path(root, ".snapshot"))) {
        String name = s.getPath().getName();
        b.append(root).append("@").append(name).append(":");
        org.apache.hadoop.fs.RemoteIterator<org.apache.hadoop.fs.LocatedFileStatus> it =
            fs.listFiles(s.getPath(), true);
        while (it.hasNext()) {
          org.apache.hadoop.fs.LocatedFileStatus f = it.next();
          b.append(' ').append(f.getPath().toUri().getPath()).append('/').append(f.getPermission());
        }
        b.append('\n');
        if (last != null) {
          b.append(fs.getSnapshotDiffReport(root, last, name)).append('\n');
        }
        last = name;
      }
    }
    return b.toString();
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
    String snapsOnNvm = snapshots(fs);
    assertTrue(snapsOnNvm, snapsOnNvm.contains("/nvm-active-1/a@t2:"));
    assertEquals("[/nvm-active-1/a 65536]", dirsOnNvm);

    c.transitionToStandby(0);
    c.transitionToActive(1); // NVM active -> stock active
    NvmCluster.assertSameNamespace("stock active after NVM", onNvm, NvmCluster.snapshot(fs));
    assertEquals("stock active after NVM", dirsOnNvm, NvmCluster.snapshottableDirs(fs).toString());
    assertEquals("stock active after NVM", snapsOnNvm, snapshots(fs));
    ops(fs, "/stock-active");
    HATestUtil.waitForStandbyToCatchUp(c.getNameNode(1), c.getNameNode(0)); // NVM standby tails
    NvmCluster.Snapshot onStock = NvmCluster.snapshot(fs);
    String dirsOnStock = NvmCluster.snapshottableDirs(fs).toString();
    String snapsOnStock = snapshots(fs);

    c.transitionToStandby(1);
    c.transitionToActive(0); // stock active -> NVM active
    NvmCluster.assertSameNamespace("NVM active after stock", onStock, NvmCluster.snapshot(fs));
    assertEquals(
        "NVM active after stock", dirsOnStock, NvmCluster.snapshottableDirs(fs).toString());
    assertEquals("NVM active after stock", snapsOnStock, snapshots(fs));
    ops(fs, "/nvm-active-2");
    NvmCluster.Snapshot onNvm2 = NvmCluster.snapshot(fs);
    String dirsOnNvm2 = NvmCluster.snapshottableDirs(fs).toString();
    String snapsOnNvm2 = snapshots(fs);

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
    assertEquals("NVM NameNode restarted from its region", snapsOnNvm2, snapshots(fs));
  }
}
