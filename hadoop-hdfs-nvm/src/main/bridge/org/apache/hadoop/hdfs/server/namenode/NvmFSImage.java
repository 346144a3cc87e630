package org.apache.hadoop.hdfs.server.namenode;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DFSUtil;
import org.apache.hadoop.hdfs.HAUtil;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.hdfs.server.common.HdfsServerConstants.StartupOption;
import org.apache.hadoop.hdfs.server.common.Storage.StorageDirectory;
import org.apache.hadoop.hdfs.server.common.Storage.StorageState;
import org.apache.hadoop.hdfs.server.namenode.NNStorage.NameNodeDirType;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeStore;
import org.apache.hadoop.hdfs.server.namenode.nvm.LastRecovery;
import org.apache.hadoop.hdfs.server.namenode.nvm.LogStats;
import org.apache.hadoop.hdfs.server.namenode.nvm.NvmConfigKeys;
import org.apache.hadoop.hdfs.server.namenode.nvm.NvmException;
import org.apache.hadoop.hdfs.server.namenode.nvm.NvmNamespaceMetrics;
import org.apache.hadoop.hdfs.server.namenode.nvm.PersistMode;
import org.apache.hadoop.hdfs.server.namenode.nvm.RecoveryReport;
import org.apache.hadoop.hdfs.server.namenode.nvm.Region;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionIdentity;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionOptions;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionStats;
import org.apache.hadoop.hdfs.util.Canceler;

/**
 * The FSImage of an NVM NameNode. Its edit log is an {@link NvmFSEditLog} on a {@link
 * NullJournalManager}; {@link #recoverTransitionRead} does not load an fsimage or replay edits but
 * opens the region (validation and crash recovery happen natively) and rebuilds the in-memory
 * namespace from one pass over its live inode pages.
 */
class NvmFSImage extends FSImage {
  static final Log LOG = LogFactory.getLog(NvmFSImage.class);
  private static final Pattern IMAGE_FILE = Pattern.compile("fsimage_(\\d+)");

  private volatile NvmWriteThrough writeThrough;
  private volatile NvmNamespaceMetrics metrics;

  /** Disk mode: the checkpoint at JVM shutdown; removed at close (under this image's monitor). */
  private NvmCheckpointAtExit checkpointAtExit;

  private final Configuration nvmConf;
  private final NvmRollbackImageGuard rollbackGuard;

  /** HA: ops go to the shared journal too, and a standby tails it (docs/ha.md). */
  private final boolean ha;

  NvmFSImage(Configuration conf, Collection<URI> imageDirs, List<URI> editsDirs)
      throws IOException {
    super(conf, imageDirs, editsDirs);
    this.nvmConf = conf;
    // The stock constructor built plain storage and a file-journal edit log over it; nothing was
    // opened or locked yet, so both are replaced before anything uses them.
    NvmNNStorage nvmStorage = new NvmNNStorage(conf, imageDirs, editsDirs);
    nvmStorage.setRestoreFailedStorage(storage.getRestoreFailedStorage());
    this.storage = nvmStorage;
    this.ha = HAUtil.isHAEnabled(conf, DFSUtil.getNamenodeNameServiceId(conf));
    this.editLog = new NvmFSEditLog(conf, storage, ha);
    this.archivalManager = new NNStorageRetentionManager(conf, storage, editLog);
    // With HA the shared journal holds every edit, so an fsimage and the edits after it are the
    // namespace, as for the stock NameNode: images are served and uploaded as stock (docs/ha.md)
    this.rollbackGuard = ha ? null : new NvmRollbackImageGuard(storage);
    nvmStorage.setGuard(rollbackGuard);
    ((NvmFSEditLog) editLog).setRollbackGuard(rollbackGuard);
  }

