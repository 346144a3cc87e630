package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;
import static org.apache.hadoop.hdfs.server.namenode.nvm.StoreOps.*;
import static org.junit.Assert.*;

import java.io.File;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import org.apache.hadoop.hdfs.server.namenode.nvm.CrashHook;
import org.apache.hadoop.hdfs.server.namenode.nvm.Crc32c;
import org.apache.hadoop.hdfs.server.namenode.nvm.Field;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeAttrs;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeStore;
import org.apache.hadoop.hdfs.server.namenode.nvm.NvmException;
import org.apache.hadoop.hdfs.server.namenode.nvm.PersistMode;
import org.apache.hadoop.hdfs.server.namenode.nvm.Region;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionDamage;
import org.junit.Test;

/**
 * Real crash images (the native crash hook): what a crash leaves is RECOVERABLE, the checker's view
 * of it is what recovery makes of it (a pending redo record replayed, a torn one ignored, an armed
 * undo record of a region from before the redo log rolled back).
 */
public class RegionCheckCrashTest extends SampleNamespaceFixture {

  private interface Op {
    void run(InodeStore s) throws NvmException;
  }

  /**
   * Runs {@code op} on a copy of the sample with a crash at barrier {@code barrier}; returns the
   * image.
   */
  private File crashImage(String name, long barrier, String kind, Op op) throws Exception {
    File work = RegionDamage.copy(n.file, shm.file(name));
    String prefix = shm.file(name + ".crash").getPath();
    try (InodeStore s = InodeStore.open(Region.open(work, PersistMode.EMULATED))) {
      CrashHook.crashAt(s.region(), barrier, prefix);
      try {
        op.run(s);
        fail("the crash hook did not fire");
      } catch (NvmException e) {
        assertEquals(NvmException.ErrorCode.ECRASHED, e.code());
      }
    }
    return new File(prefix + kind);
  }

  /** A copy of {@code image} after a read-write open (recovery) and close. */
  private File recovered(File image) throws Exception {
    File c = RegionDamage.copy(image, shm.file(image.getName() + ".recovered"));
    Region.open(c, PersistMode.EMULATED).close();
    return c;
  }

  /** The slot the next commit of {@code f} writes its redo record into (region-format.md §4.1). */
  private static long nextSlot(File f) throws Exception {
    long seq = RegionDamage.counter(f, SB_COMMIT_SEQ) + 1;
    return seq % 2 == 1 ? REDO_SLOT1 : REDO_SLOT0;
  }

  /** {@code n.file} after {@code op}, applied without a crash. */
  private List<String> cleanly(String name, Op op) throws Exception {
    File clean = RegionDamage.copy(n.file, shm.file(name));
    try (InodeStore s = InodeStore.open(Region.open(clean, PersistMode.EMULATED))) {
      op.run(s);
    }
    return NamespaceDump.lines(clean);
  }

  @Test
  public void pendingRedoRecordIsRecoverableAndShownReplayed() throws Exception {
    long slot = nextSlot(n.file);
    Op renameOp = s -> rename(s, n.small, n.tmp, "moved", 9000);
    List<String> after = cleanly("clean-rename", renameOp);
    // barrier 2 is the next commit's: the rename's record is durable, its in-place bytes are not
    File image =
        crashImage(
            "rename",
            2,
            ".lost",
            s -> {
              renameOp.run(s);
              setLastTxId(s, 4242);
            });
    CheckReport r = CheckAssert.check(image);
    Finding f = CheckAssert.find(r, Finding.Kind.REDO_PENDING, slot);
    assertEquals(Finding.Severity.RECOVERABLE, f.severity());
    assertTrue(f.message(), f.message().matches(".*\\(seq \\d+, \\d+ entries\\).*"));
    assertEquals(r.format(), 1, r.findings().size());
    assertEquals(2, r.exitCode());
    // the checker's replayed view is exactly what recovery produces
    assertEquals(after, NamespaceDump.lines(image));
    File rec = recovered(image);
    assertEquals(after, NamespaceDump.lines(rec));
    assertEquals(0, CheckAssert.check(rec).exitCode());
  }

  @Test
  public void tornRedoRecordIsIgnoredByCheckAndRecoveryAlike() throws Exception {
    List<String> before = NamespaceDump.lines(n.file);
    long slot = nextSlot(n.file);
    // barrier 1 .present: the rename's record written, none of its in-place bytes yet
    File image = crashImage("rename", 1, ".present", s -> rename(s, n.small, n.tmp, "moved", 9000));
    File oversized = RegionDamage.copy(image, shm.file("oversized"));
    RegionDamage.flipBit(image, slot + REDO_PAYLOAD + 20, 3); // a payload byte: the CRC fails
    RegionDamage.write(oversized, slot + REDO_PAYLOAD_BYTES, new byte[] {0, 0x40, 0, 0});
    for (File torn : new File[] {image, oversized}) {
      CheckReport r = CheckAssert.check(torn);
      assertTrue(r.format(), r.findings().isEmpty());
      assertEquals(before, NamespaceDump.lines(torn));
      assertEquals(before, NamespaceDump.lines(recovered(torn)));
    }
  }

