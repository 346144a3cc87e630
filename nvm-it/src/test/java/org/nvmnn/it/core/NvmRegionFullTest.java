package org.nvmnn.it.core;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.server.namenode.NvmRegionFullException;
import org.apache.hadoop.hdfs.server.namenode.NvmTestAccess;
import org.apache.hadoop.hdfs.server.namenode.nvm.NvmConfigKeys;
import org.apache.hadoop.ipc.RemoteException;
import org.junit.After;
import org.junit.Test;
import org.nvmnn.it.NvmCluster;

/**
 * A region that fills up: creates are refused with an error naming the region and its usage, the
 * NameNode stays up, reads and deletes work, deleting makes room and creates resume, and a restart
 * finds exactly the files that were acknowledged.
 */
public class NvmRegionFullTest {
  private MiniDFSCluster cluster;

  @After
  public void tearDown() {
    if (cluster != null) {
      cluster.shutdown();
    }
  }

  private static void assertRegionFull(IOException e, String regionPath) {
    String cls =
        e instanceof RemoteException
            ? ((RemoteException) e).getClassName()
            : e.getClass().getName();
    assertEquals(e.toString(), NvmRegionFullException.class.getName(), cls);
    String m = e.getMessage();
    assertTrue(
        m,
        m.contains(regionPath)
            && m.contains("is full")
            && m.contains("pages used")
            && m.contains("namespace was not changed"));
  }

  @Test(timeout = 300_000)
  public void fullRegionRefusesGrowthKeepsServingAndResumesAfterDeletes() throws Exception {
    Configuration conf = NvmCluster.nvmConf();
    conf.set(NvmConfigKeys.NVM_REGION_SIZE_KEY, "1m"); // 4032 pages
    conf.setLong(NvmConfigKeys.NVM_RESERVED_PAGES_KEY, 64);
    cluster = NvmCluster.buildOrSkipIfPlaceholder(NvmCluster.builder(conf, 1));
    DistributedFileSystem fs = cluster.getFileSystem();
    String regionPath = NvmTestAccess.region(cluster.getNameNode()).file().getPath();

    byte[] data = "bytes that must stay readable".getBytes(StandardCharsets.UTF_8);
    try (FSDataOutputStream out = fs.create(new Path("/keep/data"))) {
      out.write(data);
    }
    int created = 0;
    IOException refusal = null;
    while (refusal == null && created < 10_000) {
      try {
        fs.create(new Path("/fill/f" + created)).close();
        created++;
      } catch (IOException e) {
        refusal = e;
      }
    }
    if (refusal == null) {
      fail("10000 files fit into a 1 MiB region");
    }
    assertRegionFull(refusal, regionPath);
    System.out.println("refused after " + created + " files: " + refusal.getMessage());
    assertTrue("only " + created + " files fit", created > 3000);
    try {
      fs.mkdirs(new Path("/fill/dir"));
      fail("mkdirs accepted in a full region");
    } catch (IOException e) {
      assertRegionFull(e, regionPath);
    }
    assertTrue(!fs.exists(new Path("/fill/dir")) && !fs.exists(new Path("/fill/f" + created)));

    // still serving: reads, listings, attribute changes, deletes
    byte[] back = new byte[data.length];
    try (FSDataInputStream in = fs.open(new Path("/keep/data"))) {
      in.readFully(back);
    }
    assertArrayEquals(data, back);
    assertEquals(created, fs.listStatus(new Path("/fill")).length);
    fs.setPermission(
        new Path("/fill/f0"), new org.apache.hadoop.fs.permission.FsPermission((short) 0600));
    for (int i = 0; i < 200; i++) {
      assertTrue(fs.delete(new Path("/fill/f" + i), false));
    }
    // room again
    fs.create(new Path("/fill/after-delete")).close();
    assertTrue(fs.mkdirs(new Path("/fill/dir")));

    cluster.restartNameNode(true);
    fs = cluster.getFileSystem();
    assertEquals(created - 200 + 2, fs.listStatus(new Path("/fill")).length);
    try (FSDataInputStream in = fs.open(new Path("/keep/data"))) {
      in.readFully(back);
    }
    assertArrayEquals(data, back);
  }

  /**
   * The room check counts the pages an operation can really take (issue 23, finding 6): after the
   * region refused a create and k files were deleted, k creates of the same kind succeed, also when
   * they come from a new client whose name needs a string page (the idle name of the client that
   * left is freed for it).
   */
  @Test(timeout = 300_000)
  public void afterKDeletesKCreatesOfTheSameKindSucceed() throws Exception {
    Configuration conf = NvmCluster.nvmConf();
    conf.set(NvmConfigKeys.NVM_REGION_SIZE_KEY, "1m");
    conf.setLong(NvmConfigKeys.NVM_RESERVED_PAGES_KEY, 64);
    cluster = NvmCluster.buildOrSkipIfPlaceholder(NvmCluster.builder(conf, 1));
    DistributedFileSystem a = cluster.getFileSystem();
    String regionPath = NvmTestAccess.region(cluster.getNameNode()).file().getPath();
    int created = 0;
    IOException refusal = null;
    while (refusal == null && created < 10_000) {
      try {
        a.create(new Path("/fill/f" + created)).close();
        created++;
      } catch (IOException e) {
        refusal = e;
      }
    }
    assertTrue("10000 files fit into a 1 MiB region", refusal != null);
    assertRegionFull(refusal, regionPath);
    int k = 10;
    for (int i = 0; i < k; i++) {
      assertTrue(a.delete(new Path("/fill/f" + i), false));
    }
    a.close(); // client A leaves
    try (DistributedFileSystem b =
        (DistributedFileSystem) org.apache.hadoop.fs.FileSystem.newInstance(a.getUri(), conf)) {
      for (int i = 0; i < k; i++) {
        b.create(new Path("/fill/b" + i)).close(); // a refusal fails the test
      }
    }
  }
}