  /**
   * HA standby: the tailer's edits go through the stock loader into memory and, op by op, through
   * {@link NvmEditApplier} into the region. The stock {@code loadEdits} also recounts every
   * directory's quota usage afterwards, a walk of the whole namespace that would materialize every
   * file of the slim namespace at each tail; the loader's ops keep the counts as they apply, as the
   * active's operations do, so this one does not.
   */
  @Override
  public long loadEdits(Iterable<EditLogInputStream> editStreams, FSNamesystem target)
      throws IOException {
    NvmEditApplier applier = new NvmEditApplier(target, (NvmFSEditLog) editLog);
    long before = lastAppliedTxId;
    try {
      FSEditLogLoader loader = new FSEditLogLoader(target, lastAppliedTxId);
      for (EditLogInputStream in : editStreams) {
        LOG.info("Reading " + in + " expecting start txid #" + (lastAppliedTxId + 1));
        try {
          loader.loadFSEdits(new NvmTailedEditStream(in, applier), lastAppliedTxId + 1);
        } finally {
          lastAppliedTxId = loader.getLastAppliedTxId();
        }
      }
    } finally {
      FSEditLog.closeAllStreams(editStreams);
      syncRegion(); // the applied ops' batches were staged (group commit): into the region now
    }
    return lastAppliedTxId - before;
  }

  /** Makes every staged batch durable (docs/region-format.md §7.7). */
  private void syncRegion() throws IOException {
    NvmWriteThrough w = writeThrough;
    if (w != null) {
      w.store().syncAll();
    }
  }

  /**
   * The stock save (dfsadmin -saveNamespace, the offline export), then seen_txid set so that the
   * stock NameNode can load the image until the namespace changes ({@link NvmRollbackImageGuard}).
   */
  @Override
  public synchronized void saveNamespace(
      FSNamesystem source, NNStorage.NameNodeFile nnf, Canceler canceler) throws IOException {
    super.saveNamespace(source, nnf, canceler);
    if (nnf == NNStorage.NameNodeFile.IMAGE && rollbackGuard != null) {
      rollbackGuard.imageSaved(storage.getMostRecentCheckpointTxId());
    }
  }

  NvmWriteThrough writeThrough() {
    return writeThrough;
  }

  /** The region's metrics source (registered once the namespace is loaded), else null. */
  NvmNamespaceMetrics metrics() {
    return metrics;
  }

  /**
   * The region file: the configured path, else {@code <first name
   * dir>/current/nvm-namespace.region}.
   */
  static File regionFile(Configuration conf, NNStorage storage) throws IOException {
    String p = conf.getTrimmed(NvmConfigKeys.NVM_REGION_PATH_KEY, "");
    if (!p.isEmpty()) {
      return new File(p);
    }
    Iterator<StorageDirectory> it = storage.dirIterator(NameNodeDirType.IMAGE);
    if (!it.hasNext()) {
      throw new IOException(
          "NVM NameNode: no name directory to put the region in; set "
              + NvmConfigKeys.NVM_REGION_PATH_KEY);
    }
    return new File(it.next().getCurrentDir(), NvmConfigKeys.REGION_DEFAULT_FILE_NAME);
  }

  /**
   * The stock FSImage learns whether an upgrade is finalized while it loads an fsimage, which this
   * one never does; until then it reports "not finalized", which makes 2.7.3's truncate copy the
   * last block instead of truncating it in place and makes {@code UpgradeFinalized} false in JMX. A
   * name directory without a {@code previous} directory has nothing to finalize (NVM mode refuses
   * -upgrade); finalizing it is then only setting the flag.
   */
  private void markUpgradeFinalized() throws IOException {
    for (Iterator<StorageDirectory> it = storage.dirIterator(false); it.hasNext(); ) {
      if (it.next().getPreviousDir().exists()) {
        return; // an unfinalized upgrade, as the stock NameNode would report it
      }
    }
    finalizeUpgrade(false);
  }

