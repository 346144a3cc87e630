package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;
import static org.junit.Assert.*;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import org.apache.hadoop.hdfs.server.namenode.nvm.DiffEntryFormat;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeAttrs;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeStore;
import org.apache.hadoop.hdfs.server.namenode.nvm.PersistMode;
import org.apache.hadoop.hdfs.server.namenode.nvm.Region;
import org.apache.hadoop.hdfs.server.namenode.nvm.Txn;
import org.junit.Test;

/**
 * The snapshot records (region-format.md §13) in check and dump: a snapshot of /user/alice, the
 * counter, and alice's diff record holding small.txt in a deleted list, with a current small.txt
 * beside it (two pages of one name), are clean and dumped; what the writer never leaves is a
 * BAD_SNAPSHOT_RECORD, and recovery still accepts the region (the records are the NameNode's).
 */
public class RegionCheckSnapshotRecordTest extends SampleNamespaceFixture {
  private final RegionOracle oracle = new RegionOracle();

  private CheckReport judge(String what) throws Exception {
    CheckReport r = CheckAssert.check(n.file);
    oracle.judge(n.file, shm.file("open-copy"), what);
    assertNull("recovery accepts it: " + what, oracle.lastRefusal);
    return r;
  }

  /** A diff payload's head (the deleted ids, no references, no copy times) and a stand-in. */
  private static byte[] diffs(long... deleted) {
    return diffs(deleted, new long[0]);
  }

  private static byte[] diffs(long[] deleted, long[] referred) {
    ByteBuffer b =
        ByteBuffer.allocate(12 + 8 * deleted.length + 8 * referred.length + 3)
            .order(ByteOrder.LITTLE_ENDIAN);
    b.putInt(deleted.length);
    for (long id : deleted) {
      b.putLong(id);
    }
    b.putInt(referred.length);
    for (long id : referred) {
      b.putLong(id);
    }
    b.putInt(0); // no directory copy with an access time
    b.put(new byte[] {1, 2, 3});
    return b.array();
  }

  /** The records the preview writes for a snapshot of alice after small.txt's delete. */
  private long[] snapshotOfAlice(long counter, long snapshotId, boolean snapshottable)
      throws Exception {
    return snapshotOfAlice(counter, snapshotId, snapshottable, n.alice, diffs(n.id(n.small)));
  }

  /** The same, with the diff record of {@code diffOwner} holding {@code diffPayload}. */
  private long[] snapshotOfAlice(
      long counter, long snapshotId, boolean snapshottable, long diffOwner, byte[] diffPayload)
      throws Exception {
    long[] pages = new long[3];
    try (InodeStore s = InodeStore.open(Region.open(n.file, PersistMode.EMULATED));
        Txn t = s.begin()) {
      t.setSnapshottable(n.alice, snapshottable);
      pages[0] = t.createRecord(RECORD_SNAPSHOT_IDS, 0, counter, new byte[0]);
      pages[1] = t.createRecord(RECORD_SNAPSHOT, snapshotId, n.id(n.alice), new byte[] {9});
      pages[2] = t.createRecord(RECORD_INODE_DIFFS, n.id(diffOwner), 0, diffPayload);
      t.commit();
    }
    return pages;
  }

  @Test
  public void theRecordsOfASnapshotAreCleanAndDumped() throws Exception {
    snapshotOfAlice(1, 0, true);
    try (InodeStore s = InodeStore.open(Region.open(n.file, PersistMode.EMULATED));
        Txn t = s.begin()) {
      // small.txt created again: its deleted page and the current one share a name
      t.create(n.alice, InodeAttrs.file("small.txt").times(9000, 9001).mode(0644));
      t.commit();
    }
    CheckReport r = judge("a snapshot of alice");
    assertEquals(r.format(), 0, r.exitCode());
    List<String> lines = NamespaceDump.recordLines(n.file);
    String all = lines.toString();
    assertTrue(all, all.contains("snapshotIds counter=1 "));
    assertTrue(all, all.contains("snapshot id=0 directoryInodeId=" + n.id(n.alice) + " length=1 "));
    assertTrue(
        all,
        all.contains(
            "inodeDiffs inodeId="
                + n.id(n.alice)
                + " deletedInodes=["
                + n.id(n.small)
                + "] referredInodes=[] length=23 "));
  }

  @Test
  public void withoutTheDeletedListTwoPagesOfOneNameAreADuplicate() throws Exception {
    long page;
    try (InodeStore s = InodeStore.open(Region.open(n.file, PersistMode.EMULATED));
        Txn t = s.begin()) {
      page = t.create(n.alice, InodeAttrs.file("small.txt").times(9000, 9001).mode(0644));
      t.commit();
    }
    CheckAssert.onlyError(
        judge("two small.txt"), Finding.Kind.DUPLICATE_NAME, Math.max(page, n.small) + IN_NAME_LEN);
  }

