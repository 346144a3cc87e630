package org.nvmnn.it.core;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.server.namenode.nvm.NvmConfigKeys;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionDamage;
import org.apache.hadoop.util.StringUtils;
import org.junit.After;
import org.junit.Test;

/**
 * The NVM NameNode never starts over a region it cannot trust and never starts empty over an
 * existing namespace: a region of another cluster, a corrupt region, and a name directory a stock
 * NameNode already used (no region) are each refused with a message, and the region file is left
 * byte for byte unchanged.
 */
public class NvmStartupRefusalTest {
  private MiniDFSCluster a;
  private MiniDFSCluster b;

  @After
  public void tearDown() {
    if (a != null) {
      a.shutdown();
    }
    if (b != null) {
      b.shutdown();
    }
  }

  private static Configuration conf(String name, boolean nvm) {
    Configuration conf = NamespaceOpsTestBase.conf(nvm);
    conf.set(
        MiniDFSCluster.HDFS_MINIDFS_BASEDIR,
        NamespaceOpsTestBase.baseDir(NvmStartupRefusalTest.class) + "/" + name);
    return conf;
  }

  private static File region(MiniDFSCluster c) {
    return new File(
        c.getNameDirs(0).iterator().next().getPath(),
        "current/" + NvmConfigKeys.REGION_DEFAULT_FILE_NAME);
  }

  /**
   * Restarts the NameNode of {@code c} and expects a failure whose message contains {@code
   * expected}.
   */
  private static void expectRefusal(MiniDFSCluster c, String... expected) {
    try {
      c.restartNameNode(false);
      fail("the NameNode started");
    } catch (Throwable t) {
      String all = StringUtils.stringifyException(t);
      for (String e : expected) {
        assertTrue("expected '" + e + "' in:\n" + all, all.contains(e));
      }
    }
  }

  @Test
  public void regionOfAnotherClusterIsRefusedAndLeftUnchanged() throws Exception {
    a = new MiniDFSCluster.Builder(conf("a", true)).numDataNodes(0).build();
    a.getFileSystem().mkdirs(new Path("/only-in-a"));
    b = new MiniDFSCluster.Builder(conf("b", true)).numDataNodes(0).build();
    File ra = region(a);
    File rb = region(b);
    a.shutdownNameNodes();
    b.shutdownNameNodes();
    Files.copy(ra.toPath(), rb.toPath(), StandardCopyOption.REPLACE_EXISTING);
    byte[] before = Files.readAllBytes(rb.toPath());
    expectRefusal(b, "belongs to another namespace", "region has", "VERSION has");
    assertArrayEquals("region file changed", before, Files.readAllBytes(rb.toPath()));
  }

  @Test
  public void corruptRegionIsRefusedAndLeftUnchanged() throws Exception {
    a = new MiniDFSCluster.Builder(conf("corrupt", true)).numDataNodes(0).build();
    a.getFileSystem().mkdirs(new Path("/d"));
    File r = region(a);
    a.shutdownNameNodes();
    RegionDamage.xor(r, 100, 0x5a); // inside the CRC-covered header (cluster id)
    byte[] before = Files.readAllBytes(r.toPath());
    expectRefusal(a, "NVM_ECORRUPT");
    assertArrayEquals("region file changed", before, Files.readAllBytes(r.toPath()));
  }

  @Test
  public void nvmOnNameDirUsedByStockNameNodeIsRefused() throws Exception {
    a = new MiniDFSCluster.Builder(conf("stock", false)).numDataNodes(0).build();
    a.getFileSystem().mkdirs(new Path("/stock-data"));
    a.getConfiguration(0).setBoolean(NvmConfigKeys.NVM_ENABLED_KEY, true);
    NvmClusterConf.nvm(a.getConfiguration(0));
    expectRefusal(
        a,
        "already holds a namespace",
        "hdfs org.apache.hadoop.hdfs.server.namenode.NvmMigrationTool import",
        "docs/migration.md",
        NvmConfigKeys.NVM_ENABLED_KEY + "=false");
    assertTrue("a region was created", !region(a).exists());
    // the stock NameNode still starts on it
    a.getConfiguration(0).setBoolean(NvmConfigKeys.NVM_ENABLED_KEY, false);
    a.restartNameNode(true);
    assertTrue(a.getFileSystem().exists(new Path("/stock-data")));
  }

  @Test
  public void formattedNameDirGetsAFreshRegionRestartsFromItAndWritesNoEditLog() throws Exception {
    a = new MiniDFSCluster.Builder(conf("fresh", true)).numDataNodes(0).build();
    File r = region(a);
    assertTrue("region created at format+start", r.exists());
    for (int i = 0; i < 50; i++) {
      a.getFileSystem().mkdirs(new Path("/x/y" + i));
    }
    a.restartNameNode(true);
    assertTrue(a.getFileSystem().exists(new Path("/x/y49")));
    assertEquals(r.length(), Files.size(r.toPath()));
    // no journal: neither name nor edits directories got an edit-log segment
    for (java.net.URI u : a.getNameEditsDirs(0)) {
      String[] names = new File(new File(u), "current").list();
      for (String n : names) {
        assertTrue("edit log written: " + n + " in " + u, !n.startsWith("edits_"));
      }
    }
  }

  /** Small helper so the test reads well. */
  static final class NvmClusterConf {
    static void nvm(Configuration c) {
      org.nvmnn.it.NvmCluster.nvmConf(c);
    }
  }
}
