package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;
import static org.apache.hadoop.hdfs.server.namenode.nvm.StoreOps.*;
import static org.junit.Assert.*;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionDamage;
import org.junit.Test;

/** String references (owner, group, client name, client machine) and the STRING pages. */
public class RegionCheckStringTest extends SampleNamespaceFixture {

  @Test
  public void ownerStringOnAPageThatIsNoLongerAString() throws Exception {
    long alice = RegionDamage.stringPage(n.file, "alice");
    RegionDamage.putLong(n.file, alice, stateWord(KIND_STRING, STATE_INVALID));
    CheckReport r = CheckAssert.check(n.file);
    for (long page : new long[] {n.alice, n.small, n.big, n.longName}) {
      Finding f = CheckAssert.find(r, Finding.Kind.DANGLING_STRING_REF, page + IN_PERM);
      assertEquals(Finding.Severity.ERROR, f.severity());
      assertTrue(f.message(), f.message().contains("owner string id"));
    }
    assertEquals(r.format(), 4, r.count(Finding.Severity.ERROR));
  }

  @Test
  public void groupIdWithoutAStringPage() throws Exception {
    long perm = RegionDamage.getLong(n.file, n.tmp + IN_PERM);
    long noSuchId = 99;
    perm = (perm & ~(0xffffffL << PERM_GROUP_SHIFT)) | (noSuchId << PERM_GROUP_SHIFT);
    RegionDamage.putLong(n.file, n.tmp + IN_PERM, perm);
    Finding f =
        CheckAssert.onlyError(
            CheckAssert.check(n.file), Finding.Kind.DANGLING_STRING_REF, n.tmp + IN_PERM);
    assertTrue(f.message(), f.message().contains("group string id 99"));
  }

  @Test
  public void underConstructionWordWithoutAMachine() throws Exception {
    long uc = RegionDamage.getLong(n.file, n.writing + FI_UC);
    RegionDamage.putLong(n.file, n.writing + FI_UC, uc & 0xffffffffL);
    CheckReport r = CheckAssert.check(n.file);
    CheckAssert.onlyError(r, Finding.Kind.BAD_UC_WORD, n.writing + FI_UC);
    // the machine's string is now used by nobody
    CheckAssert.find(
        r, Finding.Kind.UNREFERENCED_STRING, RegionDamage.stringPage(n.file, "10.0.0.7"));
  }

  @Test
  public void stringNobodyUsesIsRecoverableAndRecoveryReclaimsIt() throws Exception {
    RegionDamage.dropStringReference(n.file, n.writing, "alice"); // bob owned only writing.log
    long bob = RegionDamage.stringPage(n.file, "bob");
    CheckReport r = CheckAssert.check(n.file);
    Finding f = CheckAssert.find(r, Finding.Kind.UNREFERENCED_STRING, bob);
    assertEquals(Finding.Severity.RECOVERABLE, f.severity());
    assertEquals(r.format(), 1, r.findings().size());
    assertTrue(r.isConsistent());
    assertTrue(r.needsRecovery());
    assertEquals(2, r.exitCode());
    shm.reopen("r").close(); // a read-write open runs recovery
    assertEquals(STATE_INVALID, RegionDamage.getLong(n.file, bob) & STATE_MASK);
    assertEquals(0, CheckAssert.check(n.file).exitCode());
  }

  /**
   * A length over STRING_MAX makes the page a chained string: the first eight bytes of "bob" are
   * read as its ST_EXT link, which names no page (the chains: RegionCheckStringChainDamageTest).
   */
  @Test
  public void referencedStringLongerThanTheLimitWithoutAChain() throws Exception {
    long bob = RegionDamage.stringPage(n.file, "bob");
    RegionDamage.putLong(n.file, bob + ST_LEN, STRING_MAX + 1);
    Finding f =
        CheckAssert.onlyError(CheckAssert.check(n.file), Finding.Kind.BROKEN_CHAIN, bob + ST_EXT);
    assertTrue(f.message(), f.message().contains("not a page of the data area"));
  }

  @Test
  public void stringIdsAboveTheCounter() throws Exception {
    RegionDamage.putLong(n.file, SB_LAST_STRING_ID, 4);
    CheckReport r = CheckAssert.check(n.file);
    long bob = RegionDamage.stringPage(n.file, "bob");
    assertEquals(5, RegionDamage.getLong(n.file, bob + ST_ID));
    CheckAssert.find(r, Finding.Kind.BAD_STRING_PAGE, bob + ST_ID);
    assertEquals(r.format(), 3, r.count(Finding.Severity.ERROR)); // ids 5, 6, 7
  }

  /**
   * Writes a LIVE STRING page with {@code id} and {@code text} into a never-used page; returns it.
   */
  private long forgeString(long id, String text) throws Exception {
    long page = DATA_OFFSET + (long) PAGE_SIZE * 200; // above the sample's high-water mark
    assertEquals(0, RegionDamage.getLong(n.file, page));
    byte[] t = text.getBytes(StandardCharsets.UTF_8);
    ByteBuffer b = ByteBuffer.allocate(PAGE_SIZE).order(ByteOrder.LITTLE_ENDIAN);
    b.putLong(PG_STATE, stateWord(KIND_STRING, STATE_LIVE))
        .putLong(ST_ID, id)
        .putLong(ST_LEN, t.length);
    b.position(ST_BYTES);
    b.put(t);
    RegionDamage.write(n.file, page, b.array());
    return page;
  }

  @Test
  public void secondPageForAStringIdWithOtherText() throws Exception {
    long bobId = RegionDamage.getLong(n.file, RegionDamage.stringPage(n.file, "bob") + ST_ID);
    long forged = forgeString(bobId, "mallory");
    Finding f =
        CheckAssert.onlyError(
            CheckAssert.check(n.file), Finding.Kind.BAD_STRING_PAGE, forged + ST_ID);
    assertTrue(f.message(), f.message().contains("different text"));
  }

  @Test
  public void secondPageForAStringIdWithTheSameTextIsJustUnreferenced() throws Exception {
    long bobId = RegionDamage.getLong(n.file, RegionDamage.stringPage(n.file, "bob") + ST_ID);
    long forged = forgeString(bobId, "bob");
    CheckReport r = CheckAssert.check(n.file);
    CheckAssert.find(r, Finding.Kind.UNREFERENCED_STRING, forged);
    assertEquals(r.format(), 2, r.exitCode());
  }
}
