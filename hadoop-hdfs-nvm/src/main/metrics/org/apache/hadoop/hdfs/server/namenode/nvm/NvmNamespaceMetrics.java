package org.apache.hadoop.hdfs.server.namenode.nvm;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.metrics2.MetricsCollector;
import org.apache.hadoop.metrics2.MetricsException;
import org.apache.hadoop.metrics2.MetricsInfo;
import org.apache.hadoop.metrics2.MetricsRecordBuilder;
import org.apache.hadoop.metrics2.MetricsSource;
import org.apache.hadoop.metrics2.MetricsSystem;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.metrics2.lib.Interns;
import org.apache.hadoop.metrics2.lib.MetricsRegistry;
import org.apache.hadoop.metrics2.lib.MutableQuantiles;
import org.apache.hadoop.metrics2.lib.MutableRate;

/**
 * The metrics2 source of an NVM NameNode's region, published as {@code
 * Hadoop:service=NameNode,name=NvmNamespace} (JMX, {@code /jmx}) next to the stock {@code
 * NameNodeActivity} and {@code FSNamesystemState}: persistence mode, region size, pages and bytes
 * used and free, live inodes, persists with their latency (a rate always, quantiles for every
 * interval of {@code dfs.metrics.percentiles.intervals}), undo-logged persists, persist barriers,
 * JNI calls, the last recovery, and the inode read cache once one is attached. Names and meanings:
 * docs/operator-guide.md, "Monitoring".
 *
 * <p>The persist path only bumps lock-free counters and writes a latency sample into a {@link
 * LatencyRing}; a shared daemon thread drains the samples into the quantile estimators once a
 * second (and every snapshot drains too), so the quantile windows are right to about a second.
 */
public final class NvmNamespaceMetrics implements MetricsSource {
  static final Log LOG = LogFactory.getLog(NvmNamespaceMetrics.class);

  /**
   * The source (and JMX bean) name; a second one in the same JVM (MiniDFSCluster) gets "-1" etc.
   */
  public static final String SOURCE_NAME = "NvmNamespace";

  static final long DRAIN_PERIOD_MS = 1000;

  private static final ScheduledExecutorService DRAINER =
      Executors.newSingleThreadScheduledExecutor(
          new ThreadFactory() {
            @Override
            public Thread newThread(Runnable r) {
              Thread t = new Thread(r, "NvmNamespaceMetrics-drain");
              t.setDaemon(true);
              return t;
            }
          });

  private final MetricsRegistry registry = new MetricsRegistry(SOURCE_NAME);
  private final InodeStore store;
  private final Region region;
  private final RegionStats stats;
  private final LastRecovery recovery;
  private final MutableRate persistRate;
  private final MutableQuantiles[] persistQuantiles;
  private final RegionMetricsInfo info = RegionMetricsInfo.INSTANCE;
  private volatile InodeCacheStats cache;

  // guarded by this
  private long ratedPersists;
  private long ratedNanos;
  private long samplesSkipped;
  private boolean closed;
  private String registeredName;
  private ScheduledFuture<?> drainTask;

  /**
   * A source for {@code store}'s region; {@code recovery} is null when the region was created at
   * this start (nothing was recovered, so no recovery metrics are published).
   */
  public NvmNamespaceMetrics(Configuration conf, InodeStore store, LastRecovery recovery) {
    this.store = store;
    this.region = store.region();
    this.stats = region.stats();
    this.recovery = recovery;
    registry.setContext("dfs");
    registry.tag(info.regionPath, region.file().getAbsolutePath());
    registry.tag(info.persistMode, region.persistMode().configName());
    registry.tag(info.pmemIsPmem, Boolean.toString(region.isPmem()));
    String ns = conf.getTrimmed(DFSConfigKeys.DFS_NAMESERVICE_ID);
    if (ns != null && !ns.isEmpty()) {
      registry.tag(info.nameserviceId, ns);
    }
    persistRate =
        registry.newRate(
            "PersistNanos", "Persists (nvm_apply calls) and their latency in ns", false);
    int[] intervals = conf.getInts(DFSConfigKeys.DFS_METRICS_PERCENTILES_INTERVALS_KEY);
    persistQuantiles = new MutableQuantiles[intervals.length];
    for (int i = 0; i < intervals.length; i++) {
      int s = intervals[i];
      persistQuantiles[i] =
          registry.newQuantiles(
              "persistNanos" + s + "s",
              "Persist latency in ns, quantiles over " + s + " s",
              "ops",
              "latency",
              s);
    }
  }

  /**
   * Creates the source for {@code store} and registers it with the default metrics system. A source
   * the metrics system refuses (a name clash outside a MiniDFSCluster) is logged and left
   * unpublished: metrics never stop a NameNode from starting.
   */
  public static NvmNamespaceMetrics register(
      Configuration conf, InodeStore store, LastRecovery recovery) {
    return register(conf, store, recovery, null);
  }