  @Test
  public void armedUndoRecordOfARegionFromBeforeTheRedoLogIsShownRolledBack() throws Exception {
    List<String> before = NamespaceDump.lines(n.file);
    File image = RegionDamage.copy(n.file, shm.file("legacy"));
    RegionDamage.withoutRedoLog(image);
    // the state the release before leaves when a crash comes after it armed its record: the undo
    // record holds the old SB_LAST_TXID and SB_COMMIT_SEQ, the new SB_LAST_TXID is in place
    long seq = RegionDamage.counter(image, SB_COMMIT_SEQ);
    ByteBuffer p = ByteBuffer.allocate(48).order(ByteOrder.LITTLE_ENDIAN);
    p.putLong(SB_LAST_TXID).putInt(8).putInt(Field.COUNTER.id());
    p.putLong(RegionDamage.getLong(image, SB_LAST_TXID));
    p.putLong(SB_COMMIT_SEQ).putInt(8).putInt(Field.COUNTER.id());
    p.putLong(RegionDamage.getLong(image, SB_COMMIT_SEQ));
    ByteBuffer h = ByteBuffer.allocate(20).order(ByteOrder.LITTLE_ENDIAN);
    h.putLong(seq + 1).putInt(2).putInt(48).putInt(Crc32c.update(0, p.array(), 0, 48));
    RegionDamage.rawWrite(image, UNDO_PAYLOAD, p.array());
    RegionDamage.rawWrite(image, UNDO_STATE, h.array());
    RegionDamage.rawPutLong(image, SB_LAST_TXID, RegionDamage.counterWord(SB_LAST_TXID, 123456));
    CheckReport r = CheckAssert.check(image);
    Finding f = CheckAssert.find(r, Finding.Kind.UNDO_ARMED, UNDO_STATE);
    assertEquals(Finding.Severity.RECOVERABLE, f.severity());
    assertTrue(f.message(), f.message().matches(".*\\(commit seq \\d+, 2 entries.*"));
    assertEquals(r.format(), 1, r.findings().size());
    assertEquals(before, NamespaceDump.lines(image));
    File rec = recovered(image);
    assertEquals(before, NamespaceDump.lines(rec));
    assertEquals(0, CheckAssert.check(rec).exitCode());
    assertEquals(
        "upgraded after the rollback",
        FEATURE_REDO_LOG,
        RegionDamage.getLong(rec, SB_FEATURES) & FEATURE_REDO_LOG);
  }

  @Test
  public void crashWhileFreeingADeletedSubtreeLeavesRecoverableOrphans() throws Exception {
    long slot = nextSlot(n.file);
    long[] below = {n.small, n.big, n.longName, n.writing};
    // a delete is one redo record (1 barrier); its FREE invalidations are flushed after it and
    // made durable by the next commit's barrier: a crash there loses them in the .lost image
    File image =
        crashImage(
            "delete",
            2,
            ".lost",
            s -> {
              delete(s, n.alice, below, n.user, 9000);
              setLastTxId(s, 4242);
            });
    CheckReport r = CheckAssert.check(image);
    for (long page : below) {
      Finding f = CheckAssert.find(r, Finding.Kind.ORPHAN, page);
      assertEquals(Finding.Severity.RECOVERABLE, f.severity());
      assertTrue(f.message(), f.message().contains("at page " + n.alice + ", which was deleted"));
    }
    CheckAssert.find(r, Finding.Kind.REDO_PENDING, slot);
    assertEquals(
        r.format(), 5, r.findings().size()); // their extension and string pages are covered
    assertEquals(2, r.exitCode());
    File rec = recovered(image);
    assertEquals(0, CheckAssert.check(rec).exitCode());
    File clean = RegionDamage.copy(n.file, shm.file("clean-delete"));
    try (InodeStore s = InodeStore.open(Region.open(clean, PersistMode.EMULATED))) {
      delete(s, n.alice, below, n.user, 9000);
    }
    assertEquals(NamespaceDump.lines(clean), NamespaceDump.lines(image));
  }

  @Test
  public void extensionPagesWrittenButNeverLinkedAreRecoverable() throws Exception {
    String longName =
        SampleNamespace.LONG_NAME + SampleNamespace.LONG_NAME; // 600 bytes: 3 NAME_EXT pages
    // barrier 1: the new name's pages are written (LIVE, out of place) and drained before the
    // rename's redo record is written (region-format.md §7.3)
    File image =
        crashImage("rename", 1, ".present", s -> rename(s, n.small, n.tmp, longName, 9000));
    CheckReport r = CheckAssert.check(image);
    assertEquals(r.format(), 3, CheckAssert.count(r, Finding.Kind.UNREFERENCED_EXTENSION));
    assertEquals(r.format(), 3, r.findings().size());
    assertEquals(2, r.exitCode());
    assertEquals(0, CheckAssert.check(recovered(image)).exitCode());
  }

  @Test
  public void pendingPagesAreFreeSpaceThatRecoveryLeavesAlone() throws Exception {
    long slot = nextSlot(n.file);
    File image =
        crashImage(
            "create",
            1,
            ".present",
            s ->
                createInode(
                    s, n.tmp, InodeAttrs.file("never").times(1, 1).owner("hdfs", "supergroup")));
    // the create's page is written; its record's first line (the seq) did not reach the media
    RegionDamage.rawPutLong(image, slot + REDO_SEQ, 0);
    CheckReport r = CheckAssert.check(image);
    assertTrue(r.format(), r.findings().isEmpty());
    assertEquals(0, r.exitCode());
    assertTrue(r.format(), r.format().contains(", 1 pending and 0 invalid pages"));
    File rec = recovered(image);
    assertEquals("recovery wrote nothing", RegionDamage.sha256(image), RegionDamage.sha256(rec));
  }
}
