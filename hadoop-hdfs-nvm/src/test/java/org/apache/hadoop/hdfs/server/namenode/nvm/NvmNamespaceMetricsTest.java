package org.apache.hadoop.hdfs.server.namenode.nvm;

import static org.apache.hadoop.hdfs.server.namenode.nvm.StoreOps.*;
import static org.junit.Assert.*;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.junit.Rule;
import org.junit.Test;

/**
 * The metrics source on a real region, snapshotted directly (the NameNode-level test reads the same
 * values over HTTP from /jmx): values follow the region, the read-cache gauges appear only once a
 * cache is attached, recovery metrics only for a region that was recovered.
 */
public class NvmNamespaceMetricsTest {
  @Rule public ShmDir shm = new ShmDir();

  private static RecordingCollector snapshot(NvmNamespaceMetrics m) {
    RecordingCollector c = new RecordingCollector();
    m.getMetrics(c, true);
    return c;
  }

  private static Configuration conf(String intervals) {
    Configuration conf = new Configuration(false);
    conf.set(DFSConfigKeys.DFS_METRICS_PERCENTILES_INTERVALS_KEY, intervals);
    return conf;
  }

  @Test
  public void publishesTheRegionsStateAndItsPersists() throws Exception {
    try (InodeStore s = shm.createStore("r", ShmDir.MEDIUM)) {
      NvmNamespaceMetrics m = new NvmNamespaceMetrics(conf("60"), s, null);
      RecordingCollector a = snapshot(m);
      assertEquals(1, a.records);
      assertEquals("dfs", a.tags.get("Context"));
      assertEquals("emulated", a.tags.get("PersistMode"));
      assertEquals(shm.file("r").getAbsolutePath(), a.tags.get("RegionPath"));
      assertEquals(ShmDir.MEDIUM, a.value("RegionSizeBytes"));
      long total = a.value("PagesTotal");
      assertEquals(total, a.value("PagesUsed") + a.value("PagesFree") + a.value("PagesReserved"));
      assertEquals(a.value("PagesUsed") * RegionLayout.PAGE_SIZE, a.value("BytesUsed"));
      assertEquals(a.value("PagesFree") * RegionLayout.PAGE_SIZE, a.value("BytesFree"));
      assertEquals(1, a.value("LiveInodes"));
      assertEquals("format was the one persist", 1, a.value("Persists"));

      int n = 50;
      for (int i = 0; i < n; i++) {
        createInode(s, s.rootPage(), InodeAttrs.directory("d" + i));
      }
      RecordingCollector b = snapshot(m);
      assertEquals(1 + n, b.value("LiveInodes"));
      assertEquals(1 + n, b.value("Persists"));
      assertTrue(b.isCounter.get("Persists"));
      assertTrue(
          "pages used grew by at least one per directory",
          b.value("PagesUsed") >= a.value("PagesUsed") + n);
      assertEquals(total, b.value("PagesUsed") + b.value("PagesFree") + b.value("PagesReserved"));
      assertTrue(b.value("PersistBarriers") > a.value("PersistBarriers"));
      assertTrue(
          "a new directory's page image alone is 256 bytes",
          b.value("PersistBatchBytes") >= a.value("PersistBatchBytes") + 256L * n);
      assertTrue(b.value("JniCalls") >= a.value("JniCalls") + n);
      assertEquals("the rate counts every persist", 1 + n, b.value("PersistNanosNumOps"));
      assertTrue("mean persist latency > 0", b.doubleValue("PersistNanosAvgTime") > 0);
      assertEquals(0, b.value("PersistSamplesSkipped"));
      assertTrue(
          "quantiles over 60 s are published",
          b.values.containsKey("PersistNanos60s99thPercentileLatency"));
      assertFalse("no recovery happened", b.values.containsKey("LastRecoveryMillis"));
      assertFalse("no read cache attached", b.values.containsKey("InodeCacheSize"));
    }
  }

