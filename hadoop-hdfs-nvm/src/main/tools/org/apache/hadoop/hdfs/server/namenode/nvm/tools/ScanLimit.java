package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.SB_SCAN_LIMIT;

/**
 * The superblock's scan limit (region-format.md §3): recovery scans only pages below it, so every
 * page at or above it must never have been written, but for pages a record of the write-ahead log
 * writes: the log's replay raises the limit over them. The word holds the limit in its low 32 bits
 * and their complement in the high 32 (scanlimit.c).
 */
final class ScanLimit {
  private ScanLimit() {}

  /** Pages a raise adds above the pages it covers (scanlimit.c NVM_SCAN_LIMIT_STEP, §3). */
  static final long STEP = 16384;

  /**
   * The limit a raise over pages [0, {@code highWater}) stores (scanlimit.c nvm_scan_limit_cover):
   * {@code highWater} + {@link #STEP}, at most the page count.
   */
  static long covering(long highWater, long pageCount) {
    return Math.min(highWater + STEP, pageCount);
  }

  static long word(long limit) {
    return (~limit & 0xffffffffL) << 32 | (limit & 0xffffffffL);
  }

  /**
   * The limit of an image that opened (the native open validated the word), as recovery's scan sees
   * it: after step 1, whose replay of a write-ahead log raises it over every page a record wrote
   * (region-format.md §12.5; {@link WriteAheadLog} stores the raised word in the image's overlay).
   * Without that raise, a page written only through the log would lie above the limit of a region
   * file whose superblock page was not written back.
   */
  static int of(RegionImage image) {
    return (int) (image.word(SB_SCAN_LIMIT) & 0xffffffffL);
  }
}
