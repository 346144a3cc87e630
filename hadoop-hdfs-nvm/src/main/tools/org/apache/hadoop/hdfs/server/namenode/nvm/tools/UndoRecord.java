package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.hadoop.hdfs.server.namenode.nvm.Field;
import org.apache.hadoop.hdfs.server.namenode.nvm.Region;

/**
 * The undo record of a region from before the redo log (without FEATURE_REDO_LOG) as a read-write
 * open would find it (region-format.md §4). Only parsed after the native read-only open accepted
 * the region, which validates an armed record (CRC, entry targets and lengths); the bounds checks
 * here only keep a racing writer from sending the parser out of the record.
 */
final class UndoRecord {
  /** One entry: the old bytes recovery copies back to {@code target}. */
  static final class Entry {
    final long target;
    final int fieldId;
    final byte[] oldBytes;

    Entry(long target, int fieldId, byte[] oldBytes) {
      this.target = target;
      this.fieldId = fieldId;
      this.oldBytes = oldBytes;
    }

    String fieldName() {
      for (Field f : Field.values()) {
        if (f.id() == fieldId) {
          return f.name();
        }
      }
      return "field " + fieldId;
    }
  }

  /** No record (a region with the redo log has none; region-format.md §4.1). */
  static final UndoRecord NONE = new UndoRecord(0, 0, Collections.<Entry>emptyList());

  final long state;
  final int payloadBytes;
  final List<Entry> entries;

  private UndoRecord(long state, int payloadBytes, List<Entry> entries) {
    this.state = state;
    this.payloadBytes = payloadBytes;
    this.entries = entries;
  }

  boolean isArmed() {
    return state != 0;
  }

  static UndoRecord read(Region region) {
    long state = region.getLong(UNDO_STATE);
    if (state == 0) {
      return new UndoRecord(0, 0, Collections.<Entry>emptyList());
    }
    long count = region.getInt(UNDO_ENTRY_COUNT) & 0xffffffffL;
    int bytes = (int) Math.min(region.getInt(UNDO_PAYLOAD_BYTES) & 0xffffffffL, UNDO_PAYLOAD_MAX);
    List<Entry> entries = new ArrayList<Entry>();
    long pos = 0;
    for (long i = 0; i < count && pos + UNDO_ENTRY_HEADER <= bytes; i++) {
      long target = region.getLong(UNDO_PAYLOAD + pos);
      long len = region.getInt(UNDO_PAYLOAD + pos + 8) & 0xffffffffL;
      int field = region.getInt(UNDO_PAYLOAD + pos + 12);
      if (pos + UNDO_ENTRY_HEADER + len > bytes || target < 0 || target > region.size() - len) {
        break;
      }
      entries.add(
          new Entry(
              target, field, region.getBytes(UNDO_PAYLOAD + pos + UNDO_ENTRY_HEADER, (int) len)));
      pos += UNDO_ENTRY_HEADER + ((len + 7) & ~7L);
    }
    return new UndoRecord(state, bytes, Collections.unmodifiableList(entries));
  }
}
