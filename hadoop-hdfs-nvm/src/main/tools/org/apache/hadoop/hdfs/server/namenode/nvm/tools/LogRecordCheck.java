package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The contents of a valid group record of the write-ahead log, judged as recovery judges them
 * before it stores any (walreplay.c's check_record, region-format.md §12.5): every entry in bounds
 * (undo.c's nvm_log_target_ok: a non-empty range inside one data page or inside the superblock
 * counters a batch may write, SB_COMMIT_SEQ included; an 8-byte entry 8-aligned), the entries
 * covering the payload exactly, at least one, the last one SB_COMMIT_SEQ := WR_SEQ, and WR_SEQ one
 * more than the previous record's. A valid record that fails was written by no library: recovery
 * refuses the region (NVM_ECORRUPT).
 */
final class LogRecordCheck {
  private final long regionSize;
  private final long pageCount;

  LogRecordCheck(long regionSize, long pageCount) {
    this.regionSize = regionSize;
    this.pageCount = pageCount;
  }

  /**
   * What is wrong with {@code r}, or null; {@code previousSeq} is the seq of the record replayed
   * before it, or null for the first.
   */
  String problem(LogRecord r, Long previousSeq) {
    ByteBuffer p = ByteBuffer.wrap(r.payload).order(ByteOrder.LITTLE_ENDIAN);
    long size = r.payload.length;
    long pos = 0;
    long last = 0;
    for (long i = 0; i < r.count; i++) {
      if (pos + UNDO_ENTRY_HEADER > size) {
        return "entry " + i + " runs past its payload";
      }
      long target = p.getLong((int) pos);
      long len = p.getInt((int) pos + 8) & 0xffffffffL;
      last = pos;
      pos += UNDO_ENTRY_HEADER + ((len + 7) & ~7L);
      if (pos > size || !targetOk(target, len)) {
        return "entry "
            + i
            + " has a bad target "
            + Long.toUnsignedString(target)
            + " / length "
            + len;
      }
    }
    if (pos != size || r.count == 0) {
      return "it has " + r.count + " entries covering " + pos + " of " + size + " payload bytes";
    }
    if (p.getLong((int) last) != SB_COMMIT_SEQ
        || p.getInt((int) last + 8) != 8
        || Seals.decodedCounter(SB_COMMIT_SEQ, p.getLong((int) last + UNDO_ENTRY_HEADER))
            != r.seq) {
      return "it (seq "
          + Long.toUnsignedString(r.seq)
          + ") does not end by setting SB_COMMIT_SEQ to its seq";
    }
    if (previousSeq != null && r.seq != previousSeq + 1) {
      return "it has seq "
          + Long.toUnsignedString(r.seq)
          + " after a record of seq "
          + Long.toUnsignedString(previousSeq);
    }
    return null;
  }

  /** The page a replay of {@code len} bytes at {@code target} writes, or -1 (a counter). */
  long pageOf(long target, long len) {
    if (Long.compareUnsigned(target, DATA_OFFSET) < 0
        || Long.compareUnsigned(target, regionSize) >= 0) {
      return -1;
    }
    long in = (target - DATA_OFFSET) % PAGE_SIZE;
    if (len > PAGE_SIZE - in) {
      return -1;
    }
    long idx = (target - DATA_OFFSET) / PAGE_SIZE;
    return idx < pageCount ? idx : -1;
  }

  private boolean targetOk(long target, long len) {
    if (len == 0 || (len == 8 && target % 8 != 0)) {
      return false;
    }
    return isCounterRange(target, len) || pageOf(target, len) >= 0;
  }

  /** Inside the counters a batch may write, or SB_COMMIT_SEQ (undo.c nvm_sb_counter_range). */
  private static boolean isCounterRange(long off, long len) {
    return inside(SB_LAST_INODE_ID, SB_LAST_TXID + 8, off, len)
        || inside(SB_LAST_RECORD_ID, SB_MASTER_KEY_ID + 8, off, len);
  }

  private static boolean inside(long lo, long hi, long off, long len) {
    return Long.compareUnsigned(off, lo) >= 0
        && Long.compareUnsigned(off, hi) < 0
        && len <= hi - off;
  }
}
