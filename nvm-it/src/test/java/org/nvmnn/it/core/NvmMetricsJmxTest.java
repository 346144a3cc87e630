package org.nvmnn.it.core;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;
import static org.nvmnn.it.JmxHttp.dbl;
import static org.nvmnn.it.JmxHttp.num;
import static org.nvmnn.it.JmxHttp.text;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.apache.hadoop.hdfs.server.namenode.NvmTestAccess;
import org.codehaus.jackson.JsonNode;
import org.junit.After;
import org.junit.Test;
import org.nvmnn.it.JmxHttp;
import org.nvmnn.it.NvmCluster;

/**
 * The NVM NameNode's metrics as an operator's monitoring sees them: HTTP GET of the NameNode's
 * {@code /jmx}, bean {@code Hadoop:service=NameNode,name=NvmNamespace}, next to the stock {@code
 * NameNodeActivity} and {@code FSNamesystemState}. Counters must move as the operations done
 * between two readings require, live inodes must equal the namespace's inode count, and a restart
 * must publish the recovery it did.
 *
 * <p>JMX values of metrics2 sources are cached for the metrics period (10 s by default), so each
 * expectation is polled until it holds or a deadline passes.
 */
public class NvmMetricsJmxTest {
  private static final String NVM_BEAN = "Hadoop:service=NameNode,name=NvmNamespace*";
  private static final long DEADLINE_MS = 60_000;
  private MiniDFSCluster cluster;

  @After
  public void tearDown() {
    if (cluster != null) {
      cluster.shutdown();
    }
  }

  private interface Check {
    /** Null when the bean satisfies the expectation, else what is still missing. */
    String missing(Map<String, JsonNode> bean) throws IOException;
  }

  /** The NVM bean of {@code nn}, polled until {@code check} holds. */
  private static Map<String, JsonNode> awaitNvmBean(NameNode nn, Check check) throws Exception {
    String http = hostPort(nn);
    String region = NvmTestAccess.region(nn).file().getAbsolutePath();
    long end = System.currentTimeMillis() + DEADLINE_MS;
    String last = "no reading yet";
    while (System.currentTimeMillis() < end) {
      List<Map<String, JsonNode>> beans = JmxHttp.beans(http, NVM_BEAN);
      assertEquals(
          "one NvmNamespace bean per running NameNode: " + JmxHttp.names(beans), 1, beans.size());
      Map<String, JsonNode> b = beans.get(0);
      assertEquals("the bean describes this NameNode's region", region, text(b, "tag.RegionPath"));
      last = b.containsKey("Persists") ? check.missing(b) : "no values yet";
      if (last == null) {
        return b;
      }
      Thread.sleep(500);
    }
    throw new AssertionError("after " + DEADLINE_MS + " ms: " + last);
  }

  private static String hostPort(NameNode nn) {
    return "127.0.0.1:" + nn.getHttpAddress().getPort();
  }

  private static long filesTotal(NameNode nn) throws IOException {
    return num(
        JmxHttp.bean(hostPort(nn), "Hadoop:service=NameNode,name=FSNamesystemState"), "FilesTotal");
  }

