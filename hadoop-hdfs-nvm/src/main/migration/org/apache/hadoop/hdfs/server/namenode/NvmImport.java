package org.apache.hadoop.hdfs.server.namenode;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.function.Consumer;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.server.common.HdfsServerConstants.StartupOption;
import org.apache.hadoop.hdfs.server.common.Storage.StorageDirectory;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeStore;
import org.apache.hadoop.hdfs.server.namenode.nvm.NvmConfigKeys;
import org.apache.hadoop.hdfs.server.namenode.nvm.PersistMode;
import org.apache.hadoop.hdfs.server.namenode.nvm.Region;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionIdentity;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionOptions;

/**
 * {@code NvmMigrationTool import}: moves the namespace of a stopped stock NameNode into a fresh
 * region. The name directory is read as a stock start-up reads it (locked; newest fsimage plus the
 * edits after it, with the stock loader) but no fsimage is saved and no edit segment is started.
 * The region is written under a temporary name, checked and compared with the loaded namespace, and
 * only then renamed to its configured path, so the NameNode never finds a partial or unverified
 * region. See docs/migration.md.
 */
final class NvmImport {
  static final Log LOG = LogFactory.getLog(NvmImport.class);

  /** Suffix of the region file while it is written and verified. */
  static final String PARTIAL_SUFFIX = ".importing";

  /** Test hook: called with the written region file before it is verified (NvmTestAccess). */
  static volatile Consumer<File> beforeVerify;

  private final Configuration conf;
  private final PrintStream out;

  NvmImport(Configuration conf, PrintStream out) {
    this.conf = conf;
    this.out = out;
  }

  void run() throws IOException {
    NvmMigrationTool.refuseHa(conf, "import");
    load(false);
  }

  /**
   * An HA NameNode without a servable region (bootstrapped as standby, or its region was set aside
   * as ahead of the journal quorum, docs/ha.md): the region is built from the newest fsimage in the
   * name directories and the shared journal's finalized edits after it, as the tool imports, and
   * the NameNode then tails the journal from there. The name directories must not be locked.
   */
  static void rebuildForHa(Configuration conf, PrintStream out) throws IOException {
    new NvmImport(conf, out).load(true);
  }

  /**
   * @param inNameNode run inside the NameNode's process: the loading namesystem gets no retry cache
   *     (the import does not carry it, and its metrics source is the NameNode's to register)
   */
  private void load(boolean inNameNode) throws IOException {
    Configuration stock = new Configuration(conf);
    stock.setBoolean(NvmConfigKeys.NVM_ENABLED_KEY, false);
    FSImage image =
        new FSImage(
            stock, FSNamesystem.getNamespaceDirs(stock), FSNamesystem.getNamespaceEditsDirs(stock));
    FSNamesystem fsn = null;
    try {
      File region = NvmFSImage.regionFile(conf, image.getStorage());
      refuseExistingRegion(region);
      fsn = new FSNamesystem(stock, image, inNameNode);
      fsn.writeLock(); // nothing else runs here, but the namesystem's own code asserts it
      try {
        importLocked(fsn, image, region);
      } finally {
        fsn.writeUnlock();
      }
    } finally {
      close(fsn, image);
    }
  }

