package org.apache.hadoop.hdfs.server.namenode;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockIdManager;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeAttrs;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeLimits;
import org.apache.hadoop.hdfs.server.namenode.nvm.NvmException;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout;
import org.apache.hadoop.hdfs.server.namenode.nvm.tools.InodeLine;

/**
 * One pass over a namespace the stock loader built, before anything is written. It refuses what a
 * region cannot hold, naming the first offending path and the limit; counts the pages the region
 * needs (the pages {@link NvmImportTree} places, snapshots' inodes too, and the records); and
 * records what the verification expects to read back: one {@code dump} line per inode (built from
 * the in-memory inodes, independently of the writer; their ACL entries and xattrs included) and
 * every block id.
 */
final class NvmImportScan {
  final List<String> lines = new ArrayList<String>();

  long inodes;
  long directories;
  long files;
  long symlinks;
  long underConstruction;

  /** Inodes with ACL entries or xattrs (besides a directory's storage policy). */
  long withAttributes;

  /** Inode, name-, block- and attribute-extension pages and string pages. */
  long pages;

  private long[] blockIds = new long[64];
  private int blockCount;
  private final Set<String> strings = new HashSet<String>();

  private NvmImportScan() {}

  /**
   * Scans the namespace of {@code fsn} (loaded by {@code image}), every page {@code tree} places,
   * with the snapshot {@code records} it needs; throws on the first refusal.
   */
  static NvmImportScan run(
      FSNamesystem fsn, FSImage image, NvmImportTree tree, List<NvmImportSnapshots.Record> records)
      throws NvmMigrationRefusedException {
    refuseNamesystemState(fsn, image);
    NvmImportScan s = new NvmImportScan();
    for (NvmImportTree.Page p : tree.pages) {
      s.visit(p.inode, p.path);
    }
    s.pages += NvmImportSnapshots.pages(records);
    s.pages += s.strings.size();
    // delegation tokens and master keys become records (region-format.md §5.5)
    s.pages +=
        NvmTokenWriteThrough.pages(fsn.getDelegationTokenSecretManager().saveSecretManagerState());
    // and so do cache pools and directives
    try {
      s.pages += NvmCacheWriteThrough.pages(fsn);
    } catch (IOException e) {
      throw refusal("the cache manager's state cannot be read: " + e);
    }
    return s;
  }

  int blockCount() {
    return blockCount;
  }

  /** Every block id of the namespace, sorted. */
  long[] blockIds() {
    long[] ids = Arrays.copyOf(blockIds, blockCount);
    Arrays.sort(ids);
    return ids;
  }

  /** Namesystem-wide state the region has no place for. */
  private static void refuseNamesystemState(FSNamesystem fsn, FSImage image)
      throws NvmMigrationRefusedException {
    if (!image.isUpgradeFinalized()) {
      throw refusal(
          "the name directory holds an upgrade that is not finalized (a previous/ directory); NVM mode "
              + "cannot roll it back. Finalize it (hdfs dfsadmin -finalizeUpgrade) or roll it back with the stock "
              + "NameNode first");
    }
    if (fsn.isRollingUpgrade()) {
      throw refusal(
          "a rolling upgrade is in progress; NVM mode does not support rolling upgrades. Finalize it "
              + "(hdfs dfsadmin -rollingUpgrade finalize) with the stock NameNode first");
    }
    BlockIdManager ids = fsn.getBlockIdManager();
    refuseCounter("the generation stamp (v1)", ids.getGenerationStampV1());
    refuseCounter("the generation stamp", ids.getGenerationStampV2());
    refuseCounter("the generation stamp v1 limit", ids.getGenerationStampV1Limit());
    refuseCounter("the last block id", ids.getLastAllocatedBlockId());
    refuseCounter("the last inode id", fsn.getFSDirectory().getLastInodeId());
    refuseCounter("the last transaction id", image.getLastAppliedOrWrittenTxId());
  }

  private void visit(INode n, String path) throws NvmMigrationRefusedException {
    // ACL entries and xattrs are carried (InodeEncoder.attrs), an encryption zone's and each
    // encrypted file's raw.hdfs.crypto.* xattr with them: the rebuild registers the zones again;
    // snapshots are carried as records (NvmImportSnapshots)
    InodeAttrs a = InodeEncoder.attrs(n);
    try {
      // the root has no name; InodeLimits checks every other field of it like any inode's
      InodeLimits.validate(n.getParent() == null ? a.name("r") : a);
    } catch (NvmException e) {
      throw refusal(
          path
              + " cannot be stored in a region: "
              + e.getMessage()
              + ". Change it with the stock NameNode first");
    }
    inodes++;
    InodeLine line =
        InodeLine.of(
            path,
            n.getId(),
            n.getFsPermissionShort(),
            n.getUserName(),
            n.getGroupName(),
            n.getModificationTime(),
            n.getAccessTime());
    if (NvmImportAttributes.addTo(line, n)) {
      withAttributes++;
    }
    strings.add(n.getUserName());
    strings.add(n.getGroupName());
    if (n.isDirectory()) {
      directories++;
      INodeDirectory d = n.asDirectory();
      long[] q = InodeEncoder.quotas(d);
      lines.add(
          line.directory(
              q[0],
              q[1],
              Arrays.copyOfRange(q, 2, 2 + RegionLayout.DI_TYPE_QUOTA_COUNT),
              d.getLocalStoragePolicyID() & 0xff,
              InodeEncoder.snapshottable(d)));
      pages += InodeLimits.pagesFor(a, 0);
      return;
    }
    if (n.isSymlink()) {
      symlinks++;
      lines.add(line.symlink(n.asSymlink().getSymlinkString()));
      pages += InodeLimits.pagesFor(a, 0);
      return;
    }
    files++;
    INodeFile f = n.asFile();
    FileUnderConstructionFeature uc = f.getFileUnderConstructionFeature();
    String client = uc == null ? null : uc.getClientName();
    String machine = uc == null ? null : uc.getClientMachine();
    if (uc != null) {
      underConstruction++;
      strings.add(client);
      strings.add(machine);
    }
    long[] b = InodeEncoder.blockTriples(f);
    for (int i = 0; i < b.length; i += 3) {
      if (blockCount == blockIds.length) {
        blockIds = Arrays.copyOf(blockIds, blockCount * 2);
      }
      blockIds[blockCount++] = b[i];
    }
    lines.add(
        line.file(
            f.getFileReplication(),
            f.getPreferredBlockSize(),
            f.getLocalStoragePolicyID(),
            client,
            machine,
            b));
    pages += InodeLimits.pagesFor(a, b.length / 3);
  }

  /** A superblock counter keeps SB_COUNTER_BITS bits of value (region-format.md §11). */
  private static void refuseCounter(String what, long value) throws NvmMigrationRefusedException {
    if (value < 0 || value >>> RegionLayout.SB_COUNTER_BITS != 0) {
      throw refusal(
          what
              + " is "
              + value
              + ", past the region's "
              + RegionLayout.SB_COUNTER_BITS
              + "-bit counters (SB_COUNTER_BITS): a region cannot hold it");
    }
  }

  static NvmMigrationRefusedException refusal(String why) {
    return new NvmMigrationRefusedException("refused, nothing was written: " + why);
  }
}
