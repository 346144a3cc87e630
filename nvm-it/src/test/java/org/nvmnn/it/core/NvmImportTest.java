package org.nvmnn.it.core;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.nvmnn.it.core.MigrationTestSupport.cluster;
import static org.nvmnn.it.core.MigrationTestSupport.names;
import static org.nvmnn.it.core.MigrationTestSupport.region;
import static org.nvmnn.it.core.MigrationTestSupport.setMode;
import static org.nvmnn.it.core.MigrationTestSupport.tool;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.TreeSet;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.server.namenode.NvmTestAccess;
import org.apache.hadoop.hdfs.server.namenode.nvm.NvmConfigKeys;
import org.apache.hadoop.hdfs.server.namenode.nvm.Region;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionDamage;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout;
import org.apache.hadoop.hdfs.server.namenode.nvm.tools.NvmRegionTool;
import org.apache.hadoop.hdfs.server.namenode.nvm.tools.RegionStat;
import org.junit.After;
import org.junit.Test;
import org.nvmnn.it.NvmCluster;

/**
 * {@code NvmMigrationTool import}: a namespace built by the stock NameNode is imported, the NVM
 * NameNode starts on it with the same DataNodes, and everything reads back; what the region cannot
 * hold, a region in the way, a region too small, a running NameNode and a failed verification are
 * each refused and leave no region behind.
 */
public class NvmImportTest {
  private MiniDFSCluster cluster;

  @After
  public void tearDown() {
    NvmTestAccess.beforeImportVerifies(null);
    if (cluster != null) {
      cluster.shutdown();
    }
  }

  @Test
  public void stockNamespaceImportedStartsInNvmModeAndReadsBack() throws Exception {
    cluster = cluster(getClass(), "import", false, 2);
    DistributedFileSystem fs = cluster.getFileSystem();
    MigrationNamespace ns = new MigrationNamespace();
    ns.build(fs);
    NvmCluster.Snapshot before = NvmCluster.snapshot(fs);
    long maxBlockId = MigrationNamespace.maxBlockId(fs, ns.closedFiles());
    cluster.shutdownNameNode(0);
    TreeSet<String> stockFiles = names(cluster);

    MigrationTestSupport.Run run = tool(cluster, "import");
    assertEquals(run.toString(), 0, run.exit);
    assertTrue(
        run.toString(), run.out.contains("import: verified") && run.out.contains("listing sha256"));
    assertTrue(run.toString(), run.out.contains(before.size() + " inodes"));
    // the stock files are left as they were; the region is the only new file
    TreeSet<String> after = names(cluster);
    after.remove(NvmConfigKeys.REGION_DEFAULT_FILE_NAME);
    assertEquals(stockFiles, after);
    assertEquals(
        "the region checker",
        0,
        NvmRegionTool.run(
            new String[] {"check", region(cluster).getPath()},
            new PrintStream(new ByteArrayOutputStream()),
            new PrintStream(new ByteArrayOutputStream())));

    setMode(cluster, true);
    cluster.restartNameNode(0, true);
    assertTrue("NameNode not in NVM mode", NvmTestAccess.isNvm(cluster.getNameNode(0)));
    fs = cluster.getFileSystem();
    NvmCluster.assertSameNamespace("stock -> imported -> NVM", before, NvmCluster.snapshot(fs));
    ns.assertContents(fs);
    ns.finishOpenFiles(cluster, fs);
    MigrationNamespace.assertNewBlockAbove(fs, maxBlockId);

    NvmCluster.Snapshot nvm = NvmCluster.snapshot(fs);
    cluster.restartNameNode(0, true);
    fs = cluster.getFileSystem();
    assertTrue(NvmTestAccess.isNvm(cluster.getNameNode(0)));
    NvmCluster.assertSameNamespace("NVM restart after the import", nvm, NvmCluster.snapshot(fs));
  }

  @Test
  public void refusalsLeaveNoRegionBehind() throws Exception {
    cluster = cluster(getClass(), "refusals", false, 1);
    DistributedFileSystem fs = cluster.getFileSystem();
    fs.mkdirs(new Path("/r/d"));

    // a running NameNode holds the name directory's lock
    MigrationTestSupport.Run run = tool(cluster, "import");
    assertEquals(run.toString(), 1, run.exit);
    assertTrue(run.toString(), run.err.contains("lock"));
    assertNoRegion();

    cluster.shutdownNameNode(0);
    TreeSet<String> stockFiles = names(cluster);
    run = tool(cluster, "import");
    assertEquals(run.toString(), 0, run.exit);
    assertTrue(region(cluster).exists());

    // a region in the way is never overwritten
    byte[] regionBytes = Files.readAllBytes(region(cluster).toPath());
    run = tool(cluster, "import");
    assertEquals(run.toString(), 1, run.exit);
    assertTrue(run.toString(), run.err.contains("a region already exists at " + region(cluster)));
    assertArrayEquals(regionBytes, Files.readAllBytes(region(cluster).toPath()));
    Files.delete(region(cluster).toPath());
    TreeSet<String> left = names(cluster);
    assertEquals(stockFiles, left);
  }

