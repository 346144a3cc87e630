package org.apache.hadoop.hdfs.server.namenode;

import java.io.File;
import java.io.IOException;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockIdManager;
import org.apache.hadoop.hdfs.server.namenode.nvm.Region;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionIdentity;
import org.apache.hadoop.hdfs.server.namenode.nvm.tools.CheckReport;
import org.apache.hadoop.hdfs.server.namenode.nvm.tools.ListingChecksum;
import org.apache.hadoop.hdfs.server.namenode.nvm.tools.NamespaceDump;
import org.apache.hadoop.hdfs.server.namenode.nvm.tools.RegionCheck;

/** The import's last check before a region is installed (docs/migration.md, Import step 6). */
final class NvmImportVerifier {
  private static final int MAX_DIFF_LINES = 10;

  private NvmImportVerifier() {}

  /**
   * Reopens the written region with the offline tools (their own reader, not the writer's) and
   * compares it with the loaded namespace: the checker must find it clean, the dump must hold the
   * same lines (so the same inode count and listing checksum), the same block ids, identity and
   * counters, the same snapshot records. The lines hold each inode's ACL entries and xattrs too
   * (decoded by the tools' own AttributeEncoding), so a lost or changed attribute is a differing
   * line. Returns the listing checksum.
   */
  static String verify(
      File file,
      NvmImportScan scan,
      FSNamesystem fsn,
      RegionIdentity identity,
      long lastTxId,
      List<NvmImportSnapshots.Record> snapshotRecords)
      throws IOException {
    CheckReport check = RegionCheck.run(file);
    if (check.exitCode() != CheckReport.EXIT_CLEAN) {
      throw mismatch(
          "the region checker does not find the written region clean:\n" + check.format());
    }
    NamespaceDump dump = NamespaceDump.read(file);
    List<String> got = dump.lines();
    String expectedSum = ListingChecksum.sha256(scan.lines);
    String gotSum = ListingChecksum.sha256(got);
    if (got.size() != scan.lines.size() || !expectedSum.equals(gotSum)) {
      throw mismatch(
          "the region holds "
              + got.size()
              + " inodes with listing sha256 "
              + gotSum
              + ", the loaded "
              + "namespace "
              + scan.lines.size()
              + " with "
              + expectedSum
              + "; differing lines:\n"
              + diff(scan.lines, got));
    }
    if (!Arrays.equals(scan.blockIds(), dump.blockIds())) {
      throw mismatch(
          "the block ids differ: region "
              + dump.blockIds().length
              + ", loaded namespace "
              + scan.blockCount());
    }
    BlockIdManager ids = fsn.getBlockIdManager();
    long[] expected = {
      fsn.getFSDirectory().getLastInodeId(),
      ids.getGenerationStampV1(),
      ids.getGenerationStampV2(),
      ids.getGenerationStampV1Limit(),
      ids.getLastAllocatedBlockId(),
      lastTxId
    };
    try (Region r = Region.openReadOnly(file)) {
      long[] actual = {
        r.lastInodeId(),
        r.generationStampV1(),
        r.generationStampV2(),
        r.generationStampV1Limit(),
        r.lastAllocatedBlockId(),
        r.lastTxId()
      };
      List<String> secrets =
          NvmTokenWriteThrough.describe(
              fsn.getDelegationTokenSecretManager().saveSecretManagerState());
      List<String> records = NvmTokenWriteThrough.describe(r);
      if (!secrets.equals(records)) {
        throw mismatch(
            "the delegation tokens and master keys differ; differing lines:\n"
                + diff(secrets, records));
      }
      List<String> cache = NvmCacheWriteThrough.describe(fsn);
      List<String> cacheRecords = NvmCacheWriteThrough.describe(r);
      if (!cache.equals(cacheRecords)) {
        throw mismatch(
            "the cache pools and directives differ; differing lines:\n"
                + diff(cache, cacheRecords));
      }
      List<String> snapshots = NvmImportSnapshots.describe(snapshotRecords);
      List<String> snapshotsHeld = NvmImportSnapshots.describe(r);
      if (!snapshots.equals(snapshotsHeld)) {
        throw mismatch(
            "the snapshot records differ; differing lines:\n" + diff(snapshots, snapshotsHeld));
      }
      if (!identity.equals(r.identity()) || !Arrays.equals(expected, actual)) {
        throw mismatch(
            "identity or counters differ (last inode id, generation stamps v1, v2, v1 limit, last block "
                + "id, last transaction): region "
                + r.identity()
                + " "
                + Arrays.toString(actual)
                + ", loaded namespace "
                + identity
                + " "
                + Arrays.toString(expected));
      }
    }
    return gotSum;
  }

  private static NvmMigrationRefusedException mismatch(String what) {
    return new NvmMigrationRefusedException("verification failed, the region was removed: " + what);
  }

  /** Up to MAX_DIFF_LINES lines present on one side only: "- " loaded namespace, "+ " region. */
  private static String diff(List<String> expected, List<String> got) {
    Set<String> e = new HashSet<String>(expected);
    Set<String> g = new HashSet<String>(got);
    StringBuilder b = new StringBuilder();
    int n = 0;
    for (String l : ListingChecksum.sorted(expected)) {
      if (!g.contains(l) && n++ < MAX_DIFF_LINES) {
        b.append("- ").append(l).append('\n');
      }
    }
    for (String l : ListingChecksum.sorted(got)) {
      if (!e.contains(l) && n++ < MAX_DIFF_LINES) {
        b.append("+ ").append(l).append('\n');
      }
    }
    if (n > MAX_DIFF_LINES) {
      b.append("... ").append(n - MAX_DIFF_LINES).append(" more\n");
    }
    return b.toString();
  }
}
