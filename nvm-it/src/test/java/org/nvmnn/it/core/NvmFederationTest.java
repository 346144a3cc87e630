package org.nvmnn.it.core;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.MiniDFSNNTopology;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.apache.hadoop.hdfs.server.namenode.NvmTestAccess;
import org.apache.hadoop.hdfs.server.namenode.nvm.NvmConfigKeys;
import org.apache.hadoop.hdfs.server.namenode.nvm.Region;
import org.junit.After;
import org.junit.Test;
import org.nvmnn.it.NvmCluster;
import org.nvmnn.it.NvmCluster.Snapshot;

/**
 * Federation in NVM mode: two nameservices, each NameNode with its own region, two DataNodes
 * serving both block pools. ns2's region is set with the per-nameservice key {@code
 * dfs.namenode.nvm.region.path.ns2}; ns1 uses the default (its own first name directory). Both
 * namespaces are used, each NameNode is restarted, and after every restart both namespaces are
 * intact, separate and their blocks readable. A NameNode pointed at the other's region is refused
 * by the region's lock while the owner keeps serving.
 */
public class NvmFederationTest {
  private MiniDFSCluster cluster;

  @After
  public void tearDown() {
    if (cluster != null) {
      cluster.shutdown();
    }
  }

  private static byte[] content(int ns, int i) {
    byte[] b = new byte[3 * 1024 + i];
    Arrays.fill(b, (byte) ('a' + ns));
    byte[] tag = ("nn" + ns + " file " + i).getBytes(StandardCharsets.UTF_8);
    System.arraycopy(tag, 0, b, 0, tag.length);
    return b;
  }

  private static void write(DistributedFileSystem fs, Path p, byte[] data) throws IOException {
    try (FSDataOutputStream out = fs.create(p, (short) 2)) {
      out.write(data);
    }
  }

  private static void assertReadable(DistributedFileSystem fs, int ns, int files)
      throws IOException {
    for (int i = 0; i < files; i++) {
      byte[] want = content(ns, i);
      byte[] got = new byte[want.length];
      try (FSDataInputStream in = fs.open(new Path("/nn" + ns + "/data/f" + i))) {
        in.readFully(got);
        assertEquals("end of file", -1, in.read());
      }
      assertArrayEquals("nn" + ns + " f" + i, want, got);
    }
  }

  private void assertBothIntact(Snapshot s0, Snapshot s1, int files) throws IOException {
    cluster.waitActive();
    DistributedFileSystem fs0 = cluster.getFileSystem(0), fs1 = cluster.getFileSystem(1);
    NvmCluster.assertSameNamespace("nn0 (ns1)", s0, NvmCluster.snapshot(fs0));
    NvmCluster.assertSameNamespace("nn1 (ns2)", s1, NvmCluster.snapshot(fs1));
    assertReadable(fs0, 0, files);
    assertReadable(fs1, 1, files);
    assertFalse("nn1's tree is not in nn0's namespace", fs0.exists(new Path("/nn1")));
    assertFalse("nn0's tree is not in nn1's namespace", fs1.exists(new Path("/nn0")));
  }

  @Test(timeout = 600_000)
  public void twoNameservicesOwnRegionsSharedDataNodesRestartEach() throws Exception {
    Configuration conf = NvmCluster.nvmConf();
    String base = NamespaceOpsTestBase.baseDir(NvmFederationTest.class);
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, base);
    // simpleFederatedTopology(2) names the nameservices ns1 and ns2 (NameNode index 0 and 1).
    // MiniDFSCluster hands one Configuration object to every NameNode it starts, and a NameNode
    // resolves its suffixed keys into that object (as the stock NameNode does with its own keys),
    // so a key resolved for one NameNode is the plain key for the NameNodes started after it. In
    // a cluster every NameNode is a process with its own configuration. Here the suffixed key
    // belongs to the NameNode started last (each NameNode keeps a copy for its restarts).
    File ns2Region = new File(base, "regions/ns2/namespace.region");
    conf.set(NvmConfigKeys.NVM_REGION_PATH_KEY + ".ns2", ns2Region.getPath());
    cluster =
        NvmCluster.buildOrSkipIfPlaceholder(
            NvmCluster.builder(conf, 2).nnTopology(MiniDFSNNTopology.simpleFederatedTopology(2)));