  @Test
  public void aCounterNotAboveASnapshotIdIsBad() throws Exception {
    long[] p = snapshotOfAlice(3, 3, true);
    Finding f =
        CheckAssert.onlyError(
            judge("counter 3, snapshot 3"), Finding.Kind.BAD_SNAPSHOT_RECORD, p[0] + RC_VALUE);
    assertTrue(f.message(), f.message().contains("not above snapshot id 3"));
  }

  @Test
  public void aSnapshotOfADirectoryThatDoesNotAllowThemIsBad() throws Exception {
    long[] p = snapshotOfAlice(1, 0, false);
    Finding f =
        CheckAssert.onlyError(
            judge("alice not snapshottable"), Finding.Kind.BAD_SNAPSHOT_RECORD, p[1] + RC_VALUE);
    assertTrue(f.message(), f.message().contains("DI_SNAPSHOT"));
  }

  @Test
  public void aDeletedIdWhoseParentIsAnotherIsBad() throws Exception {
    long page = snapshotOfAlice(1, 0, true, n.user, diffs(n.id(n.small)))[2];
    Finding f =
        CheckAssert.onlyError(
            judge("small.txt in user's deleted list"),
            Finding.Kind.BAD_SNAPSHOT_RECORD,
            page + RC_PAYLOAD);
    assertTrue(f.message(), f.message().contains("whose parent is inode " + n.id(n.alice)));
  }

  /**
   * big.bin renamed out of alice's snapshot into /tmp: alice's deleted list refers to it, /tmp's
   * reference record names it; the page's parent is /tmp, so it stays a current child there.
   * Without the reference record it would be only the snapshot's, and with the wrong directory in
   * it the record is bad.
   */
  @Test
  public void aRenameOutOfASnapshotIsCleanAndItsReferenceChecked() throws Exception {
    snapshotOfAlice(1, 0, true, n.alice, diffs(new long[0], new long[] {n.id(n.big)}));
    long ref;
    try (InodeStore s = InodeStore.open(Region.open(n.file, PersistMode.EMULATED));
        Txn t = s.begin()) {
      t.move(n.big, n.tmp, "big.bin".getBytes(java.nio.charset.StandardCharsets.UTF_8));
      ref = t.createRecord(RECORD_INODE_REF, n.id(n.big), n.id(n.tmp), new byte[] {4, 8});
      t.commit();
    }
    CheckReport r = judge("big.bin renamed out of the snapshot");
    assertEquals(r.format(), 0, r.exitCode());
    String all = NamespaceDump.recordLines(n.file).toString();
    assertTrue(
        all,
        all.contains(
            "inodeReference inodeId="
                + n.id(n.big)
                + " parentInodeId="
                + n.id(n.tmp)
                + " length=2 "));
    assertTrue(all, all.contains("referredInodes=[" + n.id(n.big) + "]"));
    try (InodeStore s = InodeStore.open(Region.open(n.file, PersistMode.EMULATED));
        Txn t = s.begin()) {
      t.setRecordValue(ref, n.id(n.user));
      t.commit();
    }
    Finding f =
        CheckAssert.onlyError(
            judge("the reference names /user"), Finding.Kind.BAD_SNAPSHOT_RECORD, ref + RC_VALUE);
    assertTrue(f.message(), f.message().contains("has parent " + n.id(n.tmp)));
  }

  /** An entry payload of one deleted (or created) entry named {@code name} in snapshot 0. */
  private static byte[] entry(int kind, String name) {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    DiffEntryFormat.write(
        out, 0, kind, name.getBytes(java.nio.charset.StandardCharsets.UTF_8), null);
    return DiffEntryFormat.payload(1, out);
  }

  private long entryRecord(long dirId, long childId, byte[] payload) throws Exception {
    return record(RECORD_DIFF_ENTRY, dirId, childId, payload);
  }

  /** A record of {@code type} created in one batch of its own. */
  private long record(int type, long key, long value, byte[] payload) throws Exception {
    try (InodeStore s = InodeStore.open(Region.open(n.file, PersistMode.EMULATED));
        Txn t = s.begin()) {
      long page = t.createRecord(type, key, value, payload);
      t.commit();
      return page;
    }
  }

  /**
   * The form the NameNode writes: alice's diff record without lists, small.txt's deleted entry in a
   * record of its own (recovery keeps the page out of the current tree by it, so a current
   * small.txt beside it is no duplicate); dumped entry by entry.
   */
  @Test
  public void aDeletedEntryInItsOwnRecordIsCleanAndDumped() throws Exception {
    snapshotOfAlice(1, 0, true, n.alice, diffs());
    entryRecord(n.id(n.alice), n.id(n.small), entry(DiffEntryFormat.DELETED, "small.txt"));
    try (InodeStore s = InodeStore.open(Region.open(n.file, PersistMode.EMULATED));
        Txn t = s.begin()) {
      t.create(n.alice, InodeAttrs.file("small.txt").times(9000, 9001).mode(0644));
      t.commit();
    }
    CheckReport r = judge("small.txt's deleted entry");
    assertEquals(r.format(), 0, r.exitCode());
    String all = NamespaceDump.recordLines(n.file).toString();
    assertTrue(
        all,
        all.contains(
            "diffEntry directoryInodeId="
                + n.id(n.alice)
                + " inodeId="
                + n.id(n.small)
                + " entries=s0:deleted:small.txt "));
  }

