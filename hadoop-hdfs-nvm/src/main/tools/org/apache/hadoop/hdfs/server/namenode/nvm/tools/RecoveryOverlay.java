package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import java.util.Map;
import java.util.TreeMap;

/**
 * The bytes an armed undo record would put back, applied in entry order as recovery's rollback does
 * (a later entry wins where two overlap). A record holds at most UNDO_PAYLOAD_MAX bytes, so a
 * sorted array of single-byte patches stays small.
 */
final class RollbackOverlay {
  static final RollbackOverlay NONE = new RollbackOverlay(new TreeMap<Long, Byte>());

  private final long[] offsets;
  private final byte[] values;

  private RollbackOverlay(TreeMap<Long, Byte> patches) {
    offsets = new long[patches.size()];
    values = new byte[patches.size()];
    int i = 0;
    for (Map.Entry<Long, Byte> e : patches.entrySet()) {
      offsets[i] = e.getKey();
      values[i++] = e.getValue();
    }
  }

  static RollbackOverlay of(UndoRecord undo) {
    if (!undo.isArmed()) {
      return NONE;
    }
    TreeMap<Long, Byte> patches = new TreeMap<Long, Byte>();
    for (UndoRecord.Entry e : undo.entries) {
      for (int i = 0; i < e.oldBytes.length; i++) {
        patches.put(e.target + i, e.oldBytes[i]);
      }
    }
    return new RollbackOverlay(patches);
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
