package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import java.io.File;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hdfs.server.namenode.nvm.NvmException;
import org.apache.hadoop.hdfs.server.namenode.nvm.Region;

/**
 * The offline checker (like {@code pmempool check}): validates a region file without writing to it.
 * The native open runs read-only (shared lock, read-only mapping, no recovery), so its validation
 * of header, geometry, superblock and undo record applies and a refusal becomes a finding, at the
 * offset the native open reports ({@link NvmException#offset()}). Then every page is examined
 * through the view recovery would have after rolling an armed undo record back, and every finding
 * is reported, not only the first. Severities and their reasons: docs/offline-tools.md.
 */
public final class RegionCheck {
  private RegionCheck() {}

  public static CheckReport run(File region) {
    return run(region, null);
  }

  /**
   * As {@link #run(File)}, with the region's write-ahead log at {@code log} (null: the region's
   * path + ".wal"); read only if the region needs it (region-format.md §12.5).
   */
  public static CheckReport run(File region, File log) {
    List<Finding> findings = new ArrayList<Finding>();
    Region r;
    try {
      r = Region.openReadOnly(region);
    } catch (NvmException e) {
      findings.add(
          new Finding(
              Finding.Kind.REFUSED,
              e.offset(),
              "the native open refuses the region: " + e.getMessage()));
      return new CheckReport(region, findings, null);
    }
    try {
      RegionModel m = RegionModel.load(r, log);
      UndoCheck.run(m, findings);
      LogCheck.run(m, findings);
      SealCheck.run(m, findings);
      PageWordCheck.run(m, findings);
      findings.addAll(m.tree.rootProblems);
      ParentLinkCheck.run(m, findings);
      InodeIdCheck.run(m, findings);
      NameCheck.run(m, findings);
      ChainCheck.run(m, findings);
      AttributeCheck.run(m, findings);
      SymlinkCheck.run(m, findings);
      BlockCheck.run(m, findings);
      StringRefCheck.run(m, findings);
      SnapshotWordCheck.run(m, findings);
      RecordCheck.run(m, findings);
      return new CheckReport(region, findings, summary(m));
    } finally {
      closeQuietly(r);
    }
  }

  private static String summary(RegionModel m) {
    long dirs = 0;
    long symlinks = 0;
    for (long page : m.tree.order) {
      dirs += m.inode(page).isDirectory() ? 1 : 0;
      symlinks += m.inode(page).isSymlink() ? 1 : 0;
    }
    return m.census.pageCount
        + " pages, high-water "
        + m.census.highWater
        + ", "
        + m.tree.order.length
        + " attached inodes ("
        + dirs
        + " dirs, "
        + (m.tree.order.length - dirs - symlinks)
        + " files"
        + (symlinks == 0 ? "" : ", " + symlinks + (symlinks == 1 ? " symlink" : " symlinks"))
        + "), "
        + records(m.census)
        + m.census.pending
        + " pending and "
        + m.census.invalid
        + " invalid pages (free; recovery leaves them as they are)"
        + log(m.image.log());
  }

  /** ", write-ahead log F: N records replayed" if the region needs its log and it is usable. */
  private static String log(WriteAheadLog log) {
    if (!log.isNeeded() || log.isRefused()) {
      return "";
    }
    long n = log.records();
    return ", write-ahead log "
        + log.file
        + ": "
        + n
        + (n == 1 ? " record" : " records")
        + " replayed";
  }

  /** "3 records, " if the region holds any (a region without records reads as before). */
  private static String records(PageCensus c) {
    int n = c.liveRecords.size();
    return n == 0 ? "" : n + (n == 1 ? " record, " : " records, ");
  }

  static void closeQuietly(Region r) {
    try {
      r.close();
    } catch (NvmException e) {
      // unmapping a read-only mapping; nothing was written either way
    }
  }
}