  private void importLocked(FSNamesystem fsn, FSImage image, File region) throws IOException {
    long t0 = System.nanoTime();
    image.recoverTransitionRead(
        StartupOption.REGULAR, fsn, null); // locks the name dirs, loads, replays
    removeLeftovers(region);
    long lastTxId = lastTxId(image);
    out.println(
        "import: loaded "
            + dirs(image)
            + ": fsimage of transaction "
            + image.getStorage().getMostRecentCheckpointTxId()
            + " and the edits up to transaction "
            + image.getLastAppliedTxId()
            + " in "
            + ms(t0)
            + " ms");
    long t1 = System.nanoTime();
    NvmImportTree tree = NvmImportTree.of(fsn.getFSDirectory());
    List<NvmImportSnapshots.Record> records = NvmImportSnapshots.records(fsn, tree);
    NvmImportScan scan = NvmImportScan.run(fsn, image, tree, records);
    refuseTooSmall(scan, region);
    out.println(
        "import: "
            + scan.inodes
            + " inodes ("
            + scan.directories
            + " directories, "
            + scan.files
            + " files, "
            + scan.symlinks
            + " symlinks, "
            + scan.underConstruction
            + " under construction, "
            + scan.withAttributes
            + " with ACL entries or xattrs), "
            + scan.blockCount()
            + " blocks, "
            + scan.pages
            + " region pages; nothing the region cannot hold ("
            + ms(t1)
            + " ms)");
    RegionIdentity identity =
        new RegionIdentity(
            image.getStorage().getNamespaceID(),
            image.getStorage().getClusterID(),
            image.getStorage().getBlockPoolID());
    File partial = new File(region.getPath() + PARTIAL_SUFFIX);
    try {
      long t2 = System.nanoTime();
      writeRegion(fsn, lastTxId, identity, partial, tree, records);
      out.println("import: wrote " + partial + " in " + ms(t2) + " ms");
      Consumer<File> hook = beforeVerify;
      if (hook != null) {
        hook.accept(partial);
      }
      long t3 = System.nanoTime();
      String sum = NvmImportVerifier.verify(partial, scan, fsn, identity, lastTxId, records);
      out.println(
          "import: verified in "
              + ms(t3)
              + " ms: "
              + scan.inodes
              + " inodes, "
              + scan.blockCount()
              + " block ids, listing sha256 "
              + sum
              + ", counters (last inode id "
              + fsn.getFSDirectory().getLastInodeId()
              + ", last block id "
              + fsn.getBlockIdManager().getLastAllocatedBlockId()
              + ", generation stamp "
              + fsn.getBlockIdManager().getGenerationStampV2()
              + ", last transaction "
              + lastTxId
              + ") equal; region check clean");
      install(partial, region);
    } catch (IOException | RuntimeException | Error e) {
      Files.deleteIfExists(partial.toPath());
      throw e;
    }
    out.println(
        "import: done: "
            + region
            + " holds the namespace; start the NameNode with "
            + NvmConfigKeys.NVM_ENABLED_KEY
            + "=true");
  }

  /**
   * The region's transaction id: the last one loaded, or seen_txid if that is higher (a stock
   * NameNode that stopped right after opening an empty segment), so that the NVM NameNode's first
   * segment comes after every transaction id the name directory knows.
   */
  private static long lastTxId(FSImage image) throws IOException {
    long txid = image.getLastAppliedTxId();
    for (Iterator<StorageDirectory> it = image.getStorage().dirIterator(); it.hasNext(); ) {
      txid = Math.max(txid, NNStorage.readTransactionIdFile(it.next()));
    }
    return txid;
  }

  private static String ms(long startNanos) {
    return Long.toString((System.nanoTime() - startNanos) / 1000000);
  }

  static String dirs(FSImage image) {
    List<String> names = new ArrayList<String>();
    for (Iterator<StorageDirectory> it = image.getStorage().dirIterator(); it.hasNext(); ) {
      names.add(it.next().getRoot().getPath());
    }
    return String.join(", ", names);
  }

  /**
   * A region file in the way is never overwritten: it may be this namespace's region already, or
   * another's. (Checked before loading, so that the refusal is quick.)
   */
  private static void refuseExistingRegion(File region) throws IOException {
    if (region.exists() && region.length() > 0) {
      throw NvmImportScan.refusal(
          "a region already exists at "
              + region
              + " ("
              + region.length()
              + " bytes); "
              + "the import never overwrites one. If this name directory is already in NVM mode, start the NameNode "
              + "with "
              + NvmConfigKeys.NVM_ENABLED_KEY
              + "=true; if the region is not needed, remove it (its namespace "
              + "is lost) or point "
              + NvmConfigKeys.NVM_REGION_PATH_KEY
              + " elsewhere, and import again");
    }
  }

  /**
   * With the name directory locked: a zero-length region file holds nothing and is replaced; the
   * leftover of an interrupted import (only this tool writes that name, under the lock) is removed.
   */
  private static void removeLeftovers(File region) throws IOException {
    refuseExistingRegion(region);
    File partial = new File(region.getPath() + PARTIAL_SUFFIX);
    if (partial.exists()) {
      LOG.info("removing " + partial + ", left by an interrupted import");
      Files.delete(partial.toPath());
    }
    Files.deleteIfExists(new File(partial.getPath() + ".wal").toPath());
    if (region.exists()) {
      Files.delete(region.toPath());
    }
  }