  @Override
  boolean recoverTransitionRead(
      StartupOption startOpt, FSNamesystem target, MetaRecoveryContext recovery)
      throws IOException {
    if (startOpt != StartupOption.REGULAR) {
      throw new IOException("NVM NameNode: startup option " + startOpt + " is not supported");
    }
    Map<StorageDirectory, StorageState> states = new HashMap<StorageDirectory, StorageState>();
    if (!recoverStorageDirs(startOpt, storage, states)) {
      throw new IOException("NameNode is not formatted.");
    }
    if (storage.getLayoutVersion() != HdfsConstants.NAMENODE_LAYOUT_VERSION) {
      throw new IOException(
          "NVM NameNode: the name directory has layout version "
              + storage.getLayoutVersion()
              + ", this NameNode "
              + HdfsConstants.NAMENODE_LAYOUT_VERSION
              + "; upgrades are not supported in NVM mode");
    }
    target.setBlockPoolId(getBlockPoolID());
    markUpgradeFinalized();
    if (ha) {
      noteNewestImage();
    }
    File file = regionFile(nvmConf, storage);
    RegionIdentity expected =
        new RegionIdentity(
            storage.getNamespaceID(), storage.getClusterID(), storage.getBlockPoolID());
    PersistMode mode = NvmRegionConf.mode(nvmConf);
    RegionOptions options = NvmRegionConf.options(nvmConf);
    long start = System.nanoTime();
    InodeStore store;
    boolean created = false;
    if (file.exists()) {
      Region region;
      try {
        region = // validation + crash recovery; refuses a bad file untouched
            Region.open(file, mode, options);
      } catch (NvmException e) {
        throw NvmRefusalDetail.explain(file, options.logFileOf(file), e);
      }
      RegionIdentity found = region.identity();
      if (!expected.equals(found)) {
        region.close();
        throw new IOException(
            "NVM NameNode: region "
                + file
                + " belongs to another namespace: region has "
                + found
                + ", the name directory's VERSION has "
                + expected
                + ". Refusing to start; point "
                + NvmConfigKeys.NVM_REGION_PATH_KEY
                + " at this namespace's region,"
                + " or, if the name directory was re-formatted on purpose, remove "
                + file
                + " (its namespace is discarded) so that a new region is created");
      }
      try {
        if (!ha) { // with HA, haPrecheck compared the region with the shared journal
          NvmStaleRegionCheck.refuseIfStale(storage, file, region.lastTxId());
        }
      } catch (IOException e) {
        region.close();
        throw e;
      }
      store = InodeStore.open(region);
    } else {
      long txid = namespaceTxId();
      if (txid > 0) {
        throw new IOException(
            "NVM NameNode: no region at "
                + file
                + ", but the name directory already holds a "
                + "namespace (fsimage/seen_txid up to transaction "
                + txid
                + "). Enabling NVM mode on an existing "
                + "namespace requires importing it into a region first: with this NameNode stopped, run '"
                + NvmMigrationTool.IMPORT_COMMAND
                + "' (docs/migration.md); or start this NameNode with "
                + NvmConfigKeys.NVM_ENABLED_KEY
                + "=false");
      }
      long size =
          nvmConf.getLongBytes(
              NvmConfigKeys.NVM_REGION_SIZE_KEY, NvmConfigKeys.NVM_REGION_SIZE_DEFAULT);
      File dir = file.getAbsoluteFile().getParentFile();
      if (dir != null && !dir.isDirectory() && !dir.mkdirs()) {
        throw new IOException("NVM NameNode: cannot create directory " + dir + " for the region");
      }
      store = InodeStore.open(Region.create(file, size, expected, mode, options));
      created = true;
    }
    Region region = store.region();
    LOG.info(NvmRegionConf.describe(file, region));
    LastRecovery recovered = null;
    NvmWriteThrough ns = null;
    try {
      NvmTokenWriteThrough tokens;
      NvmCacheWriteThrough cache;
      int cacheCapacity =
          nvmConf.getInt(
              NvmConfigKeys.NVM_CACHE_INODES_KEY, NvmConfigKeys.NVM_CACHE_INODES_DEFAULT);
      if (created) {
        SlimNamespace slim = new SlimNamespace(target, store, new IdPageMap(), cacheCapacity);
        ns = new NvmWriteThrough(store, slim);
        ns.attach(target);
        initRegion(target, ns);
        tokens = NvmTokenWriteThrough.empty(store);
        cache = NvmCacheWriteThrough.empty(store, ns);
        ns.attachRetryLog(retryLog(nvmConf, target, store, null));
        LOG.info("NVM region " + file + " initialised for namespace " + expected);
      } else {
        RecoveryReport rep = region.recovery();
        long t0 = System.nanoTime();
        long[] live = region.recoveredInodes();
        SlimNamespace slim = new SlimNamespace(target, store, new IdPageMap(), cacheCapacity);
        ns = new NvmWriteThrough(store, slim);
        ns.attach(target);
        int threads =
            nvmConf.getInt(
                NvmConfigKeys.NVM_REBUILD_THREADS_KEY, NvmConfigKeys.NVM_REBUILD_THREADS_DEFAULT);
        SlimRebuild.Stats st =
            SlimRebuild.rebuild(
                target,
                store,
                live,
                slim,
                threads,
                SnapshotRestore.notInCurrentTree(store, region.recoveredRecords()));
        tokens = NvmTokenWriteThrough.restore(target, store, region.recoveredRecords());
        cache = NvmCacheWriteThrough.restore(target, store, ns, region.recoveredRecords());
        ns.attachTruncates(
            NvmTruncateRecords.restore(target.getFSDirectory(), store, region.recoveredRecords()));
        ns.attachSnapshots(SnapshotRestore.restore(target, store, region.recoveredRecords(), slim));
        ns.attachRetryLog(retryLog(nvmConf, target, store, region.recoveredRecords()));
        long t1 = System.nanoTime();
        recovered = new LastRecovery(rep, t1 - start, t1 - t0, live.length);
        LOG.info(
            "NVM region recovered "
                + live.length
                + " inodes in "
                + (t1 - start) / 1000000
                + " ms (scan "
                + rep.elapsedNanos() / 1000000
                + " ms, rebuild "
                + (t1 - t0) / 1000000
                + " ms: "
                + st
                + "); "
                + rep);
      }
      if (ha) {
        NvmFSEditLog log = (NvmFSEditLog) editLog;
        store.stampTxids(log::stampTxId);
        ns.orderWith(log);
      }
      this.writeThrough = ns;
      store.groupCommit(
          nvmConf.getBoolean(
              NvmConfigKeys.NVM_GROUP_COMMIT_KEY, NvmConfigKeys.NVM_GROUP_COMMIT_DEFAULT));
      // 2.7.3's only public view of the namesystem lock's queue is this accessor of its lock
      store.commitDelay(
          NvmRegionConf.commitDelayNanos(nvmConf, region.persistMode()),
          target.getFsLockForTests()::getQueueLength);
      if (store.commitDelayNanos() > 0) {
        LOG.info(
            "NVM region "
                + file
                + ": commit delay "
                + store.commitDelayNanos() / 1000
                + " us while threads queue for the namesystem lock ("
                + NvmConfigKeys.NVM_COMMIT_DELAY_KEY
                + ")");
      }
      ((NvmFSEditLog) editLog).attach(ns);
      ((NvmFSEditLog) editLog).attachTokens(tokens);
      ((NvmFSEditLog) editLog).attachCache(cache);
      initEditLog(startOpt);
      long last = region.lastTxId();
      this.lastAppliedTxId = last;
      if (ha) {
        // as a stock HA NameNode loads its image and every finalized segment after it before it
        // serves in any state (a standby then counts those edits' blocks in safe mode), the region
        // is brought up to the shared journal's finalized edits, each op persisted as it is applied
        long caughtUp = loadEdits(editLog.selectInputStreams(last + 1, 0, null, false), target);
        LOG.info(
            "NVM region "
                + file
                + ": "
                + caughtUp
                + " finalized edits after transaction "
                + last
                + " applied from the shared journal at start-up");
        last = lastAppliedTxId;
      }
      editLog.setNextTxId(last + 1);
    } catch (IOException | RuntimeException e) {
      if (ns != null && ns.retryLog() != null) {
        ns.retryLog().stopAnswering(); // before the region closes
      }
      store.close();
      throw e;
    }
    this.metrics =
        NvmNamespaceMetrics.register(nvmConf, store, recovered, writeThrough.slim().cache());
    synchronized (this) {
      checkpointAtExit = NvmCheckpointAtExit.register(this, file, region);
    }
    return false;
  }

