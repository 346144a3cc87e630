package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;
import static org.apache.hadoop.hdfs.server.namenode.nvm.StoreOps.*;
import static org.junit.Assert.*;

import java.io.File;
import java.util.List;
import org.apache.hadoop.hdfs.server.namenode.nvm.CrashHook;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeAttrs;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeStore;
import org.apache.hadoop.hdfs.server.namenode.nvm.NvmException;
import org.apache.hadoop.hdfs.server.namenode.nvm.PersistMode;
import org.apache.hadoop.hdfs.server.namenode.nvm.Region;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionDamage;
import org.junit.Test;

/**
 * Real crash images (the native crash hook): what a crash leaves is RECOVERABLE, the checker's view
 * of it is what recovery makes of it, and a damaged undo record is refused.
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

  @Test
  public void armedUndoRecordIsRecoverableAndShownRolledBack() throws Exception {
    List<String> before = NamespaceDump.lines(n.file);
    // barrier 3 of an undo-logged rename: record armed, new values written in place
    File image = crashImage("rename", 3, ".present", s -> rename(s, n.small, n.tmp, "moved", 9000));
    assertNotEquals(
        "the image holds the rename's in-place writes",
        RegionDamage.sha256(n.file),
        RegionDamage.sha256(image));
    CheckReport r = CheckAssert.check(image);
    Finding f = CheckAssert.find(r, Finding.Kind.UNDO_ARMED, UNDO_STATE);
    assertEquals(Finding.Severity.RECOVERABLE, f.severity());
    assertTrue(f.message(), f.message().matches(".*\\(commit seq \\d+, \\d+ entries.*"));
    assertEquals(r.format(), 1, r.findings().size());
    assertEquals(2, r.exitCode());
    // the checker's rolled-back view is exactly what recovery produces
    assertEquals(before, NamespaceDump.lines(image));
    File rec = recovered(image);
    assertEquals(before, NamespaceDump.lines(rec));
    assertEquals(0, CheckAssert.check(rec).exitCode());
  }

  @Test
  public void undoRecordWithABadChecksumIsRefused() throws Exception {
    File image = crashImage("rename", 3, ".lost", s -> rename(s, n.small, n.tmp, "moved", 9000));
    assertEquals(2, CheckAssert.check(image).exitCode());
    RegionDamage.flipBit(image, UNDO_PAYLOAD + 20, 3);
    Finding f = CheckAssert.onlyError(CheckAssert.check(image), Finding.Kind.REFUSED, UNDO_CRC);
    assertTrue(
        f.message(),
        f.message().contains("NVM_ECORRUPT") && f.message().contains("checksum mismatch"));
  }

  @Test
  public void undoRecordWithAnOversizedPayloadIsRefused() throws Exception {
    File image = crashImage("rename", 3, ".lost", s -> rename(s, n.small, n.tmp, "moved", 9000));
    RegionDamage.write(image, UNDO_PAYLOAD_BYTES, new byte[] {0, 0x40, 0, 0});
    CheckAssert.onlyError(CheckAssert.check(image), Finding.Kind.REFUSED, UNDO_PAYLOAD_BYTES);
  }

  @Test
  public void crashWhileFreeingADeletedSubtreeLeavesRecoverableOrphans() throws Exception {
    long[] below = {n.small, n.big, n.longName, n.writing};
    // a delete is one undo-logged batch (4 barriers); barrier 5 invalidates the freed pages
    File image = crashImage("delete", 5, ".lost", s -> delete(s, n.alice, below, n.user, 9000));
    CheckReport r = CheckAssert.check(image);
    for (long page : below) {
      Finding f = CheckAssert.find(r, Finding.Kind.ORPHAN, page);
      assertEquals(Finding.Severity.RECOVERABLE, f.severity());
      assertTrue(f.message(), f.message().contains("at page " + n.alice + ", which was deleted"));
    }
    assertEquals(
        r.format(), 4, r.findings().size()); // their extension and string pages are covered
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
    // barrier 1: the new name's pages are written (LIVE, out of place), the undo record is not
    // armed yet
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
    File image =
        crashImage(
            "create",
            1,
            ".present",
            s ->
                createInode(
                    s, n.tmp, InodeAttrs.file("never").times(1, 1).owner("hdfs", "supergroup")));
    CheckReport r = CheckAssert.check(image);
    assertTrue(r.format(), r.findings().isEmpty());
    assertEquals(0, r.exitCode());
    assertTrue(r.format(), r.format().contains(", 1 pending and 0 invalid pages"));
    File rec = recovered(image);
    assertEquals("recovery wrote nothing", RegionDamage.sha256(image), RegionDamage.sha256(rec));
  }
}
