package org.nvmnn.it.core;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.MiniDFSCluster.DataNodeProperties;
import org.apache.hadoop.io.IOUtils;
import org.junit.After;
import org.junit.Test;

/**
 * truncate (issue 25) is persisted and comes back after restarts as in the stock NameNode: on a
 * block boundary (blocks dropped, the file stays closed), inside a block (the file is under
 * construction until the DataNodes truncated the last replica), and inside a block while the
 * DataNode is down, with the NameNode restarted before the block recovery could run: the truncate
 * block (new length, recovery generation stamp) must come back from the region, or the lease
 * recovery after the restart would keep the old length. The same calls against the stock NameNode
 * (whose edit-log replay restores the truncate block) give the reference.
 */
public class TruncateRestartTest {
  private static final int BLOCK = NamespaceOpsTestBase.BLOCK;
  private MiniDFSCluster cluster;

  @After
  public void tearDown() {
    if (cluster != null) {
      cluster.shutdown();
    }
  }

  private static byte[] write(DistributedFileSystem fs, Path p, int len, int seed)
      throws Exception {
    byte[] data = new byte[len];
    new java.util.Random(seed).nextBytes(data);
    try (FSDataOutputStream out = fs.create(p, (short) 1)) {
      out.write(data);
    }
    return data;
  }

  private static byte[] read(DistributedFileSystem fs, Path p) throws Exception {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    try (FSDataInputStream in = fs.open(p)) {
      IOUtils.copyBytes(in, b, 4096);
    }
    return b.toByteArray();
  }

  /** Recovers the lease of {@code p} until the file is closed (block recovery done). */
  private static void closeByRecovery(DistributedFileSystem fs, Path p) throws Exception {
    long end = System.currentTimeMillis() + 60_000;
    while (!recoverLease(fs, p)) {
      assertTrue(p + " was not closed by its lease recovery", System.currentTimeMillis() < end);
      Thread.sleep(200);
    }
  }

  /**
   * recoverLease, false while the NameNode is still in safe mode: waitActive waits for the DataNode
   * to register, not for its block report to end safe mode (seen on a loaded machine).
   */
  private static boolean recoverLease(DistributedFileSystem fs, Path p) throws Exception {
    try {
      return fs.recoverLease(p);
    } catch (org.apache.hadoop.ipc.RemoteException e) {
      if (e.getClassName()
          .equals(org.apache.hadoop.hdfs.server.namenode.SafeModeException.class.getName())) {
        return false;
      }
      throw e;
    }
  }

  private void restart() throws Exception {
    cluster.restartNameNode(0);
    cluster.waitActive();
  }

  private List<String> scenario(boolean nvm) throws Exception {
    cluster = MigrationTestSupport.cluster(getClass(), nvm ? "n" : "s", nvm, 1);
    DistributedFileSystem fs = cluster.getFileSystem();
    List<String> seen = new ArrayList<>();

    Path boundary = new Path("/t/boundary");
    byte[] b = write(fs, boundary, 3 * BLOCK + 100, 1);
    seen.add("boundary answers " + fs.truncate(boundary, 2 * BLOCK));
    Path inside = new Path("/t/inside");
    byte[] i = write(fs, inside, 2 * BLOCK + 5000, 2);
    seen.add("inside answers " + fs.truncate(inside, BLOCK + 777));
    closeByRecovery(fs, inside);
    restart();
    fs = cluster.getFileSystem();
    assertArrayEquals(Arrays.copyOf(b, 2 * BLOCK), read(fs, boundary));
    assertArrayEquals(Arrays.copyOf(i, BLOCK + 777), read(fs, inside));

    // inside a block with the DataNode down: the recovery cannot run before the restart
    Path pending = new Path("/t/pending");
    byte[] p = write(fs, pending, BLOCK + 9000, 3);
    DataNodeProperties dn = cluster.stopDataNode(0);
    seen.add("pending answers " + fs.truncate(pending, BLOCK + 1234));
    seen.add("pending closed before the restart " + fs.isFileClosed(pending));
    restart();
    cluster.restartDataNode(dn, true);
    cluster.waitActive();
    fs = cluster.getFileSystem();
    seen.add("pending closed after the restart " + fs.isFileClosed(pending));
    closeByRecovery(fs, pending);
    assertArrayEquals(Arrays.copyOf(p, BLOCK + 1234), read(fs, pending));
    restart();
    fs = cluster.getFileSystem();
    assertArrayEquals(Arrays.copyOf(p, BLOCK + 1234), read(fs, pending));
    for (Path f : new Path[] {boundary, inside, pending}) {
      seen.add(f + " length " + fs.getFileStatus(f).getLen() + " closed " + fs.isFileClosed(f));
    }
    return seen;
  }

  @Test(timeout = 300_000)
  public void truncateSurvivesRestartsAsInTheStockNameNode() throws Exception {
    List<String> stock = scenario(false);
    cluster.shutdown();
    cluster = null;
    assertEquals(stock, scenario(true));
  }
}
