package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;

/**
 * The walk of a write-ahead log's records from the checkpoint on, as wal.c's nvm_wal_replay makes
 * it (region-format.md §12.1, §12.5): a record of LSN x lies at WAL_HEADER_SIZE + x mod capacity;
 * the rest of a lap shorter than a record header is skipped, and so is a pad record; the walk stops
 * at the first position without a valid record (a torn or stale one, zeros: the log's end), at a
 * valid record whose contents recovery refuses, or after one lap. The entries of every record it
 * accepts go to the overlay, in order.
 */
final class LogReplay {
  /** Group records replayed. */
  long records;

  /** Their entries. */
  long entries;

  /** Their bytes, headers included (a pad record's not counted). */
  long bytes;

  /** Pad records skipped. */
  long pads;

  /** The seq of the first and the last record replayed (when {@link #records} &gt; 0). */
  long firstSeq;

  long lastSeq;

  /** The LSN the walk stopped at: the log's end, or the refused record. */
  long end;

  /** What is wrong with the valid record the walk stopped at, or null. */
  String badRecord;

  /** One more than the highest page index an entry wrote (0: none). */
  long pagesCovered;

  private LogReplay() {}

  static LogReplay walk(
      FileChannel log,
      LogHeader header,
      long from,
      LogRecordCheck check,
      RecoveryOverlay.Builder into)
      throws IOException {
    LogReplay w = new LogReplay();
    long capacity = header.capacity;
    long x = from;
    Long previous = null;
    while (Long.compareUnsigned(x - from, capacity) < 0) {
      long left = LogRecord.lapLeft(x, capacity);
      if (left < WR_PAYLOAD) { // too short for a record: the lap ends here
        x += left;
        continue;
      }
      LogRecord r = LogRecord.at(log, capacity, header.regionId, header.epoch, x);
      if (r == null) {
        break;
      }
      if (r.isGroup()) {
        String problem = check.problem(r, previous);
        if (problem != null) {
          w.badRecord = problem;
          break;
        }
        w.apply(r, check, into);
        w.firstSeq = previous == null ? r.seq : w.firstSeq;
        w.lastSeq = r.seq;
        previous = r.seq;
      } else {
        w.pads++;
      }
      x += r.length;
    }
    w.end = x;
    return w;
  }

  private void apply(LogRecord r, LogRecordCheck check, RecoveryOverlay.Builder into) {
    ByteBuffer p = ByteBuffer.wrap(r.payload).order(ByteOrder.LITTLE_ENDIAN);
    int pos = 0;
    while (pos < r.payload.length) {
      long target = p.getLong(pos);
      int len = p.getInt(pos + 8); // at most a page: the check accepted the entry
      into.put(target, r.payload, pos + UNDO_ENTRY_HEADER, len);
      long page = check.pageOf(target, len);
      pagesCovered = Math.max(pagesCovered, page + 1);
      pos += UNDO_ENTRY_HEADER + ((len + 7) & ~7);
      entries++;
    }
    records++;
    bytes += WR_PAYLOAD + r.payload.length;
  }
}
