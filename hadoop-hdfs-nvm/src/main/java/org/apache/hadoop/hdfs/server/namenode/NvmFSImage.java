package org.apache.hadoop.hdfs.server.namenode;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.hadoop.HadoopIllegalArgumentException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.fs.XAttr;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.fs.permission.PermissionStatus;
import org.apache.hadoop.hdfs.DFSUtil;
import org.apache.hadoop.hdfs.protocol.Block;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockIdManager;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockInfoContiguous;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockInfoContiguousUnderConstruction;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockManager;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockStoragePolicySuite;
import org.apache.hadoop.hdfs.server.blockmanagement.SequentialBlockIdGenerator;
import org.apache.hadoop.hdfs.server.common.GenerationStamp;
import org.apache.hadoop.hdfs.server.common.HdfsServerConstants.StartupOption;
import org.apache.hadoop.hdfs.server.common.Storage.StorageDirectory;
import org.apache.hadoop.hdfs.server.common.Storage.StorageState;
import org.apache.hadoop.hdfs.server.namenode.NNStorage.NameNodeDirType;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeStore;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeView;
import org.apache.hadoop.hdfs.server.namenode.nvm.IdPageMap;
import org.apache.hadoop.hdfs.server.namenode.nvm.LastRecovery;
import org.apache.hadoop.hdfs.server.namenode.nvm.NvmConfigKeys;
import org.apache.hadoop.hdfs.server.namenode.nvm.NvmNamespaceMetrics;
import org.apache.hadoop.hdfs.server.namenode.nvm.PersistMode;
import org.apache.hadoop.hdfs.server.namenode.nvm.RecoveryReport;
import org.apache.hadoop.hdfs.server.namenode.nvm.Region;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionIdentity;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout;
import org.apache.hadoop.hdfs.server.namenode.nvm.StringTable;
import org.apache.hadoop.hdfs.server.namenode.snapshot.Snapshot;
import org.apache.hadoop.hdfs.util.Canceler;

import com.google.common.collect.Lists;

/**
 * The FSImage of an NVM NameNode. Its edit log is an {@link NvmFSEditLog} on a
 * {@link NullJournalManager}; {@link #recoverTransitionRead} does not load an fsimage
 * or replay edits but opens the region (validation and crash recovery happen natively)
 * and rebuilds the in-memory namespace from one pass over its live inode pages.
 */
class NvmFSImage extends FSImage {
  static final Log LOG = LogFactory.getLog(NvmFSImage.class);
  private static final Pattern IMAGE_FILE = Pattern.compile("fsimage_(\\d+)");

  private volatile NvmNamespace namespace;
  private volatile NvmNamespaceMetrics metrics;
  private final Configuration nvmConf;
  private final NvmRollbackImageGuard rollbackGuard;

  NvmFSImage(Configuration conf, Collection<URI> imageDirs, List<URI> editsDirs) throws IOException {
    super(conf, imageDirs, editsDirs);
    this.nvmConf = conf;
    // The stock constructor built a file-journal edit log; nothing was opened yet.
    this.editLog = new NvmFSEditLog(conf, storage);
    this.archivalManager = new NNStorageRetentionManager(conf, storage, editLog);
    this.rollbackGuard = new NvmRollbackImageGuard(storage);
    ((NvmFSEditLog) editLog).setRollbackGuard(rollbackGuard);
  }

  /**
   * The stock save (dfsadmin -saveNamespace, the offline export), then seen_txid set so that the
   * stock NameNode can load the image until the namespace changes ({@link NvmRollbackImageGuard}).
   */
  @Override
  public synchronized void saveNamespace(FSNamesystem source, NNStorage.NameNodeFile nnf, Canceler canceler)
      throws IOException {
    super.saveNamespace(source, nnf, canceler);
    if (nnf == NNStorage.NameNodeFile.IMAGE) {
      rollbackGuard.imageSaved(storage.getMostRecentCheckpointTxId());
    }
  }

  NvmNamespace namespace() {
    return namespace;
  }

