package org.nvmnn.workload;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

/**
 * An in-doubt snapshot operation is decided from which of its snapshot paths exist: done or not
 * done, and a rename under both names or neither is not all-or-nothing. A snapshot found created
 * takes the model's state before it (the verification then compares its content).
 */
public class SnapshotInDoubtTest {
  private static final String ROOT = "/crash/t2";

  private static InDoubtResolver.Outcome decide(Op op, boolean pathThere, boolean targetThere) {
    return InDoubtResolver.snapshotOutcome(op, pathThere, targetThere).outcome;
  }

  private static Op op(Op.Kind kind, String name, String newName) {
    return new Op(
        "t2#9",
        kind,
        Op.snapshotPath(ROOT, name),
        newName == null ? null : Op.snapshotPath(ROOT, newName),
        0,
        0);
  }

  @Test
  public void createIsThereOrAbsent() {
    Op create = op(Op.Kind.CREATE_SNAPSHOT, "s9", null);
    assertEquals(InDoubtResolver.Outcome.DONE, decide(create, true, false));
    assertEquals(InDoubtResolver.Outcome.NOT_DONE, decide(create, false, false));
  }

  @Test
  public void deleteIsGoneOrStillThere() {
    Op delete = op(Op.Kind.DELETE_SNAPSHOT, "s3", null);
    assertEquals(InDoubtResolver.Outcome.DONE, decide(delete, false, false));
    assertEquals(InDoubtResolver.Outcome.NOT_DONE, decide(delete, true, false));
  }

  @Test
  public void renameIsUnderExactlyOneName() {
    Op rename = op(Op.Kind.RENAME_SNAPSHOT, "s3", "s9");
    assertEquals(InDoubtResolver.Outcome.NOT_DONE, decide(rename, true, false));
    assertEquals(InDoubtResolver.Outcome.DONE, decide(rename, false, true));
    assertEquals(InDoubtResolver.Outcome.NOT_ALL_OR_NOTHING, decide(rename, true, true));
    assertEquals(InDoubtResolver.Outcome.NOT_ALL_OR_NOTHING, decide(rename, false, false));
  }

  @Test
  public void aCreateFoundDoneHoldsTheStateBeforeIt() {
    SubtreeModel m = new SubtreeModel(ROOT, "t2#0");
    m.mkdir(ROOT + "/d1", "t2#1");
    Op create = op(Op.Kind.CREATE_SNAPSHOT, "s9", null);
    // resolved after the restart, before the worker's next operation: what Worker.inDoubt does
    OpEffects.apply(m, create, -1);
    assertEquals(2, m.snapshots().get("s9").tree.size());
    assertEquals("t2#9", m.snapshots().get("s9").createdBy);
  }

  @Test
  public void snapshotPathsSplitIntoRootAndName() {
    String p = Op.snapshotPath(ROOT, "s12");
    assertEquals("/crash/t2/.snapshot/s12", p);
    assertEquals(ROOT, Op.snapshotRoot(p));
    assertEquals("s12", Op.snapshotName(p));
  }
}
