package org.nvmnn.it.core;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.apache.hadoop.hdfs.server.namenode.SecondaryNameNode;
import org.apache.hadoop.hdfs.server.namenode.nvm.NvmConfigKeys;
import org.apache.hadoop.hdfs.tools.DFSAdmin;
import org.apache.hadoop.util.StringUtils;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;

/**
 * Checkpoint tooling against an NVM NameNode (issue 24, part 4): the SecondaryNameNode,
 * CheckpointNode and BackupNode are refused at once with one message that says what to do, and
 * {@code dfsadmin -fetchImage} hands out an fsimage only while it holds the whole namespace.
 */
public class CheckpointToolingTest {
  /** The sentence every checkpointer refusal carries (NvmStartupOptions.CHECKPOINTER_REFUSED). */
  static final String NOT_USED = "is not used with an NVM NameNode";

  private MiniDFSCluster cluster;
  private String base;

  @Before
  public void setUp() throws Exception {
    base = NamespaceOpsTestBase.baseDir(CheckpointToolingTest.class);
    FileUtil.fullyDelete(new File(base));
    Configuration conf = NamespaceOpsTestBase.conf(true);
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, base + "/cluster");
    cluster = new MiniDFSCluster.Builder(conf).numDataNodes(0).build();
    cluster.waitActive();
    cluster.getFileSystem().mkdirs(new Path("/before-any-checkpoint"));
  }

  @After
  public void tearDown() {
    if (cluster != null) {
      cluster.shutdown();
    }
  }

  /** A copy of the cluster's configuration for another daemon; {@code nvm} as its NVM switch. */
  private Configuration daemonConf(String name, boolean nvm) {
    Configuration c = new HdfsConfiguration(cluster.getConfiguration(0));
    c.setBoolean(NvmConfigKeys.NVM_ENABLED_KEY, nvm);
    String dir = new File(base, name).toURI().toString();
    c.set(DFSConfigKeys.DFS_NAMENODE_CHECKPOINT_DIR_KEY, dir);
    c.set(DFSConfigKeys.DFS_NAMENODE_CHECKPOINT_EDITS_DIR_KEY, dir);
    c.set(DFSConfigKeys.DFS_NAMENODE_SECONDARY_HTTP_ADDRESS_KEY, "127.0.0.1:0");
    return c;
  }

  @Test
  public void secondaryNameNodeWithNvmConfigurationRefusesToStart() throws Exception {
    try {
      new SecondaryNameNode(daemonConf("snn", true)).shutdown();
      fail("the SecondaryNameNode started");
    } catch (java.io.IOException e) {
      assertTrue(e.getMessage(), e.getMessage().startsWith("The SecondaryNameNode " + NOT_USED));
      assertTrue(e.getMessage(), e.getMessage().contains("-saveNamespace"));
    }
    assertTrue("it created its checkpoint directory", !new File(base, "snn").exists());
  }

  /**
   * A SecondaryNameNode that does not know (NVM mode off in its configuration, or a stock jar)
   * starts, and its first checkpoint gets the same message from the NameNode, which rolled nothing.
   */
  @Test
  public void secondaryNameNodeWithoutNvmConfigurationIsRefusedByTheNameNode() throws Exception {
    long txid = cluster.getNameNode().getFSImage().getEditLog().getLastWrittenTxId();
    SecondaryNameNode snn = new SecondaryNameNode(daemonConf("snn-stock", false));
    try {
      snn.doCheckpoint();
      fail("the checkpoint succeeded");
    } catch (java.io.IOException e) {
      String all = StringUtils.stringifyException(e);
      assertTrue(all, all.contains("NvmUnsupportedOperationException"));
      assertTrue(all, all.contains("rollEditLog refused: a SecondaryNameNode, CheckpointNode or"));
      assertTrue(all, all.contains(NOT_USED));
    } finally {
      snn.shutdown();
    }
    assertEquals(
        "the refused roll moved the transaction id",
        txid,
        cluster.getNameNode().getFSImage().getEditLog().getLastWrittenTxId());
  }

  @Test
  public void checkpointNodeAndBackupNodeAreRefusedWhenTheyRegister() throws Exception {
    for (String option : Arrays.asList("-checkpoint", "-backup")) {
      Configuration c = daemonConf("bn" + option, false);
      File bnDir = new File(base, "bn" + option);
      assertTrue(bnDir.mkdirs()); // a BackupNode formats an empty directory, not a missing one
      String dir = bnDir.toURI().toString();
      c.set(DFSConfigKeys.DFS_NAMENODE_NAME_DIR_KEY, dir);
      c.set(DFSConfigKeys.DFS_NAMENODE_EDITS_DIR_KEY, dir);
      c.set(DFSConfigKeys.DFS_NAMENODE_BACKUP_ADDRESS_KEY, "127.0.0.1:0");
      c.set(DFSConfigKeys.DFS_NAMENODE_BACKUP_HTTP_ADDRESS_KEY, "127.0.0.1:0");
      c.set(DFSConfigKeys.DFS_NAMENODE_BACKUP_SERVICE_RPC_ADDRESS_KEY, "127.0.0.1:0");
      try {
        NameNode bn = NameNode.createNameNode(new String[] {option}, c);
        bn.stop();
        fail(option + " started");
      } catch (java.io.IOException e) {
        String all = StringUtils.stringifyException(e);
        System.out.println(option + " refused: " + e);
        assertTrue(all, all.contains("registerSubordinateNamenode refused"));
        assertTrue(all, all.contains(NOT_USED));
      }
    }
  }

  /** {@code dfsadmin -fetchImage <dir>}: its exit code, and what it printed. */
  private int fetchImage(File dir, StringBuilder printed) throws Exception {
    PrintStream err = System.err;
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    System.setErr(new PrintStream(buf, true, "UTF-8"));
    try {
      return new DFSAdmin(cluster.getConfiguration(0))
          .run(new String[] {"-fetchImage", dir.getAbsolutePath()});
    } finally {
      System.setErr(err);
      printed.append(new String(buf.toByteArray(), StandardCharsets.UTF_8));
      System.out.println("dfsadmin -fetchImage printed: " + printed);
    }
  }

  private static String[] images(File dir) {
    String[] names = dir.list((d, n) -> n.startsWith("fsimage_") && !n.endsWith(".md5"));
    return names == null ? new String[0] : names;
  }

  @Test
  public void fetchImageServesAnFsimageOnlyWhileItHoldsTheWholeNamespace() throws Exception {
    File out = new File(base, "fetched");
    out.mkdirs();
    StringBuilder printed = new StringBuilder();
    assertNotEquals("fetched a stale image", 0, fetchImage(out, printed));
    assertTrue(printed.toString(), printed.toString().contains("no current fsimage to serve"));
    assertEquals(0, images(out).length);

    DFSAdmin admin = new DFSAdmin(cluster.getConfiguration(0));
    assertEquals(0, admin.run(new String[] {"-safemode", "enter"}));
    assertEquals(0, admin.run(new String[] {"-saveNamespace"}));
    printed.setLength(0);
    assertEquals(printed.toString(), 0, fetchImage(out, printed));
    assertEquals(Arrays.toString(images(out)), 1, images(out).length);
    assertEquals(0, admin.run(new String[] {"-safemode", "leave"}));

    cluster.getFileSystem().mkdirs(new Path("/after-the-save"));
    File again = new File(base, "fetched-again");
    again.mkdirs();
    printed.setLength(0);
    assertNotEquals("fetched an image older than the namespace", 0, fetchImage(again, printed));
    assertTrue(printed.toString(), printed.toString().contains("no current fsimage to serve"));
  }
}
