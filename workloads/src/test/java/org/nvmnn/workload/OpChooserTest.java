package org.nvmnn.workload;

import static org.junit.Assert.assertTrue;

import java.util.EnumSet;
import java.util.Set;
import org.junit.Test;

public class OpChooserTest {
  /**
   * Every chosen op is valid on the model (the model throws otherwise); size and depth stay
   * bounded; all kinds occur.
   */
  @Test
  public void choosesValidOpsWithinBounds() {
    SubtreeModel m = new SubtreeModel("/crash/t1", "t1#0");
    OpChooser chooser = new OpChooser(42, "t1", 120, 4, true);
    Set<Op.Kind> seen = EnumSet.noneOf(Op.Kind.class);
    for (int i = 0; i < 20000; i++) {
      Op op = chooser.next(m);
      seen.add(op.kind);
      OpEffects.apply(m, op, op.length);
      assertTrue(m.size() <= 121);
    }
    for (String p : m.nodes().keySet()) {
      assertTrue(p, p.substring("/crash/t1".length()).split("/").length - 1 <= 4);
    }
    assertTrue(seen.toString(), seen.equals(EnumSet.allOf(Op.Kind.class)));
  }
}