  /**
   * HA, before the namesystem is built ({@link NvmNamesystemLoader}): whether this NameNode has a
   * region it may serve. Reads the name directories and the shared journal (this image is a probe,
   * closed afterwards); throws {@link NvmRegionRebuildNeeded} when the region must be built from
   * the newest fsimage and the journal: there is none although the name directories hold a
   * namespace (after -bootstrapStandby), or the one there is was set aside ({@link
   * NvmHaRegionGate#requireServable}).
   */
  void haPrecheck() throws IOException {
    Map<StorageDirectory, StorageState> states = new HashMap<StorageDirectory, StorageState>();
    if (!recoverStorageDirs(StartupOption.REGULAR, storage, states)) {
      throw new IOException("NameNode is not formatted.");
    }
    File file = regionFile(nvmConf, storage);
    if (!file.exists()) {
      long txid = namespaceTxId();
      if (txid > 0) {
        throw new NvmRegionRebuildNeeded(
            "no region at "
                + file
                + "; the name directory holds a namespace up to transaction "
                + txid
                + " (after -bootstrapStandby, or a region set aside)");
      }
      return; // a new namespace: the region is created empty
    }
    PersistMode mode = NvmRegionConf.mode(nvmConf);
    Region region;
    try { // crash recovery first: the txid of a committed prefix
      region = Region.open(file, mode, NvmRegionConf.options(nvmConf));
    } catch (NvmException e) {
      throw NvmRefusalDetail.explain(file, NvmRegionConf.options(nvmConf).logFileOf(file), e);
    }
    if (region.recovery().logRecords() > 0) { // the probe's close checkpoints: said here or never
      LOG.info(NvmRegionConf.describe(file, region) + " (the HA probe's open)");
    }
    try {
      NvmHaRegionGate.requireServable(region, file, editLog, storage, nvmConf);
    } finally {
      if (!region.isClosed()) {
        region.close();
      }
    }
  }

