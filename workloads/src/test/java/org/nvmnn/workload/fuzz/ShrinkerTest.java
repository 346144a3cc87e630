package org.nvmnn.workload.fuzz;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.Test;

public class ShrinkerTest {
  private static Op mkdir(String p) {
    return Op.of(Call.mkdirs, p, 0755, true);
  }

  private static Op create(String p) {
    return Op.of(
        Call.create,
        p,
        0644,
        "fz-a",
        java.util.EnumSet.of(org.apache.hadoop.fs.CreateFlag.CREATE),
        true,
        (short) 1,
        1048576L);
  }

  /**
   * A pretend pair of NameNodes: it "diverges" at the first call after which the calls in {@code
   * needed} have all been seen, in order.
   */
  private static Shrinker.Oracle needs(List<Op> needed, int[] runs) {
    return ops -> {
      runs[0]++;
      int k = 0;
      for (int i = 0; i < ops.size(); i++) {
        if (k < needed.size() && ops.get(i).equals(needed.get(k))) {
          k++;
        }
        if (k == needed.size()) {
          return new Divergence("restart-failed", "nvm", i, ops.get(i), "x");
        }
      }
      return null;
    };
  }

  @Test
  public void ddminKeepsExactlyTheCallsTheDivergenceNeeds() throws Exception {
    List<Op> seq = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      seq.add(mkdir("/n" + i));
    }
    Op a = create("/n17/x\u0000");
    Op b = Op.of(Call.setOwner, "/n150", "u", null);
    seq.add(40, a);
    seq.add(120, b);
    Op restart = Op.of(Call.RESTART);
    seq.add(restart);
    List<Op> needed = new ArrayList<>();
    needed.add(a);
    needed.add(b);
    needed.add(restart);
    int[] runs = {0};
    Shrinker sh = new Shrinker(needs(needed, runs), 60_000);
    List<Op> min = sh.shrink(seq, "restart-failed:nvm:RESTART:x", null);
    assertEquals(needed, min);
    assertTrue("tests: " + runs[0], runs[0] < 80);
  }

  @Test
  public void aSequenceThatDoesNotReproduceGivesNull() throws Exception {
    List<Op> seq = new ArrayList<>();
    seq.add(mkdir("/a"));
    seq.add(Op.of(Call.RESTART));
    Shrinker sh = new Shrinker(ops -> null, 60_000);
    assertNull(sh.shrink(seq, "anything", null));
  }

  @Test
  public void theSliceFollowsAncestorsDescendantsRenamesAndTheRoot() {
    List<Op> seq = new ArrayList<>();
    seq.add(mkdir("/a/b")); // ancestor of the rename source: kept
    seq.add(mkdir("/x")); // unrelated: dropped
    seq.add(Op.of(Call.setQuota, "/", 5L, 5L, null)); // the root: kept
    seq.add(Op.of(Call.rename, "/a/b", "/c")); // kept; makes /c related
    seq.add(create("/c/f")); // below /c: kept
    seq.add(create("/x/g")); // unrelated: dropped
    seq.add(Op.of(Call.renewLease, "fz-a")); // no path: kept
    seq.add(Op.of(Call.complete, "/c/f", "fz-a", BlockRef.last("/c/f"), FileRef.of("/c/f")));
    List<Op> s = Shrinker.slice(seq, null);
    List<Op> want = new ArrayList<>(seq);
    want.remove(5);
    want.remove(1);
    assertEquals(want, s);
  }

  @Test
  public void taggedSliceKeepsHostileCallsAndWhatTheyDependOn() {
    List<Op> seq = new ArrayList<>();
    seq.add(mkdir("/p")); // parent of the hostile call's path
    seq.add(mkdir("/q"));
    seq.add(Generator.autoTags(create("/p/a\u0000b")));
    seq.add(Op.of(Call.RESTART));
    List<Op> s = Shrinker.taggedSlice(seq, null);
    assertEquals(3, s.size());
    assertEquals(seq.get(0), s.get(0));
    assertEquals(seq.get(2), s.get(1));
  }
}