    NameNode nn0 = cluster.getNameNode(0), nn1 = cluster.getNameNode(1);
    Region r0 = NvmTestAccess.region(nn0), r1 = NvmTestAccess.region(nn1);
    File ns1NameDir = new File(cluster.getNameDirs(0).iterator().next());
    assertEquals(
        "ns1: the default, in its own first name directory",
        new File(ns1NameDir, "current/" + NvmConfigKeys.REGION_DEFAULT_FILE_NAME).getAbsoluteFile(),
        r0.file().getAbsoluteFile());
    assertEquals(
        "ns2: the per-nameservice key", ns2Region.getAbsoluteFile(), r1.file().getAbsoluteFile());
    String bp0 = nn0.getNamesystem().getBlockPoolId(), bp1 = nn1.getNamesystem().getBlockPoolId();
    assertNotEquals(bp0, bp1);
    assertEquals("each region carries its own block pool", bp0, r0.identity().blockPoolId());
    assertEquals(bp1, r1.identity().blockPoolId());
    long creation0 = r0.creationId(), creation1 = r1.creationId();

    int files = 6;
    for (int ns = 0; ns < 2; ns++) {
      DistributedFileSystem fs = cluster.getFileSystem(ns);
      assertTrue(fs.mkdirs(new Path("/nn" + ns + "/data")));
      assertTrue(fs.mkdirs(new Path("/nn" + ns + "/only-here")));
      for (int i = 0; i < files; i++) {
        write(fs, new Path("/nn" + ns + "/data/f" + i), content(ns, i));
      }
    }
    for (DataNode dn : cluster.getDataNodes()) {
      assertTrue(
          "every DataNode serves both block pools",
          dn.isBPServiceAlive(bp0) && dn.isBPServiceAlive(bp1));
    }
    Snapshot s0 = NvmCluster.snapshot(cluster.getFileSystem(0));
    Snapshot s1 = NvmCluster.snapshot(cluster.getFileSystem(1));
    assertEquals(1 + 1 + 1 + 1 + files, s0.size());
    assertBothIntact(s0, s1, files);

    for (int restart = 0; restart < 2; restart++) {
      cluster.restartNameNode(restart);
      Region r = NvmTestAccess.region(cluster.getNameNode(restart));
      assertEquals(
          "nn" + restart + " reopened its own region",
          restart == 0 ? creation0 : creation1,
          r.creationId());
      assertBothIntact(s0, s1, files);
    }

    // Point nn1 at nn0's region while nn0 holds it: the region's exclusive lock refuses it.
    String nn0Path = NvmTestAccess.region(cluster.getNameNode(0)).file().getPath();
    Configuration c1 = cluster.getConfiguration(1);
    c1.set(NvmConfigKeys.NVM_REGION_PATH_KEY + ".ns2", nn0Path);
    try {
      cluster.restartNameNode(1, false);
      fail("a second NameNode opened " + nn0Path);
    } catch (IOException e) {
      String m = NvmCluster.messages(e);
      assertTrue(m, m.contains("NVM_EBUSY") && m.contains(nn0Path) && m.contains("in use"));
    }
    // nn0 never noticed
    write(cluster.getFileSystem(0), new Path("/nn0/after-refusal"), content(0, 99));
    assertTrue(cluster.getFileSystem(0).exists(new Path("/nn0/after-refusal")));
    assertEquals(creation0, NvmTestAccess.region(cluster.getNameNode(0)).creationId());

    c1.set(NvmConfigKeys.NVM_REGION_PATH_KEY + ".ns2", ns2Region.getPath());
    cluster.restartNameNode(1);
    assertEquals(creation1, NvmTestAccess.region(cluster.getNameNode(1)).creationId());
    assertReadable(cluster.getFileSystem(1), 1, files);
    NvmCluster.assertSameNamespace(
        "nn1 after the refused start", s1, NvmCluster.snapshot(cluster.getFileSystem(1)));
  }
}
