package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;

/**
 * One sequential pass over every page's state word, as recovery's scan makes it (step 2 of
 * region-format.md §7.6): live inode (symlinks among them), extension (attribute pages among them),
 * string and record pages, the high-water mark, and counts of pending, invalid and malformed pages.
 * Recovery stops at the scan limit; the census goes on to the end and lists the pages above the
 * limit that are not all zero, which recovery would not see.
 */
final class PageCensus {
  final int pageCount;

  /** SB_SCAN_LIMIT: recovery scans pages [0, scanLimit). */
  final int scanLimit;

  /** Pages at or above the scan limit whose state word is not zero. */
  final LongList aboveScanLimit = new LongList();

  /** Pages at an index at or above this have an all-zero state word (never used). */
  int highWater;

  final LongList liveInodes = new LongList();
  final LongList liveExts = new LongList();
  final LongList liveStrings = new LongList();

  /** LIVE RECORD pages, in a region with the records feature (else they are of an unknown kind). */
  final LongList liveRecords = new LongList();

  /** State words recovery's scan refuses: wrong magic, or a state above INVALID. */
  final LongList malformed = new LongList();

  /**
   * LIVE pages of a kind the format does not define, or of one the region's features do not allow
   * (recovery refuses these too).
   */
  final LongList unknownKind = new LongList();

  long pending;
  long invalid;

  /** Pages whose state word is 0 below the high-water mark (free, never committed). */
  long zeroBelowHighWater;

  long liveDirs;
  long liveFiles;
  long liveNameExts;
  long liveBlockExts;
  long liveStringExts;
  long liveRecordExts;

  /** LIVE ATTR_EXT pages, in a region with the inode-attributes feature. */
  long liveAttrExts;

  /** LIVE SYMLINK pages (inodes), in a region with the symlinks feature. */
  long liveSymlinks;

  private final boolean records;
  private final boolean attrs;
  private final boolean symlinks;

  private PageCensus(int pageCount, int scanLimit, RegionImage image) {
    this.pageCount = pageCount;
    this.scanLimit = scanLimit;
    this.records = image.hasRecords();
    this.attrs = image.hasInodeAttrs();
    this.symlinks = image.hasSymlinks();
  }

  static PageCensus scan(RegionImage image) {
    PageCensus c = new PageCensus(image.pageCount(), ScanLimit.of(image), image);
    for (int i = c.scanLimit; i < c.pageCount; i++) {
      long page = pageOffset(i);
      if (image.stateWord(page) != 0) {
        c.aboveScanLimit.add(page);
      }
    }
    long zeros = 0;
    for (int i = 0; i < c.scanLimit; i++) {
      long page = pageOffset(i);
      long w = image.stateWord(page);
      if (w == 0) {
        zeros++;
        continue;
      }
      c.highWater = i + 1;
      c.zeroBelowHighWater = zeros;
      c.count(page, w);
    }
    return c;
  }

  private void count(long page, long w) {
    if (!PageState.isWellFormed(w)) {
      malformed.add(page);
      return;
    }
    int state = stateOf(w);
    if (state == STATE_PENDING) {
      pending++;
      return;
    }
    if (state == STATE_INVALID) {
      invalid++;
      return;
    }
    switch (kindOf(w)) {
      case KIND_DIR:
        liveDirs++;
        liveInodes.add(page);
        break;
      case KIND_FILE:
        liveFiles++;
        liveInodes.add(page);
        break;
      case KIND_SYMLINK: // recovery's scan refuses one in a region without the feature
        if (symlinks) {
          liveSymlinks++;
          liveInodes.add(page);
        } else {
          unknownKind.add(page);
        }
        break;
      case KIND_NAME_EXT:
        liveNameExts++;
        liveExts.add(page);
        break;
      case KIND_BLOCK_EXT:
        liveBlockExts++;
        liveExts.add(page);
        break;
      case KIND_STRING_EXT:
        liveStringExts++;
        liveExts.add(page);
        break;
      case KIND_RECORD_EXT: // an extension page whatever the features: reclaimed if unreachable
        liveRecordExts++;
        liveExts.add(page);
        break;
      case KIND_ATTR_EXT: // recovery's scan refuses one in a region without the feature
        if (attrs) {
          liveAttrExts++;
          liveExts.add(page);
        } else {
          unknownKind.add(page);
        }
        break;
      case KIND_STRING:
        liveStrings.add(page);
        break;
      case KIND_RECORD:
        (records ? liveRecords : unknownKind).add(page);
        break;
      default:
        unknownKind.add(page);
    }
  }
}
