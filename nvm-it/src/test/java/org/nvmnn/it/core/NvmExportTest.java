package org.nvmnn.it.core;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.nvmnn.it.core.MigrationTestSupport.cluster;
import static org.nvmnn.it.core.MigrationTestSupport.current;
import static org.nvmnn.it.core.MigrationTestSupport.dfsadmin;
import static org.nvmnn.it.core.MigrationTestSupport.expectStartFailure;
import static org.nvmnn.it.core.MigrationTestSupport.names;
import static org.nvmnn.it.core.MigrationTestSupport.setMode;
import static org.nvmnn.it.core.MigrationTestSupport.tool;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.TreeSet;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.server.namenode.NvmTestAccess;
import org.junit.After;
import org.junit.Test;
import org.nvmnn.it.NvmCluster;

/**
 * Export for rollback: {@code hdfs dfsadmin -saveNamespace} on a running NVM NameNode and {@code
 * NvmMigrationTool export} on a stopped one write a standard fsimage that the stock NameNode (same
 * jar, NVM off) starts on with the same DataNodes: the same namespace, the files read back, the
 * open files go on. An image the NVM NameNode changed the namespace after is refused by the stock
 * NameNode instead of loading as if it were complete.
 */
public class NvmExportTest {
  private MiniDFSCluster cluster;

  @After
  public void tearDown() {
    if (cluster != null) {
      cluster.shutdown();
    }
  }

  @Test
  public void saveNamespaceInNvmModeIsLoadedByTheStockNameNode() throws Exception {
    cluster = cluster(getClass(), "online", true, 2);
    DistributedFileSystem fs = cluster.getFileSystem();
    MigrationNamespace ns = new MigrationNamespace();
    ns.build(fs);
    long maxBlockId = MigrationNamespace.maxBlockId(fs, ns.closedFiles());
    dfsadmin(cluster, "-safemode", "enter");
    dfsadmin(cluster, "-saveNamespace");
    NvmCluster.Snapshot before = NvmCluster.snapshot(fs);
    long txid = NvmTestAccess.mostRecentCheckpointTxId(cluster.getNameNode(0));
    assertImageFiles(txid);

    switchToStockAndCompare(before, txid);
    fs = cluster.getFileSystem();
    ns.assertContents(fs);
    ns.finishOpenFiles(cluster, fs);
    MigrationNamespace.assertNewBlockAbove(fs, maxBlockId);
    // the stock NameNode goes on from there: its own edits after the image replay on restart
    NvmCluster.Snapshot stock = NvmCluster.snapshot(fs);
    cluster.restartNameNode(0, true);
    NvmCluster.assertSameNamespace(
        "stock restart after the rollback", stock, NvmCluster.snapshot(cluster.getFileSystem()));
  }

  @Test
  public void offlineExportOfAStoppedNvmNameNodeIsLoadedByTheStockNameNode() throws Exception {
    cluster = cluster(getClass(), "offline", true, 2);
    DistributedFileSystem fs = cluster.getFileSystem();
    MigrationNamespace ns = new MigrationNamespace();
    ns.build(fs);
    long maxBlockId = MigrationNamespace.maxBlockId(fs, ns.closedFiles());
    NvmCluster.Snapshot before = NvmCluster.snapshot(fs);
    cluster.shutdownNameNode(0);
    byte[] regionBefore = Files.readAllBytes(MigrationTestSupport.region(cluster).toPath());

    MigrationTestSupport.Run run = tool(cluster, "export");
    assertEquals(run.toString(), 0, run.exit);
    assertTrue(run.toString(), run.out.contains("export: wrote ") && run.out.contains("fsimage_"));
    long txid = Long.parseLong(seenTxid());
    assertImageFiles(txid);
    assertTrue(
        "the region's namespace changed",
        MigrationTestSupport.region(cluster).length() == regionBefore.length);

    switchToStockAndCompare(before, txid);
    fs = cluster.getFileSystem();
    ns.assertContents(fs);
    ns.finishOpenFiles(cluster, fs);
    MigrationNamespace.assertNewBlockAbove(fs, maxBlockId);
  }

