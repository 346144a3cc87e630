package org.nvmnn.it.core;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.apache.hadoop.hdfs.server.namenode.nvm.NvmConfigKeys;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionDamage;
import org.apache.hadoop.util.StringUtils;
import org.junit.After;
import org.junit.Test;

/**
 * {@code hdfs namenode -recover} and {@code -rollback}, which 2.7.3 runs before the NameNode loads
 * a namesystem (issue 24, part 5). In NVM mode, -recover recovers and checks the region and leaves
 * the name directory alone; -rollback is refused with the export procedure and changes nothing.
 * With NVM mode off, the patched jar runs the stock bodies.
 */
public class NvmStartupOptionsTest {
  private MiniDFSCluster cluster;

  @After
  public void tearDown() {
    if (cluster != null) {
      cluster.shutdown();
    }
  }

  private MiniDFSCluster start(String name, boolean nvm) throws IOException {
    String base = NamespaceOpsTestBase.baseDir(NvmStartupOptionsTest.class) + "/" + name;
    FileUtil.fullyDelete(new File(base));
    Configuration conf = NamespaceOpsTestBase.conf(nvm);
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, base);
    cluster = new MiniDFSCluster.Builder(conf).numDataNodes(0).build();
    cluster.waitActive();
    cluster.getFileSystem().mkdirs(new Path("/kept"));
    cluster.getFileSystem().create(new Path("/kept/file"), (short) 1).close();
    return cluster;
  }

  private File currentDir() {
    return new File(cluster.getNameDirs(0).iterator().next().getPath(), "current");
  }

  /** Every file of the name directory's current/ except the region, with its bytes. */
  private Map<String, String> nameDirFiles() throws IOException {
    Map<String, String> m = new TreeMap<>();
    for (File f : currentDir().listFiles()) {
      if (!f.getName().equals(NvmConfigKeys.REGION_DEFAULT_FILE_NAME)) {
        m.put(f.getName(), Arrays.toString(Files.readAllBytes(f.toPath())));
      }
    }
    return m;
  }

  private NameNode run(String... args) throws IOException {
    return NameNode.createNameNode(args, new HdfsConfiguration(cluster.getConfiguration(0)));
  }

  @Test
  public void nvmRecoverRecoversAndChecksTheRegionAndLeavesTheNameDirectory() throws Exception {
    start("recover", true);
    cluster.shutdownNameNode(0);
    Map<String, String> before = nameDirFiles();
    assertNull(run("-recover")); // no prompt: nothing in the name directory is rewritten
    assertEquals("the name directory changed", before, nameDirFiles());
    cluster.restartNameNode(0);
    assertTrue(cluster.getFileSystem().exists(new Path("/kept/file")));
  }

  @Test
  public void nvmRecoverNamesARegionItCannotOpenAndWritesNothing() throws Exception {
    start("recover-corrupt", true);
    cluster.shutdownNameNode(0);
    File region = new File(currentDir(), NvmConfigKeys.REGION_DEFAULT_FILE_NAME);
    RegionDamage.xor(region, 100, 0x5a); // inside the CRC-covered header
    byte[] damaged = Files.readAllBytes(region.toPath());
    Map<String, String> before = nameDirFiles();
    try {
      run("-recover");
      fail("-recover accepted a corrupt region");
    } catch (IOException e) {
      String all = StringUtils.stringifyException(e);
      assertTrue(all, all.contains("cannot be opened"));
      assertTrue(all, all.contains("NVM_ECORRUPT"));
      assertTrue(all, all.contains("NvmRegionTool check"));
    }
    assertEquals(before, nameDirFiles());
    assertTrue(Arrays.equals(damaged, Files.readAllBytes(region.toPath())));
  }

  @Test
  public void nvmRollbackIsRefusedWithTheExportProcedureAndChangesNothing() throws Exception {
    start("rollback", true);
    cluster.shutdownNameNode(0);
    File region = new File(currentDir(), NvmConfigKeys.REGION_DEFAULT_FILE_NAME);
    byte[] regionBefore = Files.readAllBytes(region.toPath());
    Map<String, String> before = nameDirFiles();
    try {
      run("-rollback");
      fail("-rollback ran in NVM mode");
    } catch (IOException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("-rollback is not supported"));
      assertTrue(e.getMessage(), e.getMessage().contains("NvmMigrationTool export"));
    }
    assertEquals(before, nameDirFiles());
    assertTrue(Arrays.equals(regionBefore, Files.readAllBytes(region.toPath())));
    cluster.restartNameNode(0);
    assertTrue(cluster.getFileSystem().exists(new Path("/kept/file")));
  }

  @Test
  public void upgradeRollingUpgradeAndImportCheckpointAreRefusedWithTheirProcedure()
      throws Exception {
    start("options", true);
    cluster.shutdownNameNode(0);
    File region = new File(currentDir(), NvmConfigKeys.REGION_DEFAULT_FILE_NAME);
    byte[] regionBefore = Files.readAllBytes(region.toPath());
    Map<String, String> before = nameDirFiles();
    // the arguments, then what the refusal must say
    String[][] cases = {
      {"-upgrade", "|", "nothing to upgrade", "NvmMigrationTool import"},
      {"-upgradeOnly", "|", "nothing to upgrade", "-finalizeUpgrade"},
      {"-rollingUpgrade", "rollback", "|", "no rolling upgrade is in progress"},
      {"-rollingUpgrade", "started", "|", "no rolling upgrade is in progress"},
      {"-importCheckpoint", "|", "import it", "NvmMigrationTool import"},
    };
    for (String[] c : cases) {
      int bar = Arrays.asList(c).indexOf("|");
      String[] args = Arrays.copyOfRange(c, 0, bar);
      try {
        NameNode nn = run(args);
        if (nn != null) {
          nn.stop();
        }
        fail(String.join(" ", args) + " was accepted");
      } catch (IOException e) {
        String all = StringUtils.stringifyException(e);
        assertTrue(all, all.contains("does not support the startup option " + args[0]));
        assertTrue(all, all.contains("nothing was read or written"));
        for (String expected : Arrays.copyOfRange(c, bar + 1, c.length)) {
          assertTrue(all, all.contains(expected));
        }
      }
      assertEquals(String.join(" ", args) + " changed the name directory", before, nameDirFiles());
    }
    assertTrue(Arrays.equals(regionBefore, Files.readAllBytes(region.toPath())));
  }

  /** NVM mode off: the hooks call the stock bodies the patched jar kept. */
  @Test
  public void stockModeRunsTheStockRollbackAndRecovery() throws Exception {
    start("stock", false);
    cluster.shutdownNameNode(0);
    Configuration conf = new HdfsConfiguration(cluster.getConfiguration(0));
    try {
      NameNode.doRollback(conf, false);
      fail("the stock rollback found a previous state");
    } catch (IOException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("None of the storage directories"));
    }
    // the stock -recover asks first; answering N stops it before it reads anything
    InputStream in = System.in;
    PrintStream err = System.err;
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    System.setIn(new ByteArrayInputStream("N\n".getBytes(StandardCharsets.UTF_8)));
    System.setErr(new PrintStream(buf, true, "UTF-8"));
    try {
      assertNull(run("-recover"));
    } finally {
      System.setIn(in);
      System.setErr(err);
    }
    String printed = new String(buf.toByteArray(), StandardCharsets.UTF_8);
    assertTrue(printed, printed.contains("Metadata Recovery mode"));
  }
}