  /**
   * As {@link #register(Configuration, InodeStore, LastRecovery)}, with the inode cache attached
   * before the source starts: JMX fixes a bean's attributes from its first snapshot.
   */
  public static NvmNamespaceMetrics register(
      Configuration conf, InodeStore store, LastRecovery recovery, InodeCacheStats cache) {
    NvmNamespaceMetrics m = new NvmNamespaceMetrics(conf, store, recovery);
    if (cache != null) {
      m.setInodeCacheStats(cache);
    }
    try {
      m.start(DefaultMetricsSystem.instance());
    } catch (MetricsException e) {
      LOG.warn("NVM namespace metrics are not published: " + e.getMessage(), e);
      m.unregister();
    }
    return m;
  }

  synchronized void start(MetricsSystem ms) {
    ms.register(SOURCE_NAME, "NVM namespace region of the NameNode", this);
    registeredName = nameOf(ms);
    drainTask =
        DRAINER.scheduleWithFixedDelay(
            new Runnable() {
              @Override
              public void run() {
                drain();
              }
            },
            DRAIN_PERIOD_MS,
            DRAIN_PERIOD_MS,
            TimeUnit.MILLISECONDS);
  }

  /**
   * The name the metrics system gave this source: {@link #SOURCE_NAME} in a NameNode process; in a
   * MiniDFSCluster (several NameNodes, restarts in one JVM) a later one is "NvmNamespace-k".
   */
  private String nameOf(MetricsSystem ms) {
    for (int k = 0; k < 100000; k++) {
      String n = k == 0 ? SOURCE_NAME : SOURCE_NAME + "-" + k;
      if (ms.getSource(n) == this) {
        return n;
      }
    }
    LOG.warn(
        "metrics source " + SOURCE_NAME + " registered under an unknown name; it stays registered");
    return null;
  }

  /** The name the source was registered under (the JMX bean's {@code name=}). */
  public synchronized String registeredName() {
    return registeredName;
  }

  /**
   * Attaches the inode read cache whose size, capacity, hits, misses and evictions are published
   * from now on ({@code null} detaches it). Attach it while the namesystem loads: JMX lists the
   * attributes of the first snapshot after registration.
   */
  public void setInodeCacheStats(InodeCacheStats cacheStats) {
    this.cache = cacheStats;
  }