  /** The region's metrics source (registered once the namespace is loaded), else null. */
  NvmNamespaceMetrics metrics() {
    return metrics;
  }

  /** The region file: the configured path, else {@code <first name dir>/current/nvm-namespace.region}. */
  static File regionFile(Configuration conf, NNStorage storage) throws IOException {
    String p = conf.getTrimmed(NvmConfigKeys.NVM_REGION_PATH_KEY, "");
    if (!p.isEmpty()) {
      return new File(p);
    }
    Iterator<StorageDirectory> it = storage.dirIterator(NameNodeDirType.IMAGE);
    if (!it.hasNext()) {
      throw new IOException("NVM NameNode: no name directory to put the region in; set "
          + NvmConfigKeys.NVM_REGION_PATH_KEY);
    }
    return new File(it.next().getCurrentDir(), NvmConfigKeys.REGION_DEFAULT_FILE_NAME);
  }

  @Override
  boolean recoverTransitionRead(StartupOption startOpt, FSNamesystem target, MetaRecoveryContext recovery)
      throws IOException {
    if (startOpt != StartupOption.REGULAR) {
      throw new IOException("NVM NameNode: startup option " + startOpt + " is not supported");
    }
    Map<StorageDirectory, StorageState> states = new HashMap<StorageDirectory, StorageState>();
    if (!recoverStorageDirs(startOpt, storage, states)) {
      throw new IOException("NameNode is not formatted.");
    }
    if (storage.getLayoutVersion() != HdfsConstants.NAMENODE_LAYOUT_VERSION) {
      throw new IOException("NVM NameNode: the name directory has layout version " + storage.getLayoutVersion()
          + ", this NameNode " + HdfsConstants.NAMENODE_LAYOUT_VERSION
          + "; upgrades are not supported in NVM mode");
    }
    target.setBlockPoolId(getBlockPoolID());
    File file = regionFile(nvmConf, storage);
    RegionIdentity expected = new RegionIdentity(storage.getNamespaceID(), storage.getClusterID(),
        storage.getBlockPoolID());
    PersistMode mode = PersistMode.parse(nvmConf.getTrimmed(NvmConfigKeys.NVM_PERSIST_MODE_KEY,
        NvmConfigKeys.NVM_PERSIST_MODE_DEFAULT));
    long start = System.nanoTime();
    InodeStore store;
    boolean created = false;
    if (file.exists()) {
      Region region = Region.open(file, mode); // validation + crash recovery; refuses a bad file untouched
      RegionIdentity found = region.identity();
      if (!expected.equals(found)) {
        region.close();
        throw new IOException("NVM NameNode: region " + file + " belongs to another namespace: region has "
            + found + ", the name directory's VERSION has " + expected
            + ". Refusing to start; point " + NvmConfigKeys.NVM_REGION_PATH_KEY + " at this namespace's region,"
            + " or, if the name directory was re-formatted on purpose, remove " + file
            + " (its namespace is discarded) so that a new region is created");
      }
      try {
        NvmStaleRegionCheck.refuseIfStale(storage, file, region.lastTxId());
      } catch (IOException e) {
        region.close();
        throw e;
      }
      store = InodeStore.open(region);
    } else {
      long txid = namespaceTxId();
      if (txid > 0) {
        throw new IOException("NVM NameNode: no region at " + file + ", but the name directory already holds a "
            + "namespace (fsimage/seen_txid up to transaction " + txid + "). Enabling NVM mode on an existing "
            + "namespace requires importing it into a region first: with this NameNode stopped, run '"
            + NvmMigrationTool.IMPORT_COMMAND + "' (docs/migration.md); or start this NameNode with "
            + NvmConfigKeys.NVM_ENABLED_KEY + "=false");
      }
      long size = nvmConf.getLongBytes(NvmConfigKeys.NVM_REGION_SIZE_KEY, NvmConfigKeys.NVM_REGION_SIZE_DEFAULT);
      File dir = file.getAbsoluteFile().getParentFile();
      if (dir != null && !dir.isDirectory() && !dir.mkdirs()) {
        throw new IOException("NVM NameNode: cannot create directory " + dir + " for the region");
      }
      store = InodeStore.open(Region.create(file, size, expected, mode));
      created = true;
    }
    Region region = store.region();
    LOG.info("NVM region " + file + ": " + region.size() + " bytes, persistence mode " + region.persistMode()
        + ", pmem_is_pmem=" + region.isPmem());
    LastRecovery recovered = null;
    try {
      NvmNamespace ns;
      int cacheCapacity = nvmConf.getInt(NvmConfigKeys.NVM_CACHE_INODES_KEY, NvmConfigKeys.NVM_CACHE_INODES_DEFAULT);
      if (created) {
        SlimNamespace slim = new SlimNamespace(target, store, new IdPageMap(), cacheCapacity);
        ns = new NvmNamespace(store, slim);
        ns.attach(target);
        initRegion(target, ns);
        LOG.info("NVM region " + file + " initialised for namespace " + expected);
      } else {
        RecoveryReport rep = region.recovery();
        long t0 = System.nanoTime();
        long[] live = region.recoveredInodes();
        SlimNamespace slim = new SlimNamespace(target, store, new IdPageMap(), cacheCapacity);
        ns = new NvmNamespace(store, slim);
        ns.attach(target);
        RebuildStats st = rebuild(target, store, live, slim);
        long t1 = System.nanoTime();
        recovered = new LastRecovery(rep, t1 - start, t1 - t0, live.length);
        LOG.info("NVM region recovered " + live.length + " inodes in " + (t1 - start) / 1000000 + " ms (scan "
            + rep.elapsedNanos() / 1000000 + " ms, rebuild " + (t1 - t0) / 1000000 + " ms: " + st + "); " + rep);
      }
      this.namespace = ns;
      ((NvmFSEditLog) editLog).attach(ns);
      initEditLog(startOpt);
      long last = region.lastTxId();
      this.lastAppliedTxId = last;
      editLog.setNextTxId(last + 1);
    } catch (IOException | RuntimeException e) {
      store.close();
      throw e;
    }
    this.metrics = NvmNamespaceMetrics.register(nvmConf, store, recovered, namespace.slim().cache());
    return false;
  }

