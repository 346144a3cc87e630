package org.nvmnn.it.core;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSClientAdapter;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DFSTestUtil;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockInfoContiguous;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockInfoContiguousUnderConstruction;
import org.apache.hadoop.hdfs.server.common.HdfsServerConstants;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.datanode.DataNodeTestUtils;
import org.apache.hadoop.hdfs.server.namenode.FSNamesystem;
import org.apache.hadoop.hdfs.server.namenode.INodeFile;
import org.apache.hadoop.hdfs.server.namenode.NameNodeAdapter;
import org.junit.After;
import org.junit.Before;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TestName;
import org.nvmnn.it.NvmCluster;

/**
 * Lease recovery across a NameNode restart (issue 23): what the NameNode knows about open files and
 * their leases must come back from the restart as the stock NameNode brings it back from its image
 * and edits — the holder of each lease (including a holder the NameNode itself took over for
 * recovery), the last block under construction, the safe-mode accounting that leaves those blocks
 * out — so that the lease monitor closes a file whose writer is gone once the hard limit passes.
 * The hard limit is shortened the way upstream tests shorten it ({@code
 * MiniDFSCluster#setLeasePeriod}, i.e. {@code LeaseManager#setLeasePeriod}; in 2.7.3 it is a
 * constant of one hour). Run by {@link NvmLeaseRecoveryRestartTest} (restart from the region) and
 * {@link StockLeaseRecoveryRestartTest} (fsimage + edits); both must pass the same assertions.
 */
public abstract class LeaseRecoveryRestartTestBase {
  static final int BLOCK = 1024;
  static final long SHORT = 1000;
  static final long LONG = 60 * 60 * SHORT;
  static final String NN_HOLDER = HdfsServerConstants.NAMENODE_LEASE_HOLDER;

  /** Every wait is bounded; lease recovery here takes a few seconds. */
  static final long WAIT_MS = 60000;

  @Rule public TestName name = new TestName();

  protected MiniDFSCluster cluster;
  protected DistributedFileSystem fs;

  protected abstract boolean nvm();

  static Configuration conf(boolean nvm) {
    Configuration conf = new HdfsConfiguration();
    if (nvm) {
      NvmCluster.nvmConf(conf);
    }
    conf.setLong(DFSConfigKeys.DFS_BLOCK_SIZE_KEY, BLOCK);
    conf.setLong(DFSConfigKeys.DFS_NAMENODE_MIN_BLOCK_SIZE_KEY, 0);
    conf.setInt(DFSConfigKeys.DFS_BYTES_PER_CHECKSUM_KEY, 512);
    conf.setInt(DFSConfigKeys.DFS_HEARTBEAT_INTERVAL_KEY, 1);
    conf.setInt(DFSConfigKeys.DFS_NAMENODE_SAFEMODE_EXTENSION_KEY, 0);
    return conf;
  }

  @Before
  public void setUp() throws IOException {
    Configuration conf = conf(nvm());
    conf.set(
        MiniDFSCluster.HDFS_MINIDFS_BASEDIR,
        NamespaceOpsTestBase.baseDir(getClass()) + "-" + name.getMethodName());
    cluster = NvmCluster.builder(conf, 3).build();
    cluster.waitActive();
    fs = cluster.getFileSystem();
  }

  @After
  public void tearDown() {
    if (cluster != null) {
      cluster.shutdown();
    }
  }

  // ---------------------------------------------------------------- the three ways a restart meets
  // an open file

