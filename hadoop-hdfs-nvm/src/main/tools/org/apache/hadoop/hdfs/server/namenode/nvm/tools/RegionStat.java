package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;

import java.io.File;
import java.io.IOException;
import org.apache.hadoop.hdfs.server.namenode.nvm.Region;

/** Space use of a region, read-only ({@link StatReport} says what each number counts). */
public final class RegionStat {
  private RegionStat() {}

  public static StatReport run(File region) throws IOException {
    return run(region, null);
  }

  /**
   * As {@link #run(File)}, with the region's write-ahead log at {@code log} (null: the region's
   * path + ".wal"), replayed if the region needs it; a log a read-write open refuses is refused
   * (IOException).
   */
  public static StatReport run(File region, File log) throws IOException {
    Region r = Region.openReadOnly(region);
    try {
      return stat(region, RegionModel.loadUsable(r, log));
    } finally {
      RegionCheck.closeQuietly(r);
    }
  }

  private static StatReport stat(File file, RegionModel m) {
    StatReport s = new StatReport(file.getPath());
    PageCensus c = m.census;
    s.regionSize = m.image.size();
    s.pagesTotal = c.pageCount;
    s.highWater = c.highWater;
    s.liveDirPages = c.liveDirs;
    s.liveFilePages = c.liveFiles;
    s.liveSymlinkPages = c.liveSymlinks;
    s.liveNameExtPages = c.liveNameExts;
    s.liveBlockExtPages = c.liveBlockExts;
    s.liveStringPages = c.liveStrings.size();
    s.liveStringExtPages = c.liveStringExts;
    s.liveRecordPages = c.liveRecords.size();
    s.liveRecordExtPages = c.liveRecordExts;
    s.liveAttrExtPages = c.liveAttrExts;
    for (int i = 0; i < c.liveRecords.size(); i++) {
      RecordPage r = m.record(c.liveRecords.get(i));
      s.cachePools += r.isCachePool() ? 1 : 0;
      s.cacheDirectives += r.isCacheDirective() ? 1 : 0;
    }
    s.pendingPages = c.pending;
    s.invalidPages = c.invalid;
    s.malformedPages = c.malformed.size() + c.unknownKind.size();
    s.undoArmed = m.image.undo().isArmed();
    s.pageChecksums = m.image.hasPageChecksums();
    WriteAheadLog log = m.image.log();
    if (log.isNeeded()) { // usable: loadUsable refused the region otherwise
      s.log = log.file.getPath();
      s.logCapacity = log.capacity;
      s.logRecords = log.replay.records;
      s.logBytes = log.replay.bytes;
    }
    ChainOwners owners = new ChainOwners();
    for (long page : m.tree.order) {
      InodePage p = m.inode(page);
      owners.follow(p, true);
      owners.followAttrs(p);
      if (p.isDirectory()) {
        s.dirs++;
        continue;
      }
      if (p.isSymlink()) {
        s.symlinks++;
        owners.followTarget(p);
        continue;
      }
      s.files++;
      owners.follow(p, false);
      if (p.word(FI_UC) != 0) {
        s.filesUnderConstruction++;
      }
      for (long rec : p.blockRecordOffsets(ExtChain.blocks(p, null))) {
        s.blocks++;
        s.blockBytes += m.image.getLong(rec + BR_NUM_BYTES);
      }
    }
    StringRefs refs = m.stringRefs();
    refs.followKept(m, owners);
    owners.followRecords(m.image, c.liveRecords);
    long linkedExts = 0;
    for (int i = 0; i < c.liveExts.size(); i++) {
      linkedExts += owners.isLinked(c.liveExts.get(i)) ? 1 : 0;
    }
    s.pagesUsed = m.tree.order.length + linkedExts + refs.keptCount() + c.liveRecords.size();
    s.reclaimablePages =
        c.liveInodes.size()
            + c.liveExts.size()
            + c.liveStrings.size()
            + c.liveRecords.size()
            - s.pagesUsed;
    return s;
  }
}