  private void refuseTooSmall(NvmImportScan scan, File region) throws NvmMigrationRefusedException {
    long size =
        conf.getLongBytes(NvmConfigKeys.NVM_REGION_SIZE_KEY, NvmConfigKeys.NVM_REGION_SIZE_DEFAULT);
    long reserve =
        conf.getLong(
            NvmConfigKeys.NVM_RESERVED_PAGES_KEY, NvmConfigKeys.NVM_RESERVED_PAGES_DEFAULT);
    long pageCount =
        Math.max(
            0,
            (size - size % RegionLayout.PAGE_SIZE - RegionLayout.DATA_OFFSET)
                / RegionLayout.PAGE_SIZE);
    long need = scan.pages + reserve;
    if (size < RegionLayout.MIN_REGION_SIZE || pageCount < need) {
      long bytes = RegionLayout.DATA_OFFSET + need * RegionLayout.PAGE_SIZE;
      long mib = Math.max(RegionLayout.MIN_REGION_SIZE >> 20, (bytes + (1 << 20) - 1) >> 20);
      throw NvmImportScan.refusal(
          "a region of "
              + size
              + " bytes ("
              + NvmConfigKeys.NVM_REGION_SIZE_KEY
              + ") has "
              + pageCount
              + " pages of "
              + RegionLayout.PAGE_SIZE
              + " bytes; this namespace needs "
              + scan.pages
              + " pages ("
              + scan.inodes
              + " inodes with their name, block and attribute extension pages, strings and records) plus the "
              + reserve
              + " pages the NameNode keeps in reserve ("
              + NvmConfigKeys.NVM_RESERVED_PAGES_KEY
              + "). Set "
              + NvmConfigKeys.NVM_REGION_SIZE_KEY
              + " to at least "
              + mib
              + "m (more to leave room to grow) and import "
              + "again; "
              + region
              + " was not created");
    }
  }

  private void writeRegion(
      FSNamesystem fsn,
      long lastTxId,
      RegionIdentity identity,
      File file,
      NvmImportTree tree,
      List<NvmImportSnapshots.Record> records)
      throws IOException {
    File dir = file.getAbsoluteFile().getParentFile();
    if (dir != null && !dir.isDirectory() && !dir.mkdirs()) {
      throw new IOException("cannot create directory " + dir + " for the region");
    }
    long size =
        conf.getLongBytes(NvmConfigKeys.NVM_REGION_SIZE_KEY, NvmConfigKeys.NVM_REGION_SIZE_DEFAULT);
    PersistMode mode = NvmRegionConf.mode(conf);
    RegionOptions options = NvmRegionConf.options(conf);
    try (InodeStore store = InodeStore.open(Region.create(file, size, identity, mode, options))) {
      // the region is renamed into place only after it is closed (every batch committed) and
      // verified, so its batches need not be durable one by one: group commit, bounded
      store.groupCommit(true);
      NvmImportWriter.write(fsn, lastTxId, store, tree, records);
    }
    // in the disk mode the partial region had a log of its own (unless one is configured, which
    // is the NameNode's and stays); closed, the region needs none
    if (options.logFile() == null) {
      Files.deleteIfExists(options.logFileOf(file).toPath());
    }
  }

  /**
   * Gives the verified region its configured name; the rename is made durable before success is
   * reported.
   */
  private static void install(File partial, File region) throws IOException {
    Files.move(partial.toPath(), region.toPath(), StandardCopyOption.ATOMIC_MOVE);
    File dir = region.getAbsoluteFile().getParentFile();
    try (FileChannel ch = FileChannel.open(dir.toPath(), StandardOpenOption.READ)) {
      ch.force(true);
    }
  }

  /**
   * Closes the loaded namesystem (which closes the image and unlocks the name dirs) or, failing
   * that, the image.
   */
  static void close(FSNamesystem fsn, FSImage image) {
    try {
      if (fsn != null) {
        fsn.close();
        return;
      }
    } catch (RuntimeException e) {
      LOG.warn("closing the loaded namesystem", e);
    }
    try {
      image.close();
    } catch (IOException | RuntimeException e) {
      LOG.warn("closing the image", e);
    }
  }
}