  @Test
  public void anEntryOfADirectoryWithoutADiffRecordIsBad() throws Exception {
    snapshotOfAlice(1, 0, true, n.alice, diffs());
    long page = entryRecord(n.id(n.user), n.id(n.tmp), entry(DiffEntryFormat.CREATED, "tmp"));
    Finding f =
        CheckAssert.onlyError(
            judge("an entry of /user"), Finding.Kind.BAD_SNAPSHOT_RECORD, page + RC_KEY);
    assertTrue(f.message(), f.message().contains("has no diff record"));
  }

  @Test
  public void aDeletedEntryWhosePageIsElsewhereIsBad() throws Exception {
    snapshotOfAlice(1, 0, true, n.alice, diffs());
    long page = entryRecord(n.id(n.alice), n.id(n.tmp), entry(DiffEntryFormat.DELETED, "tmp"));
    Finding f =
        CheckAssert.onlyError(
            judge("/tmp in alice's deleted list"),
            Finding.Kind.BAD_SNAPSHOT_RECORD,
            page + RC_PAYLOAD);
    assertTrue(f.message(), f.message().contains("not " + n.id(n.alice)));
  }

  @Test
  public void twoEntryRecordsOfOneChildAreADuplicateAndAnUndecodablePayloadIsBad()
      throws Exception {
    snapshotOfAlice(1, 0, true, n.alice, diffs());
    entryRecord(n.id(n.alice), n.id(n.big), entry(DiffEntryFormat.CREATED, "big.bin"));
    long second =
        entryRecord(n.id(n.alice), n.id(n.big), entry(DiffEntryFormat.CREATED, "big.bin"));
    CheckAssert.onlyError(
        judge("two records of big.bin"), Finding.Kind.DUPLICATE_RECORD_KEY, second + RC_VALUE);
    try (InodeStore s = InodeStore.open(Region.open(n.file, PersistMode.EMULATED));
        Txn t = s.begin()) {
      t.removeRecord(second);
      t.commit();
    }
    long bad = entryRecord(n.id(n.alice), n.id(n.small), new byte[] {1, 0, 0, 0, 0, 0});
    Finding f =
        CheckAssert.onlyError(
            judge("an entry cut short"), Finding.Kind.BAD_SNAPSHOT_RECORD, bad + RC_LEN);
    assertTrue(f.message(), f.message().contains("not a list of entries"));
  }

  private long diffRecord(long inodeId, long snapshotId, byte[] payload) throws Exception {
    return record(RECORD_DIFF, inodeId, snapshotId, payload);
  }

  /** A diff's payload: its 8-byte head (0: no copy access time) and a stand-in for the rest. */
  private static byte[] oneDiff() {
    return new byte[] {0, 0, 0, 0, 0, 0, 0, 0, 7, 7, 7};
  }

  /**
   * The form the NameNode writes for alice's diff of snapshot 0: a record of its own beside her
   * diff record; clean and dumped. A diff of an inode without a diff record, a second record of one
   * (inode, snapshot) and a payload shorter than the head are not.
   */
  @Test
  public void aDiffInItsOwnRecordIsCleanAndDumpedAndItsBreachesAreFound() throws Exception {
    snapshotOfAlice(1, 0, true, n.alice, diffs());
    long first = diffRecord(n.id(n.alice), 0, oneDiff());
    CheckReport r = judge("alice's diff of snapshot 0");
    assertEquals(r.format(), 0, r.exitCode());
    String all = NamespaceDump.recordLines(n.file).toString();
    assertTrue(all, all.contains("diff inodeId=" + n.id(n.alice) + " snapshotId=0 length=11 "));

    long orphan = diffRecord(n.id(n.user), 0, oneDiff());
    Finding f =
        CheckAssert.onlyError(
            judge("a diff of /user"), Finding.Kind.BAD_SNAPSHOT_RECORD, orphan + RC_KEY);
    assertTrue(f.message(), f.message().contains("has no diff record"));
    removeRecord(orphan);

    long second = diffRecord(n.id(n.alice), 0, oneDiff());
    CheckAssert.onlyError(
        judge("two diffs of snapshot 0"),
        Finding.Kind.DUPLICATE_RECORD_KEY,
        Math.max(first, second) + RC_VALUE);
    removeRecord(second);

    long shortOne = diffRecord(n.id(n.alice), 1, new byte[] {1, 2, 3});
    f =
        CheckAssert.onlyError(
            judge("a diff of 3 bytes"), Finding.Kind.BAD_SNAPSHOT_RECORD, shortOne + RC_LEN);
    assertTrue(f.message(), f.message().contains("not 8 or more"));
  }

  private void removeRecord(long page) throws Exception {
    try (InodeStore s = InodeStore.open(Region.open(n.file, PersistMode.EMULATED));
        Txn t = s.begin()) {
      t.removeRecord(page);
      t.commit();
    }
  }
}