  /**
   * The hard limit passes, the NameNode takes the lease over (holder HDFS_NameNode) and starts
   * block recovery, and is restarted before the recovery ends (the DataNodes are kept from
   * answering). After the restart the lease must still be the NameNode's — not the gone writer's
   * again — and the recovery must run to the end: the file closed at its hflushed length, the old
   * writer fenced off. (Upstream: {@code
   * TestLeaseRecovery2#testHardLeaseRecoveryAfterNameNodeRestart}.)
   */
  @Test
  public void hardLimitRecoveryInterruptedByRestartEndsAfterIt() throws Exception {
    String p = "/hard-limit-then-restart";
    byte[] b = NamespaceOpsTestBase.data(BLOCK + 476, 1);
    DistributedFileSystem writer = newClient();
    FSDataOutputStream out = writer.create(new Path(p), true, 4096, (short) 3, BLOCK);
    out.write(b);
    out.hflush();
    assertEquals(writer.getClient().getClientName(), holder(p));
    DFSClientAdapter.stopLeaseRenewer(writer); // the writer is gone
    heartbeats(false); // so block recovery cannot end before the restart
    cluster.setLeasePeriod(LONG, SHORT);
    waitFor("the lease monitor takes the lease over", () -> NN_HOLDER.equals(holder(p)));
    quietLeaseMonitor();

    cluster.restartNameNode(false);
    assertEquals("lease holder after the restart", NN_HOLDER, holder(p));

    heartbeats(true);
    cluster.waitActive();
    waitOutOfSafeMode();
    assertTrue(
        "under construction after the restart",
        fs.getClient().getLocatedBlocks(p, 0).isUnderConstruction());
    cluster.setLeasePeriod(LONG, SHORT);
    waitFor("lease recovery closes " + p, () -> fs.isFileClosed(new Path(p)));
    assertEquals(b.length, fs.getFileStatus(new Path(p)).getLen());
    assertContent(p, b);
    assertFenced(out);

    cluster.restartNameNode(true);
    assertTrue(fs.isFileClosed(new Path(p)));
    assertEquals(null, holder(p));
    assertContent(p, b);
  }

  /**
   * Another client calls recoverLease (the lease becomes that client's, block recovery starts) and
   * the NameNode is restarted before the recovery ends. After the restart the lease must still be
   * the recovering client's: the original writer, still alive, must not get the file back (this is
   * how HBase fences a region server it declared dead). The recovering client's next recoverLease
   * then closes the file.
   */
  @Test
  public void recoverLeaseInterruptedByRestartKeepsTheOldWriterFencedOff() throws Exception {
    String p = "/recover-lease-then-restart";
    byte[] b = NamespaceOpsTestBase.data(2 * BLOCK + 100, 2);
    DistributedFileSystem writer = newClient();
    FSDataOutputStream out = writer.create(new Path(p), true, 4096, (short) 3, BLOCK);
    out.write(b);
    out.hflush();
    heartbeats(false);
    DistributedFileSystem recoverer = newClient();
    String recovererName = recoverer.getClient().getClientName();
    assertFalse("recovery cannot end at once", recoverer.recoverLease(new Path(p)));
    assertEquals(recovererName, holder(p));

    cluster.restartNameNode(false);
    assertEquals("lease holder after the restart", recovererName, holder(p));

    heartbeats(true);
    cluster.waitActive();
    waitOutOfSafeMode();
    try {
      out.close(); // its last packet reaches the DataNodes; complete() must be refused
      fail("the writer whose lease another client recovered could close the file");
    } catch (IOException expected) {
      // the lease is the recovering client's
    }
    waitFor("recoverLease closes " + p, () -> recoverer.recoverLease(new Path(p)));
    assertEquals(b.length, fs.getFileStatus(new Path(p)).getLen());
    assertContent(p, b);
    recoverer.close();
  }

  /**
   * Writers gone before the restart, their files open in every shape a file can be left in (no
   * block, a partial block, a full last block, several blocks): after the restart the leases are
   * the writers' again, the NameNode leaves safe mode (the blocks under construction are not waited
   * for), and once the hard limit passes the lease monitor closes every file at its hflushed
   * length. The closes survive the next restart.
   */
  @Test
  public void writersGoneBeforeRestartAreRecoveredByTheHardLimitAfterIt() throws Exception {
    Map<String, byte[]> files = new LinkedHashMap<>();
    files.put("/gone/no-block", new byte[0]);
    files.put("/gone/partial-block", NamespaceOpsTestBase.data(700, 3));
    files.put("/gone/full-block", NamespaceOpsTestBase.data(BLOCK, 4));
    files.put("/gone/three-blocks", NamespaceOpsTestBase.data(2 * BLOCK + 300, 5));
    DistributedFileSystem writer = newClient();
    String writerName = writer.getClient().getClientName();
    for (Map.Entry<String, byte[]> e : files.entrySet()) {
      FSDataOutputStream out = writer.create(new Path(e.getKey()), true, 4096, (short) 3, BLOCK);
      out.write(e.getValue());
      out.hflush();
    }
    DFSClientAdapter.stopLeaseRenewer(writer);

    cluster.restartNameNode(true);
    waitOutOfSafeMode();
    for (String p : files.keySet()) {
      assertEquals("lease holder of " + p + " after the restart", writerName, holder(p));
      assertFalse(p + " open after the restart", fs.isFileClosed(new Path(p)));
      assertOpenFileOwnsItsLastBlock(p);
    }

    cluster.setLeasePeriod(LONG, SHORT);
    for (Map.Entry<String, byte[]> e : files.entrySet()) {
      String p = e.getKey();
      waitFor("the lease monitor closes " + p, () -> fs.isFileClosed(new Path(p)));
      assertEquals("length of " + p, e.getValue().length, fs.getFileStatus(new Path(p)).getLen());
      assertContent(p, e.getValue());
    }

    cluster.restartNameNode(true);
    for (Map.Entry<String, byte[]> e : files.entrySet()) {
      assertTrue(
          e.getKey() + " closed after the next restart", fs.isFileClosed(new Path(e.getKey())));
      assertEquals(null, holder(e.getKey()));
      assertContent(e.getKey(), e.getValue());
    }
  }