  @Test
  public void cacheGaugesAppearOnlyOnceACacheIsAttached() throws Exception {
    try (InodeStore s = shm.createStore("r", ShmDir.MEDIUM)) {
      NvmNamespaceMetrics m = new NvmNamespaceMetrics(conf(""), s, null);
      for (String k : snapshot(m).values.keySet()) {
        assertFalse("published without a cache: " + k, k.startsWith("InodeCache"));
      }
      final long[] v = {7, 100, 40, 9, 3};
      m.setInodeCacheStats(
          new InodeCacheStats() {
            public long size() {
              return v[0];
            }

            public long capacity() {
              return v[1];
            }

            public long hits() {
              return v[2];
            }

            public long misses() {
              return v[3];
            }

            public long evictions() {
              return v[4];
            }
          });
      RecordingCollector c = snapshot(m);
      assertEquals(7, c.value("InodeCacheSize"));
      assertEquals(100, c.value("InodeCacheCapacity"));
      assertEquals(40, c.value("InodeCacheHits"));
      assertEquals(9, c.value("InodeCacheMisses"));
      assertEquals(3, c.value("InodeCacheEvictions"));
      v[2] = 41;
      assertEquals("read at every snapshot", 41, snapshot(m).value("InodeCacheHits"));
      m.setInodeCacheStats(null);
      assertFalse(snapshot(m).values.containsKey("InodeCacheHits"));
    }
  }

  @Test
  public void recoveryMetricsComeFromTheRecoveryOfAReopenedRegion() throws Exception {
    try (InodeStore s = shm.createStore("r", ShmDir.MEDIUM)) {
      for (int i = 0; i < 30; i++) {
        createInode(s, s.rootPage(), InodeAttrs.file("f" + i));
      }
    }
    try (InodeStore s = shm.reopen("r")) {
      RecoveryReport rep = s.region().recovery();
      LastRecovery rec =
          new LastRecovery(rep, 5_000_000, 2_000_000, s.region().recoveredInodes().length);
      NvmNamespaceMetrics m = new NvmNamespaceMetrics(conf(""), s, rec);
      RecordingCollector c = snapshot(m);
      assertEquals(31, c.value("LastRecoveryInodes"));
      assertEquals(rep.pagesScanned(), c.value("LastRecoveryPagesScanned"));
      assertTrue(rep.pagesScanned() >= 31);
      assertEquals(5.0, c.doubleValue("LastRecoveryMillis"), 1e-9);
      assertEquals(2.0, c.doubleValue("LastRecoveryRebuildMillis"), 1e-9);
      assertEquals(rep.elapsedNanos() / 1e6, c.doubleValue("LastRecoveryScanMillis"), 1e-9);
      assertEquals(0, c.value("LastRecoveryUndoRolledBack"));
      assertEquals(31, c.value("LiveInodes"));
      assertEquals(0, c.value("Persists"));
      assertFalse(
          "no quantile intervals configured", c.values.containsKey("PersistNanos60sNumOps"));
    }
  }

  @Test
  public void registersWithTheMetricsSystemAndNeverStopsAStartOnAClash() throws Exception {
    org.apache.hadoop.metrics2.MetricsSystem ms =
        org.apache.hadoop.metrics2.lib.DefaultMetricsSystem.initialize("NvmMetricsTest");
    try (InodeStore s = shm.createStore("r", ShmDir.MEDIUM);
        InodeStore t = shm.createStore("t", ShmDir.MEDIUM)) {
      assertFalse(org.apache.hadoop.metrics2.lib.DefaultMetricsSystem.inMiniClusterMode());
      NvmNamespaceMetrics m = NvmNamespaceMetrics.register(conf(""), s, null);
      assertEquals(NvmNamespaceMetrics.SOURCE_NAME, m.registeredName());
      assertSame(m, ms.getSource(NvmNamespaceMetrics.SOURCE_NAME));
      // a second source of the same name outside a MiniDFSCluster: refused by the metrics system,
      // logged, not thrown
      NvmNamespaceMetrics second = NvmNamespaceMetrics.register(conf(""), t, null);
      assertNull(second.registeredName());
      assertSame("the first one stays", m, ms.getSource(NvmNamespaceMetrics.SOURCE_NAME));
      assertEquals(0, snapshot(second).records);
      m.unregister();
      assertNull(ms.getSource(NvmNamespaceMetrics.SOURCE_NAME));
    } finally {
      org.apache.hadoop.metrics2.lib.DefaultMetricsSystem.shutdown();
    }
  }

  @Test
  public void publishesNothingOnceUnregistered() throws Exception {
    try (InodeStore s = shm.createStore("r", ShmDir.MEDIUM)) {
      NvmNamespaceMetrics m = new NvmNamespaceMetrics(conf(""), s, null);
      m.unregister();
      RecordingCollector c = snapshot(m);
      assertEquals(0, c.records);
    }
  }
}
