package org.nvmnn.it.core;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.EnumSet;
import java.util.List;
import org.apache.hadoop.fs.CacheFlag;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.protocol.CacheDirectiveEntry;
import org.apache.hadoop.hdfs.protocol.CacheDirectiveInfo;
import org.apache.hadoop.hdfs.protocol.CachePoolInfo;
import org.apache.hadoop.hdfs.server.protocol.NamenodeProtocols;
import org.apache.hadoop.ipc.ClientId;
import org.apache.hadoop.ipc.RPC.RpcKind;
import org.apache.hadoop.ipc.Server;
import org.junit.After;
import org.junit.Test;

/**
 * Cache pools and directives (issue 25) are persisted and come back after a restart exactly as the
 * stock NameNode brings them back from its edit log: every field of every pool (the maximum
 * relative expiry included), every directive with its id, path, replication, pool and absolute
 * expiry, and the next directive id (a removed directive's id is not given again). The same calls
 * run against the stock NameNode give the reference listing; a retried addCacheDirective gets its
 * first id back after the restart.
 */
public class CacheDirectiveRestartTest {
  private MiniDFSCluster cluster;

  @After
  public void tearDown() {
    Server.getCurCall().set(null);
    if (cluster != null) {
      cluster.shutdown();
    }
  }

  private DistributedFileSystem start(String name, boolean nvm) throws Exception {
    cluster = MigrationTestSupport.cluster(getClass(), name, nvm, 0);
    return cluster.getFileSystem();
  }

  private DistributedFileSystem restart() throws Exception {
    cluster.restartNameNode(0);
    cluster.waitActive();
    return cluster.getFileSystem();
  }

  private static final long HOUR = 3600_000L;

  /** The same calls in both modes; returns the listing after the restart and the new ids. */
  private List<String> scenario(boolean nvm) throws Exception {
    DistributedFileSystem fs = start(nvm ? "nvm" : "stock", nvm);
    fs.addCachePool(
        new CachePoolInfo("pool1")
            .setOwnerName("alice")
            .setGroupName("analysts")
            .setMode(new FsPermission((short) 0750))
            .setLimit(1L << 30)
            .setMaxRelativeExpiryMs(7 * 24 * HOUR));
    fs.addCachePool(new CachePoolInfo("pool2"));
    fs.addCachePool(new CachePoolInfo("pool3-" + new String(new char[300]).replace('\0', 'p')));
    EnumSet<CacheFlag> force = EnumSet.of(CacheFlag.FORCE);
    long a =
        fs.addCacheDirective(
            new CacheDirectiveInfo.Builder()
                .setPath(new Path("/warehouse/a"))
                .setPool("pool1")
                .setReplication((short) 2)
                .setExpiration(CacheDirectiveInfo.Expiration.newRelative(HOUR))
                .build(),
            force);
    long b =
        fs.addCacheDirective(
            new CacheDirectiveInfo.Builder()
                .setPath(new Path("/warehouse/" + new String(new char[400]).replace('\0', 'b')))
                .setPool("pool2")
                .build(),
            force);
    long c =
        fs.addCacheDirective(
            new CacheDirectiveInfo.Builder().setPath(new Path("/tmp/c")).setPool("pool2").build(),
            force);
    fs.modifyCacheDirective(
        new CacheDirectiveInfo.Builder()
            .setId(a)
            .setReplication((short) 3)
            .setPath(new Path("/warehouse/a2"))
            .build(),
        force);
    fs.modifyCachePool(new CachePoolInfo("pool1").setLimit(2L << 30).setOwnerName("bob"));
    fs.removeCacheDirective(c); // the highest id: not to be given again after the restart
    List<String> before = CacheState.lines(fs, true, true);

    fs = restart();
    List<String> after = CacheState.lines(fs, true, true);
    assertEquals("pools and directives changed across the restart", before, after);
    long d =
        fs.addCacheDirective(
            new CacheDirectiveInfo.Builder().setPath(new Path("/tmp/d")).setPool("pool1").build(),
            force);
    assertEquals("the next directive id after the restart", c + 1, d);
    assertTrue(b > a);

    fs.removeCachePool("pool2"); // takes directive b with it
    fs = restart();
    List<String> end = CacheState.lines(fs, true, false);
    for (String line : end) {
      assertTrue(line, !line.contains("pool2"));
    }
    return end;
  }

  @Test
  public void poolsAndDirectivesSurviveRestartsAsInTheStockNameNode() throws Exception {
    List<String> stock = scenario(false);
    cluster.shutdown();
    cluster = null;
    List<String> nvm = scenario(true);
    assertEquals("NVM and stock differ after the restarts", stock, nvm);
    assertEquals(nvm.toString(), 4, nvm.size()); // pool1, pool3-…, directives a and d
  }

  /** addCacheDirective retried with its RPC ids after a restart answers its first id. */
  @Test
  public void retriedAddCacheDirectiveGetsItsFirstIdAfterRestart() throws Exception {
    DistributedFileSystem fs = start("retry", true);
    fs.addCachePool(new CachePoolInfo("p"));
    NamenodeProtocols rpc = cluster.getNameNodeRpc();
    byte[] client = ClientId.getClientId();
    CacheDirectiveInfo info =
        new CacheDirectiveInfo.Builder().setPath(new Path("/x")).setPool("p").build();
    Server.getCurCall().set(new Server.Call(7, 1, null, null, RpcKind.RPC_PROTOCOL_BUFFER, client));
    long first = rpc.addCacheDirective(info, EnumSet.of(CacheFlag.FORCE));
    Server.getCurCall().set(null);
    restart();
    rpc = cluster.getNameNodeRpc();
    Server.getCurCall().set(new Server.Call(7, 1, null, null, RpcKind.RPC_PROTOCOL_BUFFER, client));
    long again = rpc.addCacheDirective(info, EnumSet.of(CacheFlag.FORCE));
    Server.getCurCall().set(null);
    assertEquals("the retry was executed again", first, again);
    assertEquals(1, countDirectives(cluster.getFileSystem()));
  }

  private static int countDirectives(DistributedFileSystem fs) throws Exception {
    int n = 0;
    RemoteIterator<CacheDirectiveEntry> it = fs.listCacheDirectives(null);
    while (it.hasNext()) {
      it.next();
      n++;
    }
    return n;
  }
}
