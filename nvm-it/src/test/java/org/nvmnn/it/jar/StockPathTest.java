package org.nvmnn.it.jar;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.server.namenode.FSEditLog;
import org.apache.hadoop.hdfs.server.namenode.FSImage;
import org.apache.hadoop.hdfs.server.namenode.NvmHooks;
import org.apache.hadoop.hdfs.server.namenode.nvm.NvmConfigKeys;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.Timeout;
import org.nvmnn.it.NvmCluster;

/**
 * With NVM disabled the drop-in jar is the stock NameNode: MiniDFSCluster goes through both hooks,
 * gets the stock RPC server, FSImage and FSEditLog, and its namespace survives a restart through
 * the edit log.
 */
public class StockPathTest {
  /**
   * A NameNode that never becomes active (DataNodes cannot register) would otherwise hang
   * waitActive.
   */
  @ClassRule public static final Timeout TIMEOUT = Timeout.seconds(180);

  private static final String STOCK_RPC_SERVER =
      "org.apache.hadoop.hdfs.server.namenode.NameNodeRpcServer";

  @Test
  public void nvmDisabledGoesThroughTheHooksAndBehavesLikeStock() throws Exception {
    Configuration conf = new HdfsConfiguration();
    conf.setBoolean(NvmConfigKeys.NVM_ENABLED_KEY, false);
    int loads = NvmHooks.loadNamesystemCalls();
    int rpcs = NvmHooks.createRpcServerCalls();

    MiniDFSCluster cluster = NvmCluster.builder(conf, 1).build();
    try {
      cluster.waitActive();
      assertEquals("loadNamesystem hook calls", loads + 1, NvmHooks.loadNamesystemCalls());
      assertEquals("createRpcServer hook calls", rpcs + 1, NvmHooks.createRpcServerCalls());
      assertStockParts(cluster);

      DistributedFileSystem fs = cluster.getFileSystem();
      byte[] data = "stock path through the NVM hooks\n".getBytes(StandardCharsets.UTF_8);
      assertTrue(fs.mkdirs(new Path("/a/b/c")));
      write(fs, new Path("/a/b/f1"), data);
      write(fs, new Path("/a/f2"), data);
      assertTrue(fs.rename(new Path("/a/f2"), new Path("/a/b/c/f2")));
      assertTrue(fs.mkdirs(new Path("/gone/x")));
      assertTrue(fs.delete(new Path("/gone"), true));
      fs.setPermission(
          new Path("/a/b/f1"), new org.apache.hadoop.fs.permission.FsPermission((short) 0600));
      // The stock RPC server is in charge: an operation NVM mode refuses works here.
      fs.setXAttr(new Path("/a/b/f1"), "user.k", "v".getBytes(StandardCharsets.UTF_8));
      assertArrayEquals(data, read(fs, new Path("/a/b/c/f2")));
      assertFalse(fs.exists(new Path("/a/f2")));
      assertFalse(fs.exists(new Path("/gone")));

      NvmCluster.Snapshot before = NvmCluster.snapshot(fs);
      assertTrue(
          before
              .paths()
              .containsAll(Arrays.asList("/a", "/a/b", "/a/b/c", "/a/b/f1", "/a/b/c/f2")));
      assertTrue(editLogSegmentsExist(cluster));

      cluster.restartNameNode(true);
      assertEquals(
          "loadNamesystem hook calls after restart", loads + 2, NvmHooks.loadNamesystemCalls());
      assertEquals(
          "createRpcServer hook calls after restart", rpcs + 2, NvmHooks.createRpcServerCalls());
      assertStockParts(cluster);

      fs = cluster.getFileSystem();
      NvmCluster.assertSameNamespace("after restartNameNode", before, NvmCluster.snapshot(fs));
      assertArrayEquals(data, read(fs, new Path("/a/b/f1")));
      assertArrayEquals(data, read(fs, new Path("/a/b/c/f2")));
      assertArrayEquals(
          "v".getBytes(StandardCharsets.UTF_8), fs.getXAttr(new Path("/a/b/f1"), "user.k"));
    } finally {
      cluster.shutdown();
    }
  }

  private static void assertStockParts(MiniDFSCluster cluster) {
    assertEquals(STOCK_RPC_SERVER, cluster.getNameNodeRpc().getClass().getName());
    assertEquals(FSImage.class, cluster.getNamesystem().getFSImage().getClass());
    assertEquals(FSEditLog.class, cluster.getNamesystem().getEditLog().getClass());
  }

  /** The stock journal wrote edit-log segments into the name directory. */
  private static boolean editLogSegmentsExist(MiniDFSCluster cluster) {
    for (URI u : cluster.getNameDirs(0)) {
      String[] names = new File(new File(u), "current").list();
      if (names != null) {
        for (String n : names) {
          if (n.startsWith("edits_")) {
            return true;
          }
        }
      }
    }
    return false;
  }

  private static void write(DistributedFileSystem fs, Path p, byte[] data) throws Exception {
    try (FSDataOutputStream out = fs.create(p)) {
      out.write(data);
    }
  }

  private static byte[] read(DistributedFileSystem fs, Path p) throws Exception {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    try (InputStream in = fs.open(p)) {
      byte[] buf = new byte[4096];
      int n;
      while ((n = in.read(buf)) > 0) {
        b.write(buf, 0, n);
      }
    }
    return b.toByteArray();
  }
}