  /**
   * The retry log (NvmRetryLog) with {@link NvmConfigKeys#NVM_RETRY_LOG_ENTRIES_KEY} entries, its
   * entries restored into the retry cache; null when the retry cache is off ({@code
   * dfs.namenode.enable.retrycache=false}) or the log's size is 0. {@code records} is null for a
   * new region.
   */
  private static NvmRetryLog retryLog(
      Configuration conf, FSNamesystem fsn, InodeStore store, long[] records) throws IOException {
    int entries =
        conf.getInt(
            NvmConfigKeys.NVM_RETRY_LOG_ENTRIES_KEY, NvmConfigKeys.NVM_RETRY_LOG_ENTRIES_DEFAULT);
    if (!fsn.hasRetryCache() || entries <= 0) {
      return null;
    }
    long expiry =
        conf.getLong(
            DFSConfigKeys.DFS_NAMENODE_RETRY_CACHE_EXPIRYTIME_MILLIS_KEY,
            DFSConfigKeys.DFS_NAMENODE_RETRY_CACHE_EXPIRYTIME_MILLIS_DEFAULT);
    long reserve =
        conf.getLong(
            NvmConfigKeys.NVM_RESERVED_PAGES_KEY, NvmConfigKeys.NVM_RESERVED_PAGES_DEFAULT);
    int ringPages = NvmRetryLog.ringPages(entries, store.region().pageCount());
    return NvmRetryLog.open(fsn, store, records, ringPages, expiry, reserve);
  }

