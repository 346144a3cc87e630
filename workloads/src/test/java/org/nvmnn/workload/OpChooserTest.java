package org.nvmnn.workload;

import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.util.EnumSet;
import java.util.Set;
import org.junit.Test;

public class OpChooserTest {
  /**
   * Every chosen op is valid on the model (the model throws otherwise); size, depth and the number
   * of snapshots stay bounded; all kinds occur.
   */
  @Test
  public void choosesValidOpsWithinBounds() {
    SubtreeModel m = new SubtreeModel("/crash/t1", "t1#0");
    OpChooser chooser = new OpChooser(42, "t1", 120, 4, true, 3);
    Set<Op.Kind> seen = EnumSet.noneOf(Op.Kind.class);
    for (int i = 0; i < 20000; i++) {
      Op op = chooser.next(m);
      seen.add(op.kind);
      OpEffects.apply(m, op, op.length);
      assertTrue(m.size() <= 121);
      assertTrue(m.snapshots().size() <= 3);
    }
    for (String p : m.nodes().keySet()) {
      assertTrue(p, p.substring("/crash/t1".length()).split("/").length - 1 <= 4);
    }
    assertTrue(seen.toString(), seen.equals(EnumSet.allOf(Op.Kind.class)));
  }

  /**
   * Without snapshots a seed chooses exactly the operations it chose before snapshot ops existed.
   */
  @Test
  public void withoutSnapshotsNoSnapshotOps() {
    SubtreeModel m = new SubtreeModel("/crash/t1", "t1#0");
    OpChooser chooser = new OpChooser(42, "t1", 120, 4, false, 0);
    for (int i = 0; i < 20000; i++) {
      Op op = chooser.next(m);
      assertFalse(op.toString(), op.isSnapshotOp());
      OpEffects.apply(m, op, op.length);
    }
  }

  /** Snapshot ops are a few % of the mix. */
  @Test
  public void snapshotOpsAreAFewPercent() {
    SubtreeModel m = new SubtreeModel("/crash/t2", "t2#0");
    OpChooser chooser = new OpChooser(7, "t2", 120, 4, false, 3);
    int snapshotOps = 0;
    for (int i = 0; i < 20000; i++) {
      Op op = chooser.next(m);
      if (op.isSnapshotOp()) snapshotOps++;
      OpEffects.apply(m, op, op.length);
    }
    assertTrue("" + snapshotOps, snapshotOps > 20000 * 3 / 100 && snapshotOps < 20000 * 8 / 100);
  }
}
