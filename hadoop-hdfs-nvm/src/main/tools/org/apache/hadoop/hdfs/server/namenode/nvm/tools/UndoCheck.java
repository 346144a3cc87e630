package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * An armed (and, since the native open accepted it, valid) undo record: a batch a crash
 * interrupted. The library arms a record with the batch's sequence number, SB_COMMIT_SEQ + 1, and
 * saves the old SB_COMMIT_SEQ in it (region-format.md §7.3), so after the rollback UNDO_STATE is
 * SB_COMMIT_SEQ + 1. A record armed with another number was not armed by the library: a disarmed
 * record keeps the payload of the last undo-logged batch, with a valid CRC, and a damaged
 * UNDO_STATE arms it again; recovery (which checks the CRC, not the number) would roll back a batch
 * that had committed.
 */
final class UndoCheck {
  private UndoCheck() {}

  static void run(RegionModel m, List<Finding> out) {
    redo(m, out);
    UndoRecord undo = m.image.undo();
    if (!undo.isArmed()) {
      return;
    }
    Set<String> fields = new TreeSet<String>();
    for (UndoRecord.Entry e : undo.entries) {
      fields.add(e.fieldName());
    }
    out.add(
        new Finding(
            Finding.Kind.UNDO_ARMED,
            UNDO_STATE,
            "the undo record is armed (commit seq "
                + undo.state
                + ", "
                + undo.entries.size()
                + " entries, "
                + undo.payloadBytes
                + " payload bytes, fields "
                + fields
                + "): a batch was interrupted; the next read-write open rolls these ranges back. The rest of this "
                + "report describes the region after that rollback"));
    long saved = savedCommitSeq(m, undo);
    if (saved < 0 || undo.state != saved + 1) {
      out.add(
          new Finding(
              Finding.Kind.STALE_UNDO_RECORD,
              UNDO_STATE,
              "the undo record is armed with sequence "
                  + Long.toUnsignedString(undo.state)
                  + (saved < 0
                      ? ", but holds no SB_COMMIT_SEQ entry, which every batch the library arms saves"
                      : ", but the batch it holds was sequence "
                          + (saved + 1)
                          + " (its saved SB_COMMIT_SEQ + 1)")
                  + ": the library never arms such a record; UNDO_STATE is damaged and the record is "
                  + "a committed batch's, which recovery would roll back"));
    }
  }

  /**
   * Redo records recovery replays: the last groups committed before the crash, whose in-place bytes
   * may not all be on media (region-format.md §7.3). Reported at the newest record's slot.
   */
  private static void redo(RegionModel m, List<Finding> out) {
    RedoLog redo = m.image.redo();
    if (redo.isEmpty()) {
      return;
    }
    StringBuilder seqs = new StringBuilder();
    int entries = 0;
    RedoLog.Record newest = null;
    for (RedoLog.Record r : redo.replayed) {
      seqs.append(seqs.length() == 0 ? "" : ", ").append(Long.toUnsignedString(r.seq));
      entries += r.entries.size();
      newest = r;
    }
    out.add(
        new Finding(
            Finding.Kind.REDO_PENDING,
            newest.offset,
            "redo records of committed groups (seq "
                + seqs
                + ", "
                + entries
                + " entries) wait for replay: their in-place bytes may not all be on media; the "
                + "next read-write open replays them. The rest of this report describes the region "
                + "after that replay"));
  }

  /** The SB_COMMIT_SEQ value the record saved (the last entry that restores it), or -1. */
  private static long savedCommitSeq(RegionModel m, UndoRecord undo) {
    long saved = -1;
    for (UndoRecord.Entry e : undo.entries) {
      if (e.target == SB_COMMIT_SEQ && e.oldBytes.length == 8) {
        long w = ByteBuffer.wrap(e.oldBytes).order(ByteOrder.LITTLE_ENDIAN).getLong();
        saved = Seals.counterValue(w, m.image.hasPageChecksums());
      }
    }
    return saved;
  }
}