  /**
   * HA: the newest fsimage in the name directories (the one from -format, or a checkpoint the
   * standby uploaded) is this NameNode's most recent checkpoint, as the stock NameNode records the
   * image it loads: a NameNode bootstrapping as standby downloads it and reads the shared journal
   * after it (BootstrapStandby), and the retention of images and edits counts from it.
   */
  private void noteNewestImage() {
    long newest = -1;
    File file = null;
    for (Iterator<StorageDirectory> it = storage.dirIterator(NameNodeDirType.IMAGE);
        it.hasNext(); ) {
      File cur = it.next().getCurrentDir();
      String[] names = cur.list();
      for (String n : names == null ? new String[0] : names) {
        Matcher m = IMAGE_FILE.matcher(n);
        if (m.matches() && Long.parseLong(m.group(1)) > newest) {
          newest = Long.parseLong(m.group(1));
          file = new File(cur, n);
        }
      }
    }
    if (file != null) {
      storage.setMostRecentCheckpointInfo(newest, file.lastModified());
    }
  }

  /** Highest transaction id the name directories know about: fsimage_N and seen_txid. */
  private long namespaceTxId() throws IOException {
    long max = 0;
    for (Iterator<StorageDirectory> it = storage.dirIterator(); it.hasNext(); ) {
      StorageDirectory sd = it.next();
      File cur = sd.getCurrentDir();
      String[] names = cur.list();
      if (names != null) {
        for (String n : names) {
          Matcher m = IMAGE_FILE.matcher(n);
          if (m.matches()) {
            max = Math.max(max, Long.parseLong(m.group(1)));
          } else if (n.startsWith("edits_")) {
            max = Math.max(max, 1);
          }
        }
      }
      if (new File(cur, "seen_txid").exists()) {
        max = Math.max(max, NNStorage.readTransactionIdFile(sd));
      }
    }
    return max;
  }

  /** (b) A new region: the root as the fresh namesystem made it, and the counters. */
  private static void initRegion(FSNamesystem fsn, NvmWriteThrough ns) throws IOException {
    INodeDirectory root = fsn.getFSDirectory().getRoot();
    InodeStore store = ns.store();
    long page =
        store.format(
            root.getModificationTime(),
            root.getFsPermissionShort(),
            root.getUserName(),
            root.getGroupName());
    ns.pages().put(root.getId(), page);
    ns.initCounters(fsn.getBlockIdManager(), fsn.getFSDirectory().getLastInodeId());
  }

  @Override
  public synchronized void close() throws IOException {
    if (checkpointAtExit != null) {
      checkpointAtExit.remove();
      checkpointAtExit = null;
    }
    try {
      super.close();
    } finally {
      NvmNamespaceMetrics m = metrics;
      metrics = null;
      if (m != null) {
        m.unregister(); // before the region closes
      }
      NvmWriteThrough ns = writeThrough;
      writeThrough = null;
      if (ns != null) {
        InodeCache c = ns.slim().cache();
        LOG.info(
            "NVM inode cache at close: "
                + c.size()
                + " of "
                + c.capacity()
                + " files, "
                + c.hits()
                + " hits, "
                + c.misses()
                + " misses, "
                + c.evictions()
                + " evictions; "
                + ns.slim().materialized()
                + " files materialized from pages");
        Region region = ns.store().region();
        RegionStats st = region.stats();
        LogStats log = region.isClosed() ? null : region.logStats();
        LOG.info(
            "NVM region at close: "
                + st.persists()
                + " batches in "
                + st.syncs()
                + " group commits ("
                + (st.syncs() == 0 ? 0 : st.syncNanos() / st.syncs() / 1000)
                + " us each on average)"
                + (log == null
                    ? ""
                    : "; write-ahead log: "
                        + log.records()
                        + " records, "
                        + log.syncs()
                        + " fdatasyncs ("
                        + (log.syncs() == 0 ? 0 : log.syncNanos() / log.syncs() / 1000)
                        + " us each on average), "
                        + log.bytes()
                        + " bytes, "
                        + log.checkpoints()
                        + " checkpoints ("
                        + log.checkpointNanos() / 1000000
                        + " ms)"));
        NvmRetryLog retry = ns.retryLog();
        if (retry != null) {
          retry.stopAnswering(); // no thread reads the region once it is closed
        }
        ns.store().close();
      }
    }
  }
}
