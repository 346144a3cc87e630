package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;

import java.io.File;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.apache.hadoop.hdfs.server.namenode.nvm.Region;

/**
 * A read-only view of an open region as the next read-write open would see it after step 1 of
 * recovery: every read returns the bytes the replay of the redo records would store (a region with
 * the redo log), or the bytes an armed undo record's rollback would restore (a region from before
 * it), and then the bytes the replay of the write-ahead log stores (a region of the disk mode that
 * was not closed, region-format.md §12.5). Nothing is written; the region and its log stay as they
 * are on media. The tools read the namespace only through this view, so check, dump and stat agree
 * with recovery on an interrupted commit.
 */
final class RegionImage {
  private final Region region;
  private final UndoRecord undo;
  private final RedoLog redo;
  private final WriteAheadLog log;
  private final RecoveryOverlay overlay;
  private final long pageCount;
  private final long features;

  /** The view of {@code region} with its write-ahead log {@code logFile} (null: the default). */
  RegionImage(Region region, File logFile) {
    this.region = region;
    // SB_FEATURES as the native open read it (before the rollback: no batch writes it), and
    // validated: halves that match, no unknown bit (region-format.md §11)
    this.features = region.getLong(SB_FEATURES) & 0xffffffffL;
    boolean redoLog = (features & FEATURE_REDO_LOG) != 0;
    this.undo = redoLog ? UndoRecord.NONE : UndoRecord.read(region);
    this.redo = redoLog ? RedoLog.read(region) : RedoLog.NONE;
    RecoveryOverlay.Builder step1 = redoOrUndo();
    this.log = WriteAheadLog.read(region, features, logFile, step1);
    if (log.isRefused()) {
      step1 = redoOrUndo(); // without what a log that failed to read midway added
    }
    this.overlay = step1.build();
    this.pageCount = region.pageCount();
    if (pageCount > Integer.MAX_VALUE) {
      // Page indexes are ints in the tools' bit sets: regions up to 512 GiB.
      throw new IllegalStateException(
          "region of " + pageCount + " pages is too large for the offline tools");
    }
  }

  /** The stores of step 1 before the write-ahead log's: the redo records', or the rollback's. */
  private RecoveryOverlay.Builder redoOrUndo() {
    RecoveryOverlay.Builder b = RecoveryOverlay.over(region);
    b.replay(redo);
    b.rollBack(undo);
    return b;
  }

  Region region() {
    return region;
  }

  /** The armed undo record of a region without the redo log (never armed with it). */
  UndoRecord undo() {
    return undo;
  }

  /** The redo records recovery replays (none in a region without the redo log). */
  RedoLog redo() {
    return redo;
  }

  /**
   * The write-ahead log recovery replays after the redo records (NONE if the region needs none).
   */
  WriteAheadLog log() {
    return log;
  }

  long size() {
    return region.size();
  }

  int pageCount() {
    return (int) pageCount;
  }

  long getLong(long off) {
    if (overlay.isEmpty() || !overlay.touches(off, 8)) {
      return region.getLong(off);
    }
    return ByteBuffer.wrap(getBytes(off, 8)).order(ByteOrder.LITTLE_ENDIAN).getLong();
  }

  byte[] getBytes(long off, int len) {
    byte[] b = region.getBytes(off, len);
    if (!overlay.isEmpty()) {
      overlay.patch(off, b, len);
    }
    return b;
  }

  /** The page index of {@code off} if it is the first byte of a page of the data area, else -1. */
  int pageIndex(long off) {
    if (off < DATA_OFFSET || (off - DATA_OFFSET) % PAGE_SIZE != 0) {
      return -1;
    }
    long idx = (off - DATA_OFFSET) / PAGE_SIZE;
    return idx < pageCount ? (int) idx : -1;
  }

  long stateWord(long page) {
    return getLong(page + PG_STATE);
  }

  /** The 256 bytes of the page at {@code page}. */
  byte[] pageBytes(long page) {
    return getBytes(page, PAGE_SIZE);
  }

  /** The word at {@code off} as stored (a counter with its check, the scan limit, ...). */
  long word(long off) {
    return getLong(off);
  }

  /** The region's feature bits (SB_FEATURES, low half). */
  long features() {
    return features;
  }

  /** Whether LIVE pages carry a checksum and counters a check (region-format.md §11). */
  boolean hasPageChecksums() {
    return (features & FEATURE_PAGE_CHECKSUMS) != 0;
  }

  /**
   * Whether the region may hold record pages and checks the record counters (FEATURE_RECORDS,
   * region-format.md §5.5; the native open refuses it without the page-checksums feature).
   */
  boolean hasRecords() {
    return (features & FEATURE_RECORDS) != 0;
  }

  /**
   * Whether inodes may have attributes: IN_ATTRS words and ATTR_EXT pages (FEATURE_INODE_ATTRS,
   * region-format.md §5.6; the native open refuses it without the records feature).
   */
  boolean hasInodeAttrs() {
    return (features & FEATURE_INODE_ATTRS) != 0;
  }

  /**
   * Whether the region may hold symlink inode pages (FEATURE_SYMLINKS, region-format.md §5.2; the
   * native open refuses it without the inode-attributes feature).
   */
  boolean hasSymlinks() {
    return (features & FEATURE_SYMLINKS) != 0;
  }

  /** Whether directory pages' DI_SNAPSHOT words mean anything (FEATURE_SNAPSHOTS, §5.2). */
  boolean hasSnapshots() {
    return (features & FEATURE_SNAPSHOTS) != 0;
  }

  /**
   * The value of the superblock counter at {@code sbOffset} ({@link Seals#counterOffsets}), without
   * its check bits; whether the check matches is {@link SealCheck}'s business.
   */
  long counter(int sbOffset) {
    return Seals.counterValue(getLong(sbOffset), hasPageChecksums());
  }
}
