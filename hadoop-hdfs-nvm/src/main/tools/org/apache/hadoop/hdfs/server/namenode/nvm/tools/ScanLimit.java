package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.SB_SCAN_LIMIT;

/**
 * The superblock's scan limit (region-format.md §3): recovery scans only pages below it, so every
 * page at or above it must never have been written. The word holds the limit in its low 32 bits and
 * their complement in the high 32 (scanlimit.c).
 */
final class ScanLimit {
  private ScanLimit() {}

  static long word(long limit) {
    return (~limit & 0xffffffffL) << 32 | (limit & 0xffffffffL);
  }

  /** The limit of an image that opened (the native open validated the word). */
  static int of(RegionImage image) {
    return (int) (image.word(SB_SCAN_LIMIT) & 0xffffffffL);
  }
}
