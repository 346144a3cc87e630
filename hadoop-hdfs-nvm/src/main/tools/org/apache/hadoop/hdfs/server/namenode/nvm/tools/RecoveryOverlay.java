package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import java.util.Map;
import java.util.TreeMap;

/**
 * The bytes step 1 of recovery would write (region-format.md §7.6), applied in the order it writes
 * them (a later entry wins where two overlap): in a region with the redo log the entries of the
 * redo records it replays, in ascending seq; in a region from before it the old bytes an armed undo
 * record puts back. The records hold at most UNDO_SIZE bytes, so a sorted array of single-byte
 * patches stays small.
 */
final class RecoveryOverlay {
  static final RecoveryOverlay NONE = new RecoveryOverlay(new TreeMap<Long, Byte>());

  private final long[] offsets;
  private final byte[] values;

  private RecoveryOverlay(TreeMap<Long, Byte> patches) {
    offsets = new long[patches.size()];
    values = new byte[patches.size()];
    int i = 0;
    for (Map.Entry<Long, Byte> e : patches.entrySet()) {
      offsets[i] = e.getKey();
      values[i++] = e.getValue();
    }
  }

  /** The rollback of an armed undo record (a region without the redo log). */
  static RecoveryOverlay of(UndoRecord undo) {
    if (!undo.isArmed()) {
      return NONE;
    }
    TreeMap<Long, Byte> patches = new TreeMap<Long, Byte>();
    for (UndoRecord.Entry e : undo.entries) {
      for (int i = 0; i < e.oldBytes.length; i++) {
        patches.put(e.target + i, e.oldBytes[i]);
      }
    }
    return new RecoveryOverlay(patches);
  }

  /** The replay of the redo records recovery replays (a region with the redo log). */
  static RecoveryOverlay of(RedoLog redo) {
    if (redo.isEmpty()) {
      return NONE;
    }
    TreeMap<Long, Byte> patches = new TreeMap<Long, Byte>();
    for (RedoLog.Record r : redo.replayed) {
      for (RedoLog.Entry e : r.entries) {
        for (int i = 0; i < e.bytes.length; i++) {
          patches.put(e.target + i, e.bytes[i]);
        }
      }
    }
    return new RecoveryOverlay(patches);
  }

  boolean isEmpty() {
    return offsets.length == 0;
  }

  /** Whether any patched byte lies in [off, off + len). */
  boolean touches(long off, int len) {
    int i = firstAtOrAfter(off);
    return i < offsets.length && offsets[i] < off + len;
  }

  /** Overwrites dst[0, len) (the bytes at [off, off + len)) with the patched ones. */
  void patch(long off, byte[] dst, int len) {
    for (int i = firstAtOrAfter(off); i < offsets.length && offsets[i] < off + len; i++) {
      dst[(int) (offsets[i] - off)] = values[i];
    }
  }

  private int firstAtOrAfter(long off) {
    int lo = 0;
    int hi = offsets.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (offsets[mid] < off) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }
}