  /** Highest transaction id the name directories know about: fsimage_N and seen_txid. */
  private long namespaceTxId() throws IOException {
    long max = 0;
    for (Iterator<StorageDirectory> it = storage.dirIterator(); it.hasNext();) {
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
  private static void initRegion(FSNamesystem fsn, NvmNamespace ns) throws IOException {
    INodeDirectory root = fsn.getFSDirectory().getRoot();
    InodeStore store = ns.store();
    long page = store.format(root.getModificationTime(), root.getFsPermissionShort(), root.getUserName(),
        root.getGroupName());
    ns.pages().put(root.getId(), page);
    ns.initCounters(fsn.getBlockIdManager(), fsn.getFSDirectory().getLastInodeId());
  }

  /** What the rebuild made: resident directories, indexed files, block records. */
  static final class RebuildStats {
    long directories;
    long files;
    long blocks;
    long underConstruction;

    @Override
    public String toString() {
      return directories + " directories, " + files + " files (" + underConstruction + " under construction), "
          + blocks + " blocks";
    }
  }

  /**
   * Rebuilds the slim in-memory namespace from the live inode pages: a resident directory
   * object per directory, a (name, id) index entry and an id &rarr; page entry per file, a
   * block record per block whose collection is a 24-byte {@link NvmFileRef} (no INodeFile);
   * only files under construction are materialized (they are pinned, and hold their lease).
   * Recovery hands pages out breadth first, so a parent comes before its children and
   * siblings are contiguous; each run of siblings is sorted by name (HDFS's own byte order)
   * so every index insert appends. Quota usage is summed from the pages on the way.
   */
  static RebuildStats rebuild(FSNamesystem fsn, InodeStore store, long[] live, SlimNamespace slim) throws IOException {
    FSDirectory dir = fsn.getFSDirectory();
    BlockManager bm = fsn.getBlockManager();
    Region region = store.region();
    IdPageMap pages = slim.pages();
    long rootPage = region.rootPage();
    long maxId = region.lastInodeId();
    List<INodeFile> ucFiles = new ArrayList<INodeFile>();
    List<Sibling> siblings = new ArrayList<Sibling>();
    BlockCounters counters = new BlockCounters(region);
    QuotaUsageRebuild quota = new QuotaUsageRebuild(bm.getStoragePolicySuite());
    RebuildStats st = new RebuildStats();
    for (int i = 0; i < live.length;) {
      InodeView first = store.inode(live[i]);
      if (live[i] == rootPage) {
        InodeMaterializer.restoreRoot(store, dir.getRoot(), first);
        pages.put(first.id(), live[i]);
        maxId = Math.max(maxId, first.id());
        quota.addDirectory(dir.getRoot(), 0);
        i++;
        continue;
      }
      INodeDirectory parentDir = slim.directory(first.parentId());
      if (!(parentDir instanceof NvmINodeDirectory)) {
        throw new IOException("NVM region " + region.file() + ": inode " + first.id() + " (page " + live[i] + ") has parent "
            + first.parentId() + " which was not rebuilt as a directory before it");
      }
      NvmINodeDirectory parent = (NvmINodeDirectory) parentDir;
      siblings.clear();
      for (; i < live.length && store.inode(live[i]).parentPage() == first.parentPage(); i++) {
        InodeView v = store.inode(live[i]);
        long id = v.id();
        maxId = Math.max(maxId, id);
        pages.put(id, live[i]);
        siblings.add(new Sibling(v.nameBytes(), NvmINodeDirectory.entry(id, v.isDirectory())));
        if (v.isDirectory()) {
          NvmINodeDirectory d = InodeMaterializer.directory(store, v, slim);
          d.setParent(parent);
          dir.addToInodeMap(d);
          quota.addDirectory(d, parent.getId());
          st.directories++;
        } else {
          rebuildFile(store, v, parent, slim, bm, counters, ucFiles);
          quota.addFile(v);
          st.files++;
          st.blocks += v.blockCount();
        }
      }
      Collections.sort(siblings);
      for (Sibling s : siblings) {
        // As the stock image loader: "/.reserved" may exist only in a namespace written while
        // the reserved-name check was off (older releases); such a namespace is not loaded.
        if (parent == dir.getRoot() && FSDirectory.CHECK_RESERVED_FILE_NAMES
            && java.util.Arrays.equals(s.name, FSDirectory.DOT_RESERVED)) {
          throw new HadoopIllegalArgumentException("NVM region " + region.file() + ": the root has a child named \""
              + DFSUtil.bytes2String(s.name) + "\" (inode " + Math.abs(s.id) + "), which is reserved; rename it with the "
              + "reserved-name check off before starting this release");
        }
        int pos = parent.index().search(s.name);
        if (pos >= 0) {
          throw new IOException("NVM region " + region.file() + ": duplicate name '" + DFSUtil.bytes2String(s.name)
              + "' under inode " + parent.getId());
        }
        parent.index().insert(-pos - 1, s.name, s.id);
      }
    }
    for (INodeFile f : ucFiles) {
      fsn.leaseManager.addLease(f.getFileUnderConstructionFeature().getClientName(), f.getFullPathName());
    }
    st.underConstruction = ucFiles.size();
    dir.resetLastInodeId(maxId);
    BlockIdManager ids = fsn.getBlockIdManager();
    ids.setGenerationStampV1(region.generationStampV1());
    ids.setGenerationStampV2(region.generationStampV2());
    if (region.generationStampV1Limit() != GenerationStamp.GRANDFATHER_GENERATION_STAMP) {
      ids.setGenerationStampV1Limit(region.generationStampV1Limit());
    }
    ids.setLastAllocatedBlockId(region.lastAllocatedBlockId());
    quota.finish();
    return st;
  }

  /**
   * A file's blocks into the BlocksMap. A closed file's collection is a ref and nothing else
   * of it stays in the heap; a file under construction is materialized and pinned, its last
   * block under construction, and it is its own blocks' collection, as the stock loader makes it.
   */
  private static void rebuildFile(InodeStore store, InodeView v, NvmINodeDirectory parent, SlimNamespace slim,
      BlockManager bm, BlockCounters counters, List<INodeFile> ucFiles) throws IOException {
    long id = v.id();
    int n = v.blockCount();
    boolean uc = v.isUnderConstruction();
    short repl = (short) v.replication();
    BlockInfoContiguous[] blocks = new BlockInfoContiguous[n];
    for (int b = 0; b < n; b++) {
      Block blk = new Block(v.blockId(b), v.blockNumBytes(b), v.blockGenerationStamp(b));
      blocks[b] = uc && b == n - 1 ? new BlockInfoContiguousUnderConstruction(blk, repl)
          : new BlockInfoContiguous(blk, repl);
      counters.check(id, blocks[b]);
    }
    if (uc) {
      INodeFile f = InodeMaterializer.file(store, v, blocks);
      f.setParent(parent);
      slim.cache().put(f);
      for (int b = 0; b < n; b++) {
        f.setBlock(b, bm.addBlockCollection(blocks[b], f));
      }
      ucFiles.add(f);
    } else if (n > 0) {
      NvmFileRef ref = new NvmFileRef(id, parent, slim);
      for (int b = 0; b < n; b++) {
        bm.addBlockCollection(blocks[b], ref);
      }
    }
  }

  /** A child entry waiting to be indexed: siblings are sorted by name first. */
  private static final class Sibling implements Comparable<Sibling> {
    final byte[] name;
    /** The index value: the inode id, negated for a directory. */
    final long id;

    Sibling(byte[] name, long id) {
      this.name = name;
      this.id = id;
    }

    @Override
    public int compareTo(Sibling o) {
      return DFSUtil.compareBytes(name, o.name);
    }
  }

  /**
   * A block record never runs ahead of the counters: the NameNode persists a new generation stamp
   * or block id (its own batch) before any block record uses it, so this holds after any crash.
   * A record above them is damage, and trusting it would let the NameNode hand the same id or
   * stamp out again; the region is refused instead.
   */
  private static final class BlockCounters {
    private final Region region;
    private final long maxStamp;
    private final long v1Limit;
    private final long lastBlockId;

    BlockCounters(Region region) {
      this.region = region;
      this.maxStamp = Math.max(region.generationStampV1(), region.generationStampV2());
      this.v1Limit = region.generationStampV1Limit();
      this.lastBlockId = region.lastAllocatedBlockId();
    }

    void check(long inodeId, BlockInfoContiguous b) throws IOException {
      // legacy blocks (stamp below the V1 limit) have random ids, not sequential ones
      boolean legacy = b.getGenerationStamp() < v1Limit;
      boolean idAhead = !legacy && b.getBlockId() > SequentialBlockIdGenerator.LAST_RESERVED_BLOCK_ID
          && b.getBlockId() > lastBlockId;
      if (idAhead || b.getGenerationStamp() > maxStamp) {
        throw new IOException("NVM region " + region.file() + ": file inode " + inodeId + " has block "
            + b.getBlockId() + " with generation stamp " + b.getGenerationStamp() + ", ahead of the region's counters"
            + " (last block id " + lastBlockId + ", generation stamp " + maxStamp + "): the page or the superblock"
            + " is damaged; refusing to load it (NvmRegionTool check lists the damage)");
      }
    }
  }

  @Override
  public synchronized void close() throws IOException {
    try {
      super.close();
    } finally {
      NvmNamespaceMetrics m = metrics;
      metrics = null;
      if (m != null) {
        m.unregister(); // before the region closes
      }
      NvmNamespace ns = namespace;
      namespace = null;
      if (ns != null) {
        InodeCache c = ns.slim().cache();
        LOG.info("NVM inode cache at close: " + c.size() + " of " + c.capacity() + " files, " + c.hits() + " hits, "
            + c.misses() + " misses, " + c.evictions() + " evictions; " + ns.slim().materialized()
            + " files materialized from pages");
        ns.store().close();
      }
    }
  }
}
