package org.nvmnn.it.core;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.util.EnumSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.protocol.AlreadyBeingCreatedException;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.protocol.LastBlockWithStatus;
import org.apache.hadoop.hdfs.server.namenode.FSNamesystem;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.apache.hadoop.hdfs.server.namenode.NvmTestAccess;
import org.apache.hadoop.hdfs.server.namenode.nvm.NvmConfigKeys;
import org.apache.hadoop.hdfs.server.protocol.NamenodeProtocols;
import org.apache.hadoop.io.EnumSetWritable;
import org.apache.hadoop.ipc.ClientId;
import org.apache.hadoop.ipc.RPC.RpcKind;
import org.apache.hadoop.ipc.Server;
import org.junit.After;
import org.junit.Test;
import org.nvmnn.it.NvmCluster;

/**
 * The retry cache survives a restart (region-format.md §5.5, the retry log): calls a client may
 * retry — create, append, rename, delete — are made as RPC calls with a fixed client id and call
 * id; the NameNode is restarted; the same calls, retried with the same ids, get their original
 * answers (the created file's status, the appended block, true), where a NameNode without the
 * entries would execute them again and answer otherwise (AlreadyBeingCreatedException, false). A
 * call with a new id is executed again. The stock NameNode, which rebuilds its retry cache from the
 * edit log, is run the same way as the reference.
 */
public class RetryCacheRestartTest {
  private static final FsPermission PERM = FsPermission.getFileDefault();
  private MiniDFSCluster cluster;

  @After
  public void tearDown() {
    Server.getCurCall().set(null);
    if (cluster != null) {
      cluster.shutdown();
    }
  }

  /** The calls that follow run as RPC call {@code callId} of {@code client}. */
  private static void call(byte[] client, int callId) {
    Server.getCurCall()
        .set(new Server.Call(callId, 1, null, null, RpcKind.RPC_PROTOCOL_BUFFER, client));
  }

  private static void noCall() {
    Server.getCurCall().set(null);
  }

  private static EnumSetWritable<CreateFlag> flags(CreateFlag f) {
    return new EnumSetWritable<CreateFlag>(EnumSet.of(f));
  }