  @Test(timeout = 300_000)
  public void metricsAtJmxFollowTheOperationsAndTheRecovery() throws Exception {
    Configuration conf = NvmCluster.nvmConf();
    conf.set(
        MiniDFSCluster.HDFS_MINIDFS_BASEDIR, NamespaceOpsTestBase.baseDir(NvmMetricsJmxTest.class));
    conf.set(DFSConfigKeys.DFS_METRICS_PERCENTILES_INTERVALS_KEY, "1");
    cluster = NvmCluster.buildOrSkipIfPlaceholder(NvmCluster.builder(conf, 1));
    final DistributedFileSystem fs = cluster.getFileSystem();
    NameNode nn = cluster.getNameNode();

    // the stock beans are still there in NVM mode
    Map<String, JsonNode> activity =
        JmxHttp.bean(hostPort(nn), "Hadoop:service=NameNode,name=NameNodeActivity");
    assertTrue(activity.containsKey("CreateFileOps") && activity.containsKey("FilesCreated"));
    Map<String, JsonNode> state =
        JmxHttp.bean(hostPort(nn), "Hadoop:service=NameNode,name=FSNamesystemState");
    assertTrue(state.containsKey("FilesTotal") && state.containsKey("BlocksTotal"));

    Map<String, JsonNode> before = awaitNvmBean(nn, b -> null);
    assertEquals("emulated", text(before, "tag.PersistMode"));
    assertEquals("dfs", text(before, "tag.Context"));
    assertEquals(64L << 20, num(before, "RegionSizeBytes"));
    assertFalse(
        "a region created at this start has no recovery to report",
        before.containsKey("LastRecoveryMillis"));
    assertCacheGauges(before);

    final int dirs = 200;
    for (int i = 0; i < dirs; i++) {
      assertTrue(fs.mkdirs(new Path("/m/d" + i)));
    }
    byte[] data = new byte[3000];
    try (FSDataOutputStream out = fs.create(new Path("/m/file"))) {
      out.write(data);
    }
    final long persists0 = num(before, "Persists");
    final long pages0 = num(before, "PagesUsed");
    final long inodes = filesTotal(nn); // nothing changes the namespace from here on
    assertEquals("root + /m + dirs + file", 1 + 1 + dirs + 1, inodes);
    Map<String, JsonNode> after =
        awaitNvmBean(
            nn,
            b ->
                num(b, "LiveInodes") == inodes
                    ? null
                    : "LiveInodes " + num(b, "LiveInodes") + ", namespace " + inodes);
    long persists = num(after, "Persists");
    assertTrue(
        "persists " + persists0 + " -> " + persists + " for " + dirs + " mkdirs and a file",
        persists >= persists0 + dirs + 1 + 3); // each mkdir; the file: create, addBlock, complete
    assertTrue(
        "pages used " + pages0 + " -> " + num(after, "PagesUsed"),
        num(after, "PagesUsed") >= pages0 + dirs + 2);
    assertEquals(
        num(after, "PagesTotal"),
        num(after, "PagesUsed") + num(after, "PagesFree") + num(after, "PagesReserved"));
    assertEquals(num(after, "PagesUsed") * 256, num(after, "BytesUsed"));
    assertEquals(num(after, "PagesFree") * 256, num(after, "BytesFree"));
    assertTrue(
        "a new directory's page image alone is 256 bytes",
        num(after, "PersistBatchBytes") >= num(before, "PersistBatchBytes") + 256L * dirs);
    assertTrue("every persist is a JNI call", num(after, "JniCalls") >= persists);
    long groups = num(after, "GroupCommits") - num(before, "GroupCommits");
    assertTrue(
        "one client: each RPC's batches are committed by its own group commit ("
            + groups
            + " for "
            + dirs
            + " mkdirs and a file)",
        groups >= dirs + 3 && groups <= persists - persists0);
    assertTrue("the group commits took time", num(after, "GroupCommitNanos") > 0);
    assertTrue(
        "a group commit is at least one barrier",
        num(after, "PersistBarriers") - num(before, "PersistBarriers") >= groups);
    assertTrue(
        "mkdir commits several words: undo-logged", num(after, "UndoLoggedPersists") >= dirs);
    assertTrue(num(after, "UndoLoggedPersists") <= persists);
    assertTrue("the rate saw the persists", num(after, "PersistNanosNumOps") >= persists0 + dirs);
    double avg = dbl(after, "PersistNanosAvgTime");
    assertTrue("mean persist latency " + avg + " ns", avg > 0 && avg < 1e9);

    // Quantiles over 1 s windows: keep persisting until a window with persists is published.
    final AtomicBoolean stop = new AtomicBoolean();
    final AtomicReference<Throwable> failed = new AtomicReference<>();
    Thread load =
        new Thread(
            () -> {
              try {
                for (int i = 0; !stop.get(); i++) {
                  fs.setTimes(new Path("/m/d" + (i % dirs)), i + 1L, -1);
                }
              } catch (Throwable t) {
                failed.set(t);
              }
            });
    load.start();
    Map<String, JsonNode> q;
    try {
      q =
          awaitNvmBean(
              nn,
              b ->
                  b.containsKey("PersistNanos1sNumOps") && num(b, "PersistNanos1sNumOps") > 0
                      ? null
                      : "PersistNanos1sNumOps " + b.get("PersistNanos1sNumOps"));
    } finally {
      stop.set(true);
      load.join();
    }
    assertEquals(null, failed.get());
    long p50 = num(q, "PersistNanos1s50thPercentileLatency");
    long p99 = num(q, "PersistNanos1s99thPercentileLatency");
    assertTrue(
        "p50 " + p50 + " ns, p99 " + p99 + " ns", 0 < p50 && p50 <= p99 && p99 < 1_000_000_000L);
    System.out.println(
        "persist latency over 1 s: p50 "
            + p50
            + " ns, p99 "
            + p99
            + " ns, ops "
            + num(q, "PersistNanos1sNumOps")
            + "; mean since start "
            + dbl(q, "PersistNanosAvgTime")
            + " ns");

    // A restart publishes its recovery, under a new bean; the old one is gone.
    long inodesBefore = filesTotal(nn);
    cluster.restartNameNode(true);
    nn = cluster.getNameNode();
    final long expected = inodesBefore;
    Map<String, JsonNode> rec =
        awaitNvmBean(nn, b -> b.containsKey("LastRecoveryInodes") ? null : "no recovery metrics");
    assertEquals(expected, num(rec, "LastRecoveryInodes"));
    assertEquals(expected, num(rec, "LiveInodes"));
    assertEquals(expected, filesTotal(nn));
    assertTrue(num(rec, "LastRecoveryPagesScanned") >= expected);
    double total = dbl(rec, "LastRecoveryMillis");
    double scan = dbl(rec, "LastRecoveryScanMillis");
    double rebuild = dbl(rec, "LastRecoveryRebuildMillis");
    assertTrue(
        "recovery " + total + " ms = scan " + scan + " + rebuild " + rebuild + " + open",
        total > 0 && scan > 0 && rebuild > 0 && scan + rebuild <= total);
    assertEquals(
        "a clean shutdown leaves no undo record", 0, num(rec, "LastRecoveryUndoRolledBack"));
    assertEquals(0, num(rec, "LastRecoveryUndoEntriesApplied"));
    assertCacheGauges(rec);
    System.out.println(
        "recovery after restart: "
            + total
            + " ms (scan "
            + scan
            + ", rebuild "
            + rebuild
            + ") for "
            + expected
            + " inodes; bean "
            + text(rec, "name"));
    assertNotNull(cluster.getFileSystem().getFileStatus(new Path("/m/file")));
  }

  /** The read-cache gauges come from the inode cache: all five, within its capacity. */
  private static void assertCacheGauges(Map<String, JsonNode> b) {
    String[] names = {
      "InodeCacheSize",
      "InodeCacheCapacity",
      "InodeCacheHits",
      "InodeCacheMisses",
      "InodeCacheEvictions"
    };
    int present = 0;
    for (String n : names) {
      present += b.containsKey(n) ? 1 : 0;
    }
    assertEquals("cache gauges present", 5, present);
    assertTrue(num(b, "InodeCacheCapacity") > 0);
  }
}
