package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.apache.hadoop.hdfs.server.namenode.nvm.Crc32c;

/**
 * The checks of region-format.md §11, composed here from the format's definition (the checker's own
 * reading of it; only the CRC-32C itself is the library's, {@link Crc32c}):
 *
 * <ul>
 *   <li>a LIVE page's checksum: the CRC-32C of its 256 bytes with bytes 4..7 (the top half of the
 *       state word, where the checksum is kept) taken as zero;
 *   <li>a superblock counter's check: the low 16 bits of the CRC-32C of the counter's offset and
 *       value (two little-endian u64), kept in bits 48..63 above the 48-bit value.
 * </ul>
 */
final class Seals {
  private Seals() {}

  /** The value bits of a superblock counter. */
  static final long COUNTER_VALUE_MASK = (1L << SB_COUNTER_BITS) - 1;

  /** The counters every region checks, SB_LAST_INODE_ID .. SB_LAST_TXID, in offset order. */
  private static final String[] COUNTER_NAMES = {
    "SB_LAST_INODE_ID",
    "SB_GENSTAMP_V1",
    "SB_GENSTAMP_V2",
    "SB_GENSTAMP_V1_LIMIT",
    "SB_LAST_BLOCK_ID",
    "SB_COMMIT_SEQ",
    "SB_LAST_STRING_ID",
    "SB_ROOT_PAGE",
    "SB_LAST_TXID"
  };

  /** The counters after SB_FEATURES, checked only in a region with the records feature. */
  private static final String[] RECORD_COUNTER_NAMES = {
    "SB_LAST_RECORD_ID", "SB_TOKEN_SEQUENCE", "SB_MASTER_KEY_ID"
  };

  static {
    if (SB_LAST_INODE_ID + 8 * (COUNTER_NAMES.length - 1) != SB_LAST_TXID
        || SB_LAST_RECORD_ID + 8 * (RECORD_COUNTER_NAMES.length - 1) != SB_MASTER_KEY_ID) {
      throw new AssertionError(
          "the counters are not the words SB_LAST_INODE_ID .. SB_LAST_TXID and"
              + " SB_LAST_RECORD_ID .. SB_MASTER_KEY_ID");
    }
  }

  /**
   * The offsets of the counters that carry a check in a region (as nvm_next_counter walks them):
   * the record counters only with the records feature (before it they are zero words nothing
   * reads).
   */
  static int[] counterOffsets(boolean records) {
    int n = COUNTER_NAMES.length + (records ? RECORD_COUNTER_NAMES.length : 0);
    int[] out = new int[n];
    for (int i = 0; i < n; i++) {
      out[i] =
          i < COUNTER_NAMES.length
              ? SB_LAST_INODE_ID + 8 * i
              : SB_LAST_RECORD_ID + 8 * (i - COUNTER_NAMES.length);
    }
    return out;
  }

  /** "SB_LAST_INODE_ID" for 4104, ..., "SB_MASTER_KEY_ID" for 4208. */
  static String counterName(long off) {
    return off >= SB_LAST_RECORD_ID
        ? RECORD_COUNTER_NAMES[(int) ((off - SB_LAST_RECORD_ID) / 8)]
        : COUNTER_NAMES[(int) ((off - SB_LAST_INODE_ID) / 8)];
  }

  /** The checksum of a page image (256 bytes; not modified) as the state word of a LIVE one. */
  static long pageChecksum(byte[] page) {
    byte[] b = page.clone();
    b[4] = b[5] = b[6] = b[7] = 0;
    return Crc32c.update(0, b, 0, PAGE_SIZE) & 0xffffffffL;
  }

  /** The kind whose LIVE state word would make {@code page}'s checksum match, or -1. */
  static int kindMatchingChecksum(byte[] page, long stored) {
    byte[] b = page.clone();
    for (int k = KIND_DIR; k <= KIND_SYMLINK; k++) { // every kind, as recovery's scan tries
      long low = stateWord(k, STATE_LIVE) & 0xffffffffL;
      for (int i = 0; i < 4; i++) {
        b[i] = (byte) (low >>> (8 * i));
      }
      if (pageChecksum(b) == stored) {
        return k;
      }
    }
    return -1;
  }

  /** The 16-bit check of a counter holding {@code value} (its low 48 bits) at {@code off}. */
  static long counterCheck(long off, long value) {
    byte[] b =
        ByteBuffer.allocate(16)
            .order(ByteOrder.LITTLE_ENDIAN)
            .putLong(off)
            .putLong(value & COUNTER_VALUE_MASK)
            .array();
    return Crc32c.update(0, b, 0, b.length) & 0xffffL;
  }

  /** The checked word of a counter: the value in bits 0..47, its check above. */
  static long counterWord(long off, long value) {
    return (value & COUNTER_VALUE_MASK) | counterCheck(off, value) << SB_COUNTER_BITS;
  }

  /**
   * The value of the counter word {@code word} at {@code off} as a log entry holds it, decoded as
   * the library decodes it there (checksum.c nvm_counter_value): the low 48 bits if the word is
   * that value's checked word, else the whole word.
   */
  static long decodedCounter(long off, long word) {
    long value = word & COUNTER_VALUE_MASK;
    return word == counterWord(off, value) ? value : word;
  }

  /**
   * The value of a counter word, decoded as the library decodes it (nvm_sb_get): the low 48 bits in
   * a region with the feature, or whose word has check bits; the whole word in a region without the
   * feature whose counter is still plain.
   */
  static long counterValue(long word, boolean pageChecksums) {
    return pageChecksums || (word >>> SB_COUNTER_BITS) != 0 ? word & COUNTER_VALUE_MASK : word;
  }
}