  private void retriedCallsGetTheirAnswerAfterARestart(boolean nvm) throws Exception {
    Configuration conf = nvm ? NvmCluster.nvmConf() : new HdfsConfiguration();
    conf.setBoolean(DFSConfigKeys.DFS_NAMENODE_ENABLE_RETRY_CACHE_KEY, true);
    conf.setBoolean(NvmConfigKeys.NVM_SNAPSHOTS_PREVIEW_KEY, true);
    cluster = new MiniDFSCluster.Builder(conf).numDataNodes(1).build();
    cluster.waitActive();
    DistributedFileSystem fs = cluster.getFileSystem();
    fs.mkdirs(new Path("/r"));
    for (String p : new String[] {"/r/src", "/r/gone", "/r/app"}) {
      try (FSDataOutputStream out = fs.create(new Path(p))) {
        out.write(new byte[100]);
      }
    }
    byte[] client = ClientId.getClientId();
    NamenodeProtocols rpc = cluster.getNameNodeRpc();
    call(client, 1);
    HdfsFileStatus created =
        rpc.create(
            "/r/f", PERM, "holder", flags(CreateFlag.CREATE), true, (short) 1, 1 << 20, null);
    call(client, 2);
    assertTrue(rpc.rename("/r/src", "/r/dst"));
    call(client, 3);
    assertTrue(rpc.delete("/r/gone", false));
    call(client, 4);
    LastBlockWithStatus appended = rpc.append("/r/app", "holder2", flags(CreateFlag.APPEND));
    assertNotNull("the appended file's last block (100 of 1 MiB)", appended.getLastBlock());
    noCall();
    fs.allowSnapshot(new Path("/r"));
    call(client, 6);
    assertEquals("/r/.snapshot/s1", rpc.createSnapshot("/r", "s1"));
    call(client, 7);
    rpc.createSnapshot("/r", "s2");
    call(client, 8);
    rpc.renameSnapshot("/r", "s2", "s3");
    call(client, 9);
    rpc.deleteSnapshot("/r", "s3");
    noCall();

    cluster.restartNameNode(true);
    rpc = cluster.getNameNodeRpc();
    String mode = nvm ? "NVM" : "stock";
    call(client, 1);
    HdfsFileStatus again =
        rpc.create(
            "/r/f", PERM, "holder", flags(CreateFlag.CREATE), true, (short) 1, 1 << 20, null);
    assertEquals(mode + ": the retried create's file", created.getFileId(), again.getFileId());
    call(client, 2);
    assertTrue(mode + ": the retried rename", rpc.rename("/r/src", "/r/dst"));
    call(client, 3);
    assertTrue(mode + ": the retried delete", rpc.delete("/r/gone", false));
    call(client, 4);
    LastBlockWithStatus appendedAgain = rpc.append("/r/app", "holder2", flags(CreateFlag.APPEND));
    assertEquals(
        mode + ": the retried append's file",
        appended.getFileStatus().getFileId(),
        appendedAgain.getFileStatus().getFileId());
    assertEquals(
        mode + ": the retried append's block",
        appended.getLastBlock().getBlock().getBlockId(),
        appendedAgain.getLastBlock().getBlock().getBlockId());
    // executed again, each of these would fail: s1 exists, s2 and s3 do not
    call(client, 6);
    assertEquals(
        mode + ": the retried createSnapshot's path",
        "/r/.snapshot/s1",
        rpc.createSnapshot("/r", "s1"));
    call(client, 8);
    rpc.renameSnapshot("/r", "s2", "s3");
    call(client, 9);
    rpc.deleteSnapshot("/r", "s3");
    call(client, 5); // a new call: executed, and the source is gone
    assertFalse(mode + ": a new rename", rpc.rename("/r/src", "/r/dst"));
    noCall();
  }

  @Test(timeout = 120_000)
  public void nvm() throws Exception {
    retriedCallsGetTheirAnswerAfterARestart(true);
  }

  /** Without the retry log (0 entries) the retries are executed again: the log is what answers. */
  @Test(timeout = 120_000)
  public void nvmWithoutTheRetryLog() throws Exception {
    Configuration conf = NvmCluster.nvmConf();
    conf.setInt(NvmConfigKeys.NVM_RETRY_LOG_ENTRIES_KEY, 0);
    cluster = new MiniDFSCluster.Builder(conf).numDataNodes(1).build();
    cluster.waitActive();
    DistributedFileSystem fs = cluster.getFileSystem();
    fs.mkdirs(new Path("/r/src"));
    byte[] client = ClientId.getClientId();
    call(client, 7);
    assertTrue(cluster.getNameNodeRpc().rename("/r/src", "/r/dst"));
    noCall();
    cluster.restartNameNode(true);
    call(client, 7);
    assertFalse(
        "executed again: the source is gone", cluster.getNameNodeRpc().rename("/r/src", "/r/dst"));
    noCall();
  }

  @Test(timeout = 120_000)
  public void stock() throws Exception {
    retriedCallsGetTheirAnswerAfterARestart(false);
  }

  private NamenodeProtocols startNvm() throws Exception {
    Configuration conf = NvmCluster.nvmConf();
    conf.setBoolean(DFSConfigKeys.DFS_NAMENODE_ENABLE_RETRY_CACHE_KEY, true);
    cluster = new MiniDFSCluster.Builder(conf).numDataNodes(0).build();
    cluster.waitActive();
    return cluster.getNameNodeRpc();
  }

  private static HdfsFileStatus create(NamenodeProtocols rpc, String path) throws Exception {
    return rpc.create(
        path, PERM, "holder", flags(CreateFlag.CREATE), true, (short) 1, 1 << 20, null);
  }

