package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * An armed (and, since the native open accepted it, valid) undo record: a batch a crash
 * interrupted.
 */
final class UndoCheck {
  private UndoCheck() {}

  static void run(RegionModel m, List<Finding> out) {
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
  }
}