  // ---------------------------------------------------------------- helpers

  /** A client of its own (own client name, own lease). */
  private DistributedFileSystem newClient() throws IOException {
    return (DistributedFileSystem)
        FileSystem.newInstance(cluster.getURI(0), cluster.getConfiguration(0));
  }

  private String holder(String path) {
    return NameNodeAdapter.getLeaseHolderForPath(cluster.getNameNode(), path);
  }

  private void heartbeats(boolean on) {
    for (DataNode dn : cluster.getDataNodes()) {
      DataNodeTestUtils.setHeartbeatsDisabledForTests(dn, !on);
    }
  }

  /**
   * Stops the lease monitor from starting new recoveries, without interrupting it, and gives the
   * recovery it ran time to sync its edits. On the stock path an interrupt of the monitor thread
   * while it is in logSync closes the edit-log channel (ClosedByInterruptException), the journals
   * are disabled and the NameNode terminates; {@code MiniDFSCluster#setLeasePeriod} interrupts it
   * ({@code triggerMonitorCheckNow}), so this sets the period on the LeaseManager directly.
   */
  private void quietLeaseMonitor() throws InterruptedException {
    NameNodeAdapter.getLeaseManager(cluster.getNamesystem()).setLeasePeriod(LONG, LONG);
    Thread.sleep(2 * HdfsServerConstants.NAMENODE_LEASE_RECHECK_INTERVAL);
  }

  private void waitOutOfSafeMode() throws Exception {
    waitFor(
        "the NameNode leaves safe mode (blocks under construction are not counted)",
        () -> !cluster.getNamesystem().isInSafeMode());
  }

  /**
   * The open file's last block is under construction and its collection is the file object found at
   * its path, so the block layer does not take it for a snapshot copy ({@code isInSnapshot}, whose
   * replicas a block report would count as safe).
   */
  private void assertOpenFileOwnsItsLastBlock(String p) throws IOException {
    FSNamesystem fsn = cluster.getNamesystem();
    fsn.readLock();
    try {
      INodeFile f = fsn.getFSDirectory().getINode(p).asFile();
      BlockInfoContiguous last = f.getLastBlock();
      if (last == null) {
        return;
      }
      assertTrue(
          p + ": last block under construction",
          last instanceof BlockInfoContiguousUnderConstruction);
      assertSame(p + ": the file is its last block's collection", f, last.getBlockCollection());
      assertFalse(fsn.isInSnapshot((BlockInfoContiguousUnderConstruction) last));
    } finally {
      fsn.readUnlock();
    }
  }

  /** The old writer lost the file: neither more data nor a close may go through. */
  private static void assertFenced(FSDataOutputStream out) {
    try {
      out.write('x');
      out.hflush();
      out.close();
      fail("the writer whose lease was recovered could still write and close the file");
    } catch (IOException expected) {
      // the lease is not its own any more
    }
  }

  private void assertContent(String p, byte[] expected) throws IOException {
    assertArrayEquals("content of " + p, expected, DFSTestUtil.readFileBuffer(fs, new Path(p)));
  }

  private static void waitFor(String what, Callable<Boolean> done) throws Exception {
    long deadline = System.currentTimeMillis() + WAIT_MS;
    while (!done.call()) {
      if (System.currentTimeMillis() > deadline) {
        fail("timed out after " + WAIT_MS + " ms waiting until " + what);
      }
      Thread.sleep(200);
    }
  }
}