  private void assertNoRegion() {
    assertFalse("region created", region(cluster).exists());
    assertFalse("partial region left", new File(region(cluster).getPath() + ".importing").exists());
  }

  @Test
  public void aGenerationStampPastTheRegionsCounterBitsIsRefused() throws Exception {
    cluster = cluster(getClass(), "counter", false, 1);
    DistributedFileSystem fs = cluster.getFileSystem();
    // the stock NameNode takes any 64-bit stamp; the next block logs the one after it
    cluster.getNamesystem().getBlockIdManager().setGenerationStampV2(1L << 49);
    try (org.apache.hadoop.fs.FSDataOutputStream out = fs.create(new Path("/c/f"))) {
      out.write(1);
    }
    cluster.shutdownNameNode(0);
    MigrationTestSupport.Run run = tool(cluster, "import");
    assertEquals(run.toString(), 1, run.exit);
    assertTrue(
        run.toString(),
        run.err.contains("the generation stamp is " + ((1L << 49) + 1))
            && run.err.contains("48-bit counters (SB_COUNTER_BITS)")
            && run.err.contains("nothing was written"));
    assertNoRegion();
  }

  @Test
  public void tooSmallRegionIsRefusedWithTheSizeItNeeds() throws Exception {
    cluster =
        cluster(
            getClass(),
            "small",
            false,
            0,
            DFSConfigKeys.DFS_NAMENODE_MAX_COMPONENT_LENGTH_KEY + "=1000");
    DistributedFileSystem fs = cluster.getFileSystem();
    // 700 directories with 1000-byte names take 6 pages each: more than a 1 MiB region's 4032 pages
    char[] c = new char[990];
    Arrays.fill(c, 'n');
    String longName = new String(c);
    for (int i = 0; i < 700; i++) {
      fs.mkdirs(new Path("/big/" + longName + String.format("%04d", i)));
    }
    cluster.shutdownNameNode(0);
    cluster.getConfiguration(0).set(NvmConfigKeys.NVM_RESERVED_PAGES_KEY, "0");
    MigrationTestSupport.Run run =
        tool(cluster, "-D", NvmConfigKeys.NVM_REGION_SIZE_KEY + "=1m", "import");
    assertEquals(run.toString(), 1, run.exit);
    assertTrue(run.toString(), run.err.contains("4032 pages") && run.err.contains("needs"));
    assertNoRegion();
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile("to at least (\\d+)m").matcher(run.err);
    assertTrue(run.toString(), m.find());
    java.util.regex.Matcher pages =
        java.util.regex.Pattern.compile("needs (\\d+) pages").matcher(run.err);
    assertTrue(run.toString(), pages.find());
    // the size the refusal names is enough
    run = tool(cluster, "-D", NvmConfigKeys.NVM_REGION_SIZE_KEY + "=" + m.group(1) + "m", "import");
    assertEquals(run.toString(), 0, run.exit);
    try (Region r = Region.openReadOnly(region(cluster))) {
      assertEquals(Long.parseLong(m.group(1)) << 20, r.size());
    }
    // the pages the refusal counted are the pages the written namespace uses
    assertEquals(Long.parseLong(pages.group(1)), RegionStat.run(region(cluster)).pagesUsed());
  }

  @Test
  public void failedVerificationRemovesTheRegion() throws Exception {
    cluster = cluster(getClass(), "verify", false, 0);
    cluster.getFileSystem().mkdirs(new Path("/v/w"));
    cluster.shutdownNameNode(0);
    // damage the written region the way a writer bug would: the root's mtime word
    NvmTestAccess.beforeImportVerifies(
        file -> {
          try {
            long root;
            try (Region r = Region.openReadOnly(file)) {
              root = r.rootPage();
            }
            RegionDamage.putLong(file, root + RegionLayout.IN_MTIME, 42L);
          } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
          }
        });
    MigrationTestSupport.Run run = tool(cluster, "import");
    assertEquals(run.toString(), 1, run.exit);
    assertTrue(run.toString(), run.err.contains("verification failed, the region was removed"));
    assertTrue(
        run.toString(),
        run.err.contains("+ / id=16385 type=dir") && run.err.contains(" mtime=42 "));
    assertNoRegion();
    // nothing else changed: the stock NameNode starts as before
    setMode(cluster, false);
    cluster.restartNameNode(0, true);
    assertTrue(cluster.getFileSystem().exists(new Path("/v/w")));
  }
}