  /**
   * A restart puts the create entries of its retry log into the retry cache in progress and
   * computes their answers after the load, under the read lock (so holding the write lock keeps
   * them from being computed). A create retried before its answer exists waits for it and gets the
   * original status; an entry whose file is gone by then completes as failed, and its retry is
   * executed again. The entries count in the retry cache's CacheUpdated metric, as a replay's do.
   */
  @Test(timeout = 120_000)
  public void aRetryArrivingBeforeItsAnswerWaitsForIt() throws Exception {
    NamenodeProtocols rpc = startNvm();
    NameNode nn = cluster.getNameNode();
    FSNamesystem fsn = nn.getNamesystem();
    HdfsFileStatus made = create(rpc, "/w/f");
    HdfsFileStatus gone = create(rpc, "/w/gone");
    assertTrue(rpc.delete("/w/gone", false));
    byte[] client = ClientId.getClientId();
    ExecutorService retrier = Executors.newSingleThreadExecutor();
    try {
      Object answers;
      Future<HdfsFileStatus> retried;
      long updated = fsn.getRetryCache().getMetricsForTests().getCacheUpdated();
      fsn.writeLock();
      try {
        answers =
            NvmTestAccess.answerCreatesInBackground(
                nn, client, new int[] {11, 12}, new long[] {made.getFileId(), gone.getFileId()});
        assertEquals(
            "counted as a replay's entries are (CacheUpdated)",
            updated + 2,
            fsn.getRetryCache().getMetricsForTests().getCacheUpdated());
        retried =
            retrier.submit(
                () -> {
                  call(client, 11);
                  try {
                    return create(rpc, "/w/f");
                  } finally {
                    noCall();
                  }
                });
        Thread.sleep(500);
        assertFalse(
            "no answer is computed under the write lock", NvmTestAccess.answersDone(answers));
        assertFalse("the retry waits", retried.isDone());
      } finally {
        fsn.writeUnlock();
      }
      assertEquals(
          "the retried create's original answer",
          made.getFileId(),
          retried.get(60, TimeUnit.SECONDS).getFileId());
      call(client, 12);
      HdfsFileStatus again = create(rpc, "/w/gone");
      noCall();
      assertNotEquals("executed again: a new file", gone.getFileId(), again.getFileId());
      assertTrue(NvmTestAccess.answersDone(answers));
    } finally {
      retrier.shutdownNow();
    }
  }

  /**
   * Stopping the answers (the NameNode closing its region) is safe under the write lock, and every
   * entry not answered by then completes as failed: its retry is executed again (refused here: the
   * holder already has the file open) instead of waiting forever.
   */
  @Test(timeout = 120_000)
  public void stoppingTheAnswersFailsTheUnanswered() throws Exception {
    NamenodeProtocols rpc = startNvm();
    NameNode nn = cluster.getNameNode();
    FSNamesystem fsn = nn.getNamesystem();
    HdfsFileStatus made = create(rpc, "/s/f");
    byte[] client = ClientId.getClientId();
    Object answers;
    fsn.writeLock();
    try {
      answers =
          NvmTestAccess.answerCreatesInBackground(
              nn, client, new int[] {21}, new long[] {made.getFileId()});
      NvmTestAccess.stopAnswering(answers);
    } finally {
      fsn.writeUnlock();
    }
    long deadline = System.currentTimeMillis() + 30_000;
    while (!NvmTestAccess.answersDone(answers) && System.currentTimeMillis() < deadline) {
      Thread.sleep(10);
    }
    assertTrue("the answers thread ended", NvmTestAccess.answersDone(answers));
    call(client, 21);
    try {
      create(rpc, "/s/f");
      fail("the retry of an unanswered entry is executed again, and the file is being created");
    } catch (AlreadyBeingCreatedException expected) {
      // executed again
    } finally {
      noCall();
    }
  }
}
