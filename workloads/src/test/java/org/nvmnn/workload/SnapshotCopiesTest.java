package org.nvmnn.workload;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.Test;

/**
 * The model's snapshot copies follow createSnapshot, renameSnapshot and deleteSnapshot, keep the
 * state of their creation whatever the live tree does afterwards, and the checker reports a
 * snapshot lost, brought back or changed.
 */
public class SnapshotCopiesTest {
  private static final String ROOT = "/crash/t0";
  private final SubtreeModel m = new SubtreeModel(ROOT, "t0#0");

  private void apply(Op op) {
    OpEffects.apply(m, op, op.length);
  }

  private static Op create(int seq, String name) {
    return new Op("t0#" + seq, Op.Kind.CREATE_SNAPSHOT, Op.snapshotPath(ROOT, name), null, 0, 0);
  }

  private static Op rename(int seq, String from, String to) {
    return new Op(
        "t0#" + seq,
        Op.Kind.RENAME_SNAPSHOT,
        Op.snapshotPath(ROOT, from),
        Op.snapshotPath(ROOT, to),
        0,
        0);
  }

  private static Op delete(int seq, String name) {
    return new Op("t0#" + seq, Op.Kind.DELETE_SNAPSHOT, Op.snapshotPath(ROOT, name), null, 0, 0);
  }

  @Test
  public void aCopyKeepsTheStateOfItsCreation() {
    m.mkdir(ROOT + "/d1", "t0#1");
    m.createFile(ROOT + "/d1/f2", 2, 300, FileContent.crc(2, 300), 16390, "t0#2");
    apply(create(3, "s3"));
    m.setPermission(ROOT + "/d1/f2", (short) 0600, "t0#4");
    m.setReplication(ROOT + "/d1/f2", (short) 2, "t0#5");
    m.setMtime(ROOT + "/d1/f2", 1000000000000L, "t0#6");
    m.rename(ROOT + "/d1", ROOT + "/d7", "t0#7");
    m.delete(ROOT + "/d7/f2", "t0#8");
    m.mkdir(ROOT + "/d9", "t0#9");

    SubtreeModel s3 = m.snapshots().get("s3").tree;
    assertEquals(3, s3.size()); // root, d1, d1/f2
    ModelNode f = s3.get(ROOT + "/d1/f2");
    assertEquals(0644, f.permission);
    assertEquals(1, f.replication);
    assertEquals(-1, f.mtime);
    assertEquals(16390, f.inodeId);
    assertEquals("t0#2", f.placedBy);
    assertNull(s3.get(ROOT + "/d9"));
    assertEquals(3, m.size()); // live: root, d7, d9
  }

  @Test
  public void renameMovesTheCopyAndDeleteDropsIt() {
    apply(create(1, "s1"));
    m.mkdir(ROOT + "/d2", "t0#2");
    apply(create(3, "s3"));
    apply(rename(4, "s1", "s4"));
    assertEquals("[s3, s4]", m.snapshots().names().toString());
    assertEquals(1, m.snapshots().get("s4").tree.size()); // the state s1 was created from
    assertEquals("t0#1", m.snapshots().get("s4").createdBy);
    assertEquals("t0#4", m.snapshots().get("s4").namedBy);
    assertEquals("t0#4", m.snapshots().removedBy("s1"));
    apply(delete(5, "s3"));
    assertEquals("[s4]", m.snapshots().names().toString());
    assertEquals("t0#5", m.snapshots().removedBy("s3"));
  }

  @Test(expected = IllegalStateException.class)
  public void aNameIsNeverReused() {
    apply(create(1, "s1"));
    apply(delete(2, "s1"));
    apply(create(3, "s1"));
  }

  @Test
  public void equalSnapshotsPass() {
    m.mkdir(ROOT + "/d1", "t0#1");
    apply(create(2, "s2"));
    m.delete(ROOT + "/d1", "t0#3");
    assertTrue(SnapshotChecker.check(m, Namespaces.observeSnapshots(m)).isEmpty());
  }

  @Test
  public void lostCreateRenameOrDeleteIsBlamedOnIt() {
    apply(create(1, "s1"));
    apply(create(2, "s2"));
    Map<String, Map<String, ObservedEntry>> before = Namespaces.observeSnapshots(m);
    apply(rename(3, "s1", "s3"));
    apply(delete(4, "s2"));
    apply(create(5, "s5"));
    assertEquals(
        "[/crash/t0/.snapshot/s3: snapshot missing (blamed on t0#3),"
            + " /crash/t0/.snapshot/s5: snapshot missing (blamed on t0#5),"
            + " /crash/t0/.snapshot/s1: snapshot exists, should not (blamed on t0#3),"
            + " /crash/t0/.snapshot/s2: snapshot exists, should not (blamed on t0#4)]",
        SnapshotChecker.check(m, before).toString());
  }

  @Test
  public void aChangedSnapshotIsBlamedOnItsCreate() {
    m.createFile(ROOT + "/f1", 1, 100, FileContent.crc(1, 100), 16390, "t0#1");
    m.mkdir(ROOT + "/d2", "t0#2");
    apply(create(3, "s3"));
    // the snapshot took a later change: f1's permission, and d4 appeared in it
    m.setPermission(ROOT + "/f1", (short) 0600, "t0#4");
    m.mkdir(ROOT + "/d2/d5", "t0#5");
    Map<String, Map<String, ObservedEntry>> seen = Namespaces.observeSnapshots(m);
    seen.put("s3", Namespaces.observe(m));
    List<Discrepancy> found = SnapshotChecker.check(m, seen);
    assertEquals(
        "[/crash/t0/.snapshot/s3/f1: permission 0600, expected 0644, state of t0#1"
            + " (snapshot s3 created by t0#3) (blamed on t0#3),"
            + " /crash/t0/.snapshot/s3/d2/d5: exists, should not"
            + " (snapshot s3 created by t0#3) (blamed on t0#3)]",
        found.toString());
  }

  @Test
  public void aRootNoLongerSnapshottableIsReported() {
    assertEquals(
        "[/crash/t0: not snapshottable (blamed on t0#0)]",
        SnapshotChecker.check(m, null).toString());
  }
}