  @Test
  public void aChangeAfterTheExportMakesTheStockNameNodeRefuseTheImage() throws Exception {
    cluster = cluster(getClass(), "stale", true, 0);
    DistributedFileSystem fs = cluster.getFileSystem();
    fs.mkdirs(new Path("/before-export"));
    dfsadmin(cluster, "-safemode", "enter");
    dfsadmin(cluster, "-saveNamespace");
    long txid = NvmTestAccess.mostRecentCheckpointTxId(cluster.getNameNode(0));
    assertEquals(Long.toString(txid), seenTxid());
    dfsadmin(cluster, "-safemode", "leave");
    fs.mkdirs(new Path("/after-export"));
    assertEquals("seen_txid after a change", Long.toString(txid + 1), seenTxid());
    cluster.shutdownNameNode(0);

    setMode(cluster, false);
    expectStartFailure(cluster, "Gap in transactions", "txid " + (txid + 1));

    // nothing was lost: NVM mode starts with both directories; an export now is complete
    setMode(cluster, true);
    cluster.restartNameNode(0, true);
    assertTrue(NvmTestAccess.isNvm(cluster.getNameNode(0)));
    assertTrue(cluster.getFileSystem().exists(new Path("/after-export")));
    NvmCluster.Snapshot before = NvmCluster.snapshot(cluster.getFileSystem());
    cluster.shutdownNameNode(0);
    MigrationTestSupport.Run run = tool(cluster, "export");
    assertEquals(run.toString(), 0, run.exit);
    setMode(cluster, false);
    cluster.restartNameNode(0, true);
    assertFalse(NvmTestAccess.isNvm(cluster.getNameNode(0)));
    NvmCluster.assertSameNamespace(
        "export after the change", before, NvmCluster.snapshot(cluster.getFileSystem()));
  }

  @Test
  public void afterARollbackTheOldRegionIsRefusedUntilTheNameDirectoryIsImportedAgain()
      throws Exception {
    cluster = cluster(getClass(), "round-trip", true, 0);
    cluster.getFileSystem().mkdirs(new Path("/nvm-era"));
    cluster.shutdownNameNode(0);
    assertEquals(0, tool(cluster, "export").exit);
    setMode(cluster, false);
    cluster.restartNameNode(0, true);
    cluster.getFileSystem().mkdirs(new Path("/stock-era"));
    NvmCluster.Snapshot stock = NvmCluster.snapshot(cluster.getFileSystem());
    cluster.shutdownNameNode(0);

    File region = MigrationTestSupport.region(cluster);
    byte[] old = Files.readAllBytes(region.toPath());
    setMode(cluster, true);
    expectStartFailure(
        cluster,
        "is out of date",
        "written after it by a stock NameNode",
        "NvmMigrationTool import");
    assertArrayEquals("the refused region changed", old, Files.readAllBytes(region.toPath()));

    Files.move(region.toPath(), new File(region.getPath() + ".old").toPath());
    MigrationTestSupport.Run run = tool(cluster, "import");
    assertEquals(run.toString(), 0, run.exit);
    cluster.restartNameNode(0, true);
    assertTrue(NvmTestAccess.isNvm(cluster.getNameNode(0)));
    NvmCluster.assertSameNamespace(
        "NVM -> stock -> NVM", stock, NvmCluster.snapshot(cluster.getFileSystem()));
  }

  @Test
  public void exportIsRefusedOnARunningNameNodeAndOnAStockNameDirectory() throws Exception {
    cluster = cluster(getClass(), "refused", true, 0);
    cluster.getFileSystem().mkdirs(new Path("/d"));
    TreeSet<String> files = names(cluster);
    MigrationTestSupport.Run run = tool(cluster, "export");
    assertEquals(run.toString(), 1, run.exit);
    assertTrue(run.toString(), run.err.contains("lock"));
    assertEquals("files written by a refused export", files, names(cluster));
    cluster.shutdown();

    cluster = cluster(getClass(), "stock-dir", false, 0);
    cluster.shutdownNameNode(0);
    files = names(cluster);
    run = tool(cluster, "export");
    assertEquals(run.toString(), 1, run.exit);
    assertTrue(run.toString(), run.err.contains("there is no region at"));
    assertEquals("files written by a refused export", files, names(cluster));
  }

  /** fsimage_TXID and its .md5 in the name directory, seen_txid = TXID. */
  private void assertImageFiles(long txid) throws Exception {
    String image = String.format("fsimage_%019d", txid);
    assertTrue(image + " in " + names(cluster), names(cluster).contains(image));
    assertTrue(image + ".md5 in " + names(cluster), names(cluster).contains(image + ".md5"));
    assertEquals(Long.toString(txid), seenTxid());
  }

  private String seenTxid() throws Exception {
    return new String(
            Files.readAllBytes(new File(current(cluster), "seen_txid").toPath()),
            StandardCharsets.UTF_8)
        .trim();
  }

  /**
   * Stops NameNode 0, starts it in stock mode (same jar), and compares the namespace with {@code
   * before}.
   */
  private void switchToStockAndCompare(NvmCluster.Snapshot before, long imageTxId)
      throws Exception {
    setMode(cluster, false);
    cluster.restartNameNode(0, true);
    assertFalse("NameNode still in NVM mode", NvmTestAccess.isNvm(cluster.getNameNode(0)));
    assertEquals(
        "the stock NameNode loaded the exported image",
        imageTxId,
        NvmTestAccess.mostRecentCheckpointTxId(cluster.getNameNode(0)));
    NvmCluster.assertSameNamespace(
        "NVM -> exported -> stock", before, NvmCluster.snapshot(cluster.getFileSystem()));
  }
}