  /**
   * Stops publishing and removes the source from the metrics system. Call before the region is
   * closed: a snapshot in progress finishes first, later ones publish nothing.
   */
  public void unregister() {
    String name;
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      name = registeredName;
      if (drainTask != null) {
        drainTask.cancel(false);
      }
    }
    if (name != null) {
      try {
        DefaultMetricsSystem.instance().unregisterSource(name);
      } catch (RuntimeException e) {
        LOG.warn("could not unregister metrics source " + name, e);
      }
    }
  }

  /** Moves new persists into the rate and new latency samples into the quantile estimators. */
  synchronized void drain() {
    if (closed) {
      return;
    }
    // Counts and sums are read before the samples: a persist that lands in between is in the
    // ring but not yet in the rate, and is rated at the next drain.
    long n = stats.persists();
    long nanos = stats.persistNanos();
    if (n > ratedPersists) {
      persistRate.add(n - ratedPersists, nanos - ratedNanos);
      ratedPersists = n;
      ratedNanos = nanos;
    }
    samplesSkipped +=
        stats
            .latencies()
            .drain(
                new LatencyRing.Sink() {
                  @Override
                  public void accept(long v) {
                    for (MutableQuantiles q : persistQuantiles) {
                      q.add(v);
                    }
                  }
                });
  }

  @Override
  public synchronized void getMetrics(MetricsCollector collector, boolean all) {
    if (closed || region.isClosed()) {
      return;
    }
    drain();
    MetricsRecordBuilder b = collector.addRecord(registry.info());
    registry.snapshot(b, all); // context, tags, the persist rate and quantiles
    RegionUsage u = region.usage();
    long page = RegionLayout.PAGE_SIZE;
    b.addGauge(info.regionSizeBytes, region.size())
        .addGauge(info.pagesTotal, u.pagesTotal())
        .addGauge(info.pagesUsed, u.pagesUsed())
        .addGauge(info.pagesFree, u.pagesFree())
        .addGauge(info.pagesReserved, u.pagesReserved())
        .addGauge(info.pagesHighWater, u.highWater())
        .addGauge(info.bytesUsed, u.pagesUsed() * page)
        .addGauge(info.bytesFree, u.pagesFree() * page)
        .addGauge(info.liveInodes, store.liveInodes())
        .addCounter(info.persists, stats.persists())
        .addCounter(info.persistBatchBytes, stats.persistBytes())
        .addCounter(info.undoLoggedPersists, stats.undoLoggedPersists())
        .addCounter(info.groupCommits, stats.syncs())
        .addCounter(info.groupCommitNanos, stats.syncNanos())
        .addCounter(info.persistBarriers, region.barrierCount())
        .addCounter(info.persistSamplesSkipped, samplesSkipped)
        .addCounter(info.jniCalls, stats.jniCalls());
    if (recovery != null) {
      RecoveryReport r = recovery.report();
      b.addGauge(info.lastRecoveryMillis, recovery.totalNanos() / 1e6)
          .addGauge(info.lastRecoveryScanMillis, r.elapsedNanos() / 1e6)
          .addGauge(info.lastRecoveryRebuildMillis, recovery.rebuildNanos() / 1e6)
          .addGauge(info.lastRecoveryPagesScanned, r.pagesScanned())
          .addGauge(info.lastRecoveryInodes, recovery.inodesRebuilt())
          .addGauge(info.lastRecoveryUndoRolledBack, r.undoRolledBack() ? 1 : 0)
          .addGauge(info.lastRecoveryUndoEntriesApplied, r.undoEntries())
          .addGauge(info.lastRecoveryPendingDiscarded, r.pendingDiscarded())
          .addGauge(info.lastRecoveryOrphansReclaimed, r.orphansReclaimed())
          .addGauge(info.lastRecoveryExtReclaimed, r.extReclaimed())
          .addGauge(info.lastRecoveryStringsReclaimed, r.stringsReclaimed());
    }
    LogStats log = region.logStats();
    if (log != null) { // the disk mode's write-ahead log (region-format.md §12)
      b.addGauge(info.logCapacityBytes, log.capacity())
          .addGauge(info.logUsedBytes, log.used())
          .addCounter(info.logRecords, log.records())
          .addCounter(info.logSyncs, log.syncs())
          .addCounter(info.logSyncNanos, log.syncNanos())
          .addCounter(info.logBytesWritten, log.bytes())
          .addCounter(info.checkpoints, log.checkpoints())
          .addCounter(info.checkpointNanos, log.checkpointNanos());
      if (recovery != null) {
        RecoveryReport r = recovery.report();
        b.addGauge(info.lastRecoveryLogRecords, r.logRecords())
            .addGauge(info.lastRecoveryLogBytes, r.logBytes());
      }
    }
    InodeCacheStats c = cache;
    if (c != null) {
      b.addGauge(info.inodeCacheSize, c.size())
          .addGauge(info.inodeCacheCapacity, c.capacity())
          .addCounter(info.inodeCacheHits, c.hits())
          .addCounter(info.inodeCacheMisses, c.misses())
          .addCounter(info.inodeCacheEvictions, c.evictions());
    }
  }

  /** Names and descriptions of the metrics computed at snapshot time. */
  static final class RegionMetricsInfo {
    static final RegionMetricsInfo INSTANCE = new RegionMetricsInfo();

    final MetricsInfo regionPath = i("RegionPath", "The region file");
    final MetricsInfo persistMode =
        i("PersistMode", "How changes are made durable: pmem, emulated or disk");
    final MetricsInfo pmemIsPmem = i("PmemIsPmem", "What pmem_is_pmem reported for the mapping");
    final MetricsInfo nameserviceId =
        i("NameserviceId", "The nameservice of this NameNode (federation)");
    final MetricsInfo regionSizeBytes = i("RegionSizeBytes", "Size of the region file in bytes");
    final MetricsInfo pagesTotal = i("PagesTotal", "256-byte pages in the data area");
    final MetricsInfo pagesUsed =
        i("PagesUsed", "Pages holding live inodes, extension and string pages");
    final MetricsInfo pagesFree = i("PagesFree", "Pages neither used nor reserved");
    final MetricsInfo pagesReserved =
        i("PagesReserved", "Pages reserved by the NameNode's page pool, not yet used");
    final MetricsInfo pagesHighWater =
        i("PagesHighWater", "Pages at or above this index were never used");
    final MetricsInfo bytesUsed = i("BytesUsed", "PagesUsed times the page size");
    final MetricsInfo bytesFree = i("BytesFree", "PagesFree times the page size");
    final MetricsInfo liveInodes = i("LiveInodes", "Live inodes in the region, the root included");
    final MetricsInfo persists =
        i(
            "Persists",
            "Batches written (one nvm_stage with group commit, else one nvm_apply), since start");
    final MetricsInfo groupCommits =
        i(
            "GroupCommits",
            "Group commits (nvm_sync calls: each commits the batches staged before it), since start");
    final MetricsInfo groupCommitNanos =
        i("GroupCommitNanos", "Time spent in group commits (wall clock, ns), since start");
    final MetricsInfo persistBatchBytes =
        i(
            "PersistBatchBytes",
            "Bytes of the batches persisted (page images, changed words, entry headers), since start");
    final MetricsInfo undoLoggedPersists =
        i(
            "UndoLoggedPersists",
            "Persists committed through the undo log (the rest were one atomic 8-byte store)");
    final MetricsInfo persistBarriers =
        i("PersistBarriers", "Persist barriers (drains) issued since start");
    final MetricsInfo persistSamplesSkipped =
        i(
            "PersistSamplesSkipped",
            "Persist latencies left out of the quantiles (more than the sample ring holds per drain)");
    final MetricsInfo jniCalls = i("JniCalls", "Native calls into libhdfsnvm, since start");
    final MetricsInfo lastRecoveryMillis =
        i(
            "LastRecoveryMillis",
            "Start-up: region open, validation, recovery and namespace rebuild, in ms");
    final MetricsInfo lastRecoveryScanMillis =
        i("LastRecoveryScanMillis", "Start-up: native recovery scan, in ms");
    final MetricsInfo lastRecoveryRebuildMillis =
        i(
            "LastRecoveryRebuildMillis",
            "Start-up: rebuild of the in-memory namespace from the recovered inodes, in ms");
    final MetricsInfo lastRecoveryPagesScanned =
        i("LastRecoveryPagesScanned", "Start-up: pages the recovery scanned");
    final MetricsInfo lastRecoveryInodes =
        i("LastRecoveryInodes", "Start-up: inodes recovered and rebuilt");
    final MetricsInfo lastRecoveryUndoRolledBack =
        i(
            "LastRecoveryUndoRolledBack",
            "Start-up: 1 if an interrupted batch was rolled back from the undo record");
    final MetricsInfo lastRecoveryUndoEntriesApplied =
        i("LastRecoveryUndoEntriesApplied", "Start-up: undo entries restored by that roll-back");
    final MetricsInfo lastRecoveryPendingDiscarded =
        i(
            "LastRecoveryPendingDiscarded",
            "Start-up: pages written by a batch that never committed, discarded");
    final MetricsInfo lastRecoveryOrphansReclaimed =
        i(
            "LastRecoveryOrphansReclaimed",
            "Start-up: inode pages not reachable from the root, reclaimed");
    final MetricsInfo lastRecoveryExtReclaimed =
        i(
            "LastRecoveryExtReclaimed",
            "Start-up: extension pages no live inode links to, reclaimed");
    final MetricsInfo lastRecoveryStringsReclaimed =
        i(
            "LastRecoveryStringsReclaimed",
            "Start-up: string pages no live inode refers to, reclaimed");
    final MetricsInfo logCapacityBytes =
        i("LogCapacityBytes", "Disk mode: bytes of the write-ahead log's ring");
    final MetricsInfo logUsedBytes =
        i(
            "LogUsedBytes",
            "Disk mode: log bytes written since the last checkpoint (what a restart replays)");
    final MetricsInfo logRecords =
        i("LogRecords", "Disk mode: group records written to the log, since start");
    final MetricsInfo logSyncs =
        i("LogSyncs", "Disk mode: fdatasync calls of the log (one per group commit), since start");
    final MetricsInfo logSyncNanos =
        i("LogSyncNanos", "Disk mode: time in those fdatasync calls (ns), since start");
    final MetricsInfo logBytesWritten =
        i("LogBytesWritten", "Disk mode: bytes written to the log, since start");
    final MetricsInfo checkpoints =
        i("Checkpoints", "Disk mode: checkpoints of the region file, since start");
    final MetricsInfo checkpointNanos =
        i("CheckpointNanos", "Disk mode: time the checkpoints took (ns), since start");
    final MetricsInfo lastRecoveryLogRecords =
        i("LastRecoveryLogRecords", "Start-up, disk mode: log records replayed");
    final MetricsInfo lastRecoveryLogBytes =
        i("LastRecoveryLogBytes", "Start-up, disk mode: bytes of the log records replayed");
    final MetricsInfo inodeCacheSize = i("InodeCacheSize", "Inodes in the read cache");
    final MetricsInfo inodeCacheCapacity =
        i("InodeCacheCapacity", "Most inodes the read cache holds");
    final MetricsInfo inodeCacheHits = i("InodeCacheHits", "Lookups answered from the read cache");
    final MetricsInfo inodeCacheMisses =
        i("InodeCacheMisses", "Lookups that materialized an inode from its page");
    final MetricsInfo inodeCacheEvictions =
        i("InodeCacheEvictions", "Inodes dropped from the read cache");

    private static MetricsInfo i(String name, String description) {
      return Interns.info(name, description);
    }
  }
}
