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
import org.apache.hadoop.hdfs.server.namenode.nvm.LastRecovery;
import org.apache.hadoop.hdfs.server.namenode.nvm.LongLongMap;
import org.apache.hadoop.hdfs.server.namenode.nvm.NvmConfigKeys;
import org.apache.hadoop.hdfs.server.namenode.nvm.NvmNamespaceMetrics;
import org.apache.hadoop.hdfs.server.namenode.nvm.PersistMode;
import org.apache.hadoop.hdfs.server.namenode.nvm.RecoveryReport;
import org.apache.hadoop.hdfs.server.namenode.nvm.Region;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionIdentity;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout;
import org.apache.hadoop.hdfs.server.namenode.nvm.StringTable;
import org.apache.hadoop.hdfs.server.namenode.snapshot.Snapshot;

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

  NvmFSImage(Configuration conf, Collection<URI> imageDirs, List<URI> editsDirs) throws IOException {
    super(conf, imageDirs, editsDirs);
    this.nvmConf = conf;
    // The stock constructor built a file-journal edit log; nothing was opened yet.
    this.editLog = new NvmFSEditLog(conf, storage);
    this.archivalManager = new NNStorageRetentionManager(conf, storage, editLog);
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
      store = InodeStore.open(region);
    } else {
      long txid = namespaceTxId();
      if (txid > 0) {
        throw new IOException("NVM NameNode: no region at " + file + ", but the name directory already holds a "
            + "namespace (fsimage/seen_txid up to transaction " + txid + "). Enabling NVM mode on an existing "
            + "namespace requires importing it into a region (a separate tool), or start this NameNode with "
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
    LongLongMap pages;
    LastRecovery recovered = null;
    try {
      NvmNamespace ns;
      if (created) {
        pages = new LongLongMap();
        ns = new NvmNamespace(store, pages);
        ns.attach(target);
        initRegion(target, ns);
        LOG.info("NVM region " + file + " initialised for namespace " + expected);
      } else {
        RecoveryReport rep = region.recovery();
        long t0 = System.nanoTime();
        long[] live = region.recoveredInodes();
        pages = new LongLongMap(live.length);
        ns = new NvmNamespace(store, pages);
        ns.attach(target);
        rebuild(target, store, live, pages);
        long t1 = System.nanoTime();
        recovered = new LastRecovery(rep, t1 - start, t1 - t0, live.length);
        LOG.info("NVM region recovered " + live.length + " inodes in " + (t1 - start) / 1000000 + " ms (scan "
            + rep.elapsedNanos() / 1000000 + " ms, rebuild " + (t1 - t0) / 1000000 + " ms); " + rep);
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
    this.metrics = NvmNamespaceMetrics.register(nvmConf, store, recovered);
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

  /**
   * Rebuilds the in-memory namespace from the live inode pages. Recovery hands them out
   * breadth first, so a parent comes before its children and siblings are contiguous;
   * each run of siblings is sorted by name (HDFS's own byte order) before it is added, so
   * every insert appends to the parent's sorted child list instead of shifting it.
   */
  static void rebuild(FSNamesystem fsn, InodeStore store, long[] live, LongLongMap pages) throws IOException {
    FSDirectory dir = fsn.getFSDirectory();
    BlockManager bm = fsn.getBlockManager();
    Region region = store.region();
    long rootPage = region.rootPage();
    long maxId = region.lastInodeId();
    INodeMap map = dir.getINodeMap();
    List<INodeFile> ucFiles = new ArrayList<INodeFile>();
    List<INode> siblings = new ArrayList<INode>();
    BlockCounters counters = new BlockCounters(region);
    for (int i = 0; i < live.length;) {
      InodeView first = store.inode(live[i]);
      if (live[i] == rootPage) {
        restoreRoot(dir.getRoot(), first, perm(store, first));
        pages.put(first.id(), live[i]);
        maxId = Math.max(maxId, first.id());
        i++;
        continue;
      }
      INode parentNode = map.get(first.parentId());
      if (parentNode == null || !parentNode.isDirectory()) {
        throw new IOException("NVM region " + region.file() + ": inode " + first.id() + " (page " + live[i] + ") has parent "
            + first.parentId() + " which was not rebuilt before it");
      }
      INodeDirectory parent = parentNode.asDirectory();
      siblings.clear();
      for (; i < live.length && store.inode(live[i]).parentPage() == first.parentPage(); i++) {
        InodeView v = store.inode(live[i]);
        maxId = Math.max(maxId, v.id());
        INode child = materialize(store, v, ucFiles);
        pages.put(v.id(), live[i]);
        siblings.add(child);
      }
      Collections.sort(siblings, BY_NAME);
      for (INode child : siblings) {
        // As the stock image loader: "/.reserved" may exist only in a namespace written while
        // the reserved-name check was off (older releases); such a namespace is not loaded.
        if (parent == dir.getRoot() && FSDirectory.isReservedName(child)) {
          throw new HadoopIllegalArgumentException("NVM region " + region.file() + ": the root has a child named \""
              + child.getLocalName() + "\" (inode " + child.getId() + "), which is reserved; rename it with the "
              + "reserved-name check off before starting this release");
        }
        if (!parent.addChild(child)) {
          throw new IOException("NVM region " + region.file() + ": duplicate name '" + child.getLocalName() + "' under inode "
              + parent.getId());
        }
        dir.addToInodeMap(child);
        if (child.isFile()) {
          INodeFile f = child.asFile();
          BlockInfoContiguous[] blocks = f.getBlocks();
          for (int b = 0; b < blocks.length; b++) {
            counters.check(f, blocks[b]);
            f.setBlock(b, bm.addBlockCollection(blocks[b], f));
          }
        }
      }
    }
    for (INodeFile f : ucFiles) {
      fsn.leaseManager.addLease(f.getFileUnderConstructionFeature().getClientName(), f.getFullPathName());
    }
    dir.resetLastInodeId(maxId);
    BlockIdManager ids = fsn.getBlockIdManager();
    ids.setGenerationStampV1(region.generationStampV1());
    ids.setGenerationStampV2(region.generationStampV2());
    if (region.generationStampV1Limit() != GenerationStamp.GRANDFATHER_GENERATION_STAMP) {
      ids.setGenerationStampV1Limit(region.generationStampV1Limit());
    }
    ids.setLastAllocatedBlockId(region.lastAllocatedBlockId());
    updateCountForQuota(bm.getStoragePolicySuite(), dir.getRoot());
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

    void check(INodeFile f, BlockInfoContiguous b) throws IOException {
      // legacy blocks (stamp below the V1 limit) have random ids, not sequential ones
      boolean legacy = b.getGenerationStamp() < v1Limit;
      boolean idAhead = !legacy && b.getBlockId() > SequentialBlockIdGenerator.LAST_RESERVED_BLOCK_ID
          && b.getBlockId() > lastBlockId;
      if (idAhead || b.getGenerationStamp() > maxStamp) {
        throw new IOException("NVM region " + region.file() + ": file inode " + f.getId() + " has block "
            + b.getBlockId() + " with generation stamp " + b.getGenerationStamp() + ", ahead of the region's counters"
            + " (last block id " + lastBlockId + ", generation stamp " + maxStamp + "): the page or the superblock"
            + " is damaged; refusing to load it (NvmRegionTool check lists the damage)");
      }
    }
  }

  /** The order of INodeDirectory's child list (INode.compareTo uses DFSUtil.compareBytes). */
  private static final Comparator<INode> BY_NAME = new Comparator<INode>() {
    @Override
    public int compare(INode a, INode b) {
      return DFSUtil.compareBytes(a.getLocalNameBytes(), b.getLocalNameBytes());
    }
  };

  private static PermissionStatus perm(InodeStore store, InodeView v) {
    StringTable strings = store.strings();
    return new PermissionStatus(strings.get(v.ownerId()), strings.get(v.groupId()),
        new FsPermission((short) v.mode()));
  }

  /** The root directory exists already (FSDirectory made it); restore its attributes. */
  private static void restoreRoot(INodeDirectory root, InodeView v, PermissionStatus perm) throws IOException {
    root.setUser(perm.getUserName());
    root.setGroup(perm.getGroupName());
    root.setPermission(perm.getPermission());
    root.setModificationTime(v.mtime());
    DirectoryWithQuotaFeature q = root.getDirectoryWithQuotaFeature();
    if (q != null) {
      q.setQuota(v.nsQuota(), v.dsQuota());
      for (StorageType t : StorageType.values()) {
        if (t.ordinal() < RegionLayout.DI_TYPE_QUOTA_COUNT) {
          q.setQuota(v.typeQuota(t.ordinal()), t);
        }
      }
    }
    setDirPolicy(root, v.directoryStoragePolicy());
  }

  /** A full INodeDirectory / INodeFile from its page; under-construction files go to {@code ucFiles}. */
  private static INode materialize(InodeStore store, InodeView v, List<INodeFile> ucFiles) throws IOException {
    long id = v.id();
    byte[] name = v.nameBytes(); // recovery refused names no operation writes (chains.c)
    PermissionStatus perm = perm(store, v);
    if (v.isDirectory()) {
      INodeDirectory d = new INodeDirectory(id, name, perm, v.mtime());
      if (v.nsQuota() != -1 || v.dsQuota() != -1 || anyTypeQuota(v)) {
        DirectoryWithQuotaFeature.Builder b = new DirectoryWithQuotaFeature.Builder()
            .nameSpaceQuota(v.nsQuota()).storageSpaceQuota(v.dsQuota());
        for (StorageType t : StorageType.values()) {
          if (t.ordinal() < RegionLayout.DI_TYPE_QUOTA_COUNT && v.typeQuota(t.ordinal()) != -1) {
            b.typeQuota(t, v.typeQuota(t.ordinal()));
          }
        }
        d.addDirectoryWithQuotaFeature(b.build());
      }
      setDirPolicy(d, v.directoryStoragePolicy());
      return d;
    }
    short repl = (short) v.replication();
    int n = v.blockCount();
    BlockInfoContiguous[] blocks = new BlockInfoContiguous[n];
    boolean uc = v.isUnderConstruction();
    for (int i = 0; i < n; i++) {
      Block b = new Block(v.blockId(i), v.blockNumBytes(i), v.blockGenerationStamp(i));
      blocks[i] = uc && i == n - 1 ? new BlockInfoContiguousUnderConstruction(b, repl)
          : new BlockInfoContiguous(b, repl);
    }
    INodeFile f = new INodeFile(id, name, perm, v.mtime(), v.atime(), blocks, repl,
        v.preferredBlockSize(), (byte) v.storagePolicy());
    if (uc) {
      f.toUnderConstruction(store.strings().get(v.clientId()), store.strings().get(v.clientMachineId()));
      ucFiles.add(f);
    }
    return f;
  }

  private static boolean anyTypeQuota(InodeView v) {
    for (int i = 0; i < RegionLayout.DI_TYPE_QUOTA_COUNT; i++) {
      if (v.typeQuota(i) != -1) {
        return true;
      }
    }
    return false;
  }

  private static void setDirPolicy(INodeDirectory d, int policy) throws IOException {
    if (policy != 0) {
      List<XAttr> x = Lists.newArrayList(BlockStoragePolicySuite.buildXAttr((byte) policy));
      XAttrStorage.updateINodeXAttrs(d, x, Snapshot.CURRENT_STATE_ID);
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
        ns.store().close();
      }
    }
  }
}
