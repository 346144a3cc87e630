package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;
import static org.junit.Assert.*;

import java.io.File;
import java.util.List;
import org.apache.hadoop.hdfs.server.namenode.nvm.NvmException;
import org.apache.hadoop.hdfs.server.namenode.nvm.PersistMode;
import org.apache.hadoop.hdfs.server.namenode.nvm.Region;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionDamage;
import org.junit.Test;

/**
 * The checks of region-format.md §11: every LIVE page's checksum, every superblock counter's check,
 * the feature word, and regions written before the feature (which may carry the page magic and
 * plain counters, in any mix while an upgrade is under way). Each damaged region is also judged by
 * {@link RegionOracle} against the native open.
 */
public class RegionCheckChecksumTest extends SampleNamespaceFixture {
  private final RegionOracle oracle = new RegionOracle();

  private CheckReport judge(String what) throws Exception {
    CheckAssert.check(n.file); // unchanged by the checker
    return oracle.judge(n.file, shm.file("open-copy"), what);
  }

  /** The refusal of a read-write open of a copy, which must be ECORRUPT at {@code offset}. */
  private NvmException refusedAt(long offset) throws Exception {
    NvmException e = CheckAssert.refusedByRecovery(n.file, shm.file("open-copy"));
    assertEquals(e.getMessage(), NvmException.ErrorCode.ECORRUPT, e.code());
    assertEquals(e.getMessage(), offset, e.offset());
    return e;
  }

  /**
   * An extension page is written LIVE out of place and linked only by the commit, so a crash can
   * leave one torn (its checksum wrong) and unreachable: a leftover recovery reclaims, not damage.
   */
  @Test
  public void aTornUnreachableExtensionPageIsALeftover() throws Exception {
    long page = DATA_OFFSET;
    while (RegionDamage.getLong(n.file, page) != 0) {
      page += PAGE_SIZE; // the first never-used page
    }
    long low = stateWord(KIND_NAME_EXT, STATE_LIVE) & 0xffffffffL;
    RegionDamage.rawPutLong(n.file, page, 0x12345678L << PAGE_MAGIC_SHIFT | low);
    RegionDamage.rawPutLong(n.file, page + EXT_OWNER_ID, n.id(n.small));
    RegionDamage.rawPutLong(n.file, page + EXT_COUNT, 3);
    CheckReport r = judge("a torn, unreachable NAME_EXT page");
    CheckAssert.find(r, Finding.Kind.UNREFERENCED_EXTENSION, page);
    for (Finding f : r.findings()) {
      assertNotEquals(r.format(), Finding.Kind.BAD_CHECKSUM, f.kind());
    }
    assertEquals(r.format(), 2, r.exitCode());
  }

  /** One flipped bit in a page of each kind: one BAD_CHECKSUM at the page, naming what it holds. */
  @Test
  public void aFlippedBitInALivePageOfEachKindFailsItsChecksum() throws Exception {
    long alice = RegionDamage.stringPage(n.file, "alice");
    long[][] cases = {
      {n.user, IN_MTIME + 2}, // DIR
      {n.small, IN_ATIME + 1}, // FILE
      {n.user, DI_SNAPSHOT + 8 + 3}, // DIR: the reserved bytes are covered too
      {n.longNameExtPages[0], EXT_PAYLOAD + 7}, // NAME_EXT: a byte of the name
      {n.bigExtPages[1], EXT_PAYLOAD + BR_NUM_BYTES + 1}, // BLOCK_EXT: a block's length
      {alice, ST_BYTES + 1}, // STRING: a byte of the text
    };
    String[] expected = {
      "LIVE DIR page " + n.user + " (inode " + n.id(n.user) + ", /user)",
      "LIVE FILE page " + n.small + " (inode " + n.id(n.small) + ", /user/alice/small.txt)",
      "LIVE DIR page " + n.user + " (inode " + n.id(n.user) + ", /user)",
      "LIVE NAME_EXT page "
          + n.longNameExtPages[0]
          + " (of inode "
          + n.id(n.longName)
          + ", /user/alice/", // the path as the damaged page spells it
      "LIVE BLOCK_EXT page "
          + n.bigExtPages[1]
          + " (of inode "
          + n.id(n.big)
          + ", /user/alice/big.bin)",
      "LIVE STRING page " + alice + " (string id ",
    };
    File pristine = RegionDamage.copy(n.file, shm.file("pristine"));
    for (int i = 0; i < cases.length; i++) {
      RegionDamage.copy(pristine, n.file);
      long page = cases[i][0];
      RegionDamage.flipBit(n.file, page + cases[i][1], 1);
      CheckReport r = judge("a flipped bit at +" + cases[i][1] + " of page " + page);
      Finding f = CheckAssert.onlyError(r, Finding.Kind.BAD_CHECKSUM, page);
      assertTrue(f.message(), f.message().startsWith(expected[i]));
      assertTrue(f.message(), f.message().contains("recovery refuses the region"));
      assertTrue(refusedAt(page).getMessage().contains("fails its checksum"));
      // the same change, sealed as a writer would have stored it, is no checksum failure
      RegionDamage.copy(pristine, n.file);
      RegionDamage.xor(n.file, page + cases[i][1], 1 << 1);
      CheckReport s = judge("the same change, sealed");
      assertEquals(s.format(), 0, CheckAssert.count(s, Finding.Kind.BAD_CHECKSUM));
    }
  }

  /** The checked fields still get their own findings: more findings, one exit code. */
  @Test
  public void aPageThatFailsItsChecksumIsStillCheckedForWhatItSays() throws Exception {
    long last = RegionDamage.counter(n.file, SB_LAST_INODE_ID);
    RegionDamage.rawPutLong(n.file, n.tmp + IN_ID, last + 1); // raw: not resealed
    CheckReport r = judge("an id above the counter, unsealed");
    CheckAssert.find(r, Finding.Kind.BAD_CHECKSUM, n.tmp);
    CheckAssert.find(r, Finding.Kind.INODE_ID_ABOVE_COUNTER, n.tmp + IN_ID);
    assertEquals(r.format(), 2, r.count(Finding.Severity.ERROR));
    assertEquals(1, r.exitCode());
    refusedAt(n.tmp);
  }

  @Test
  public void aCounterThatFailsItsCheck() throws Exception {
    File pristine = RegionDamage.copy(n.file, shm.file("pristine"));
    RegionDamage.flipBit(n.file, SB_LAST_TXID, 3); // a value bit: 42 -> 34
    Finding f = CheckAssert.onlyError(judge("a value bit"), Finding.Kind.BAD_COUNTER, SB_LAST_TXID);
    assertTrue(f.message(), f.message().contains("SB_LAST_TXID"));
    assertTrue(f.message(), f.message().contains("recovery refuses the region"));
    assertTrue(refusedAt(SB_LAST_TXID).getMessage().contains("fails its check"));

    RegionDamage.copy(pristine, n.file);
    RegionDamage.flipBit(n.file, SB_ROOT_PAGE + 7, 4); // a check bit: the root is still readable
    CheckAssert.onlyError(judge("a check bit"), Finding.Kind.BAD_COUNTER, SB_ROOT_PAGE);
    refusedAt(SB_ROOT_PAGE);

    RegionDamage.copy(pristine, n.file);
    long plain = RegionDamage.counter(n.file, SB_LAST_STRING_ID);
    RegionDamage.rawPutLong(n.file, SB_LAST_STRING_ID, plain); // a plain value, no check
    CheckAssert.onlyError(judge("plain"), Finding.Kind.BAD_COUNTER, SB_LAST_STRING_ID);

    RegionDamage.copy(pristine, n.file);
    RegionDamage.putLong(n.file, SB_LAST_TXID, 1L << 40); // sealed: a checked, larger value
    CheckReport r = judge("sealed");
    assertTrue(r.format(), r.isConsistent());
    assertTrue(NamespaceDump.counters(n.file).contains("lastTxId=" + (1L << 40)));
  }

  @Test
  public void aLivePageCarryingThePageMagicWasNeverSealed() throws Exception {
    long w = RegionDamage.getLong(n.file, n.writing);
    RegionDamage.rawPutLong(n.file, n.writing, (w & 0xffffffffL) | PAGE_MAGIC << 32);
    Finding f = CheckAssert.onlyError(judge("the magic"), Finding.Kind.BAD_CHECKSUM, n.writing);
    assertTrue(f.message(), f.message().contains("the page magic: never sealed"));
  }

  @Test
  public void aPendingPageWithoutThePageMagicIsABadStateWord() throws Exception {
    long w = RegionDamage.getLong(n.file, n.tmp);
    RegionDamage.rawPutLong(n.file, n.tmp, (w & ~0xffL) | STATE_PENDING); // keeps the checksum
    CheckAssert.onlyError(judge("pending, checksum on top"), Finding.Kind.BAD_STATE_WORD, n.tmp);
    assertTrue(refusedAt(n.tmp).getMessage().contains("bad state word"));
  }

  @Test
  public void aBadFeatureWordIsRefusedByTheNativeOpenThere() throws Exception {
    File pristine = RegionDamage.copy(n.file, shm.file("pristine"));
    RegionDamage.flipBit(n.file, SB_FEATURES + 5, 0); // the halves no longer match
    CheckReport r = judge("halves");
    Finding f = CheckAssert.onlyError(r, Finding.Kind.REFUSED, SB_FEATURES);
    assertTrue(f.message(), f.message().contains("NVM_ECORRUPT"));

    RegionDamage.copy(pristine, n.file);
    long features = FEATURE_PAGE_CHECKSUMS | 1L << 9; // a feature this library does not know
    RegionDamage.rawPutLong(n.file, SB_FEATURES, (~features & 0xffffffffL) << 32 | features);
    f = CheckAssert.onlyError(judge("unknown feature"), Finding.Kind.REFUSED, SB_FEATURES);
    assertTrue(f.message(), f.message().contains("NVM_EVERSION"));
  }

  /**
   * A region written before the feature: LIVE pages carry the page magic, counters are plain. It is
   * consistent, and its first read-write open upgrades it to the same namespace, checked.
   */
  @Test
  public void aRegionWithoutTheFeatureIsConsistentAndUpgradedByTheNextOpen() throws Exception {
    List<String> dump = NamespaceDump.lines(n.file);
    List<String> counters = NamespaceDump.counters(n.file);
    downgrade(n.file, 1);
    assertFalse(RegionStat.run(n.file).pageChecksums());
    CheckReport r = judge("without the feature");
    assertEquals(r.format(), 0, r.exitCode());
    assertEquals(dump, NamespaceDump.lines(n.file));
    assertEquals(counters, NamespaceDump.counters(n.file));
    try (Region open = Region.open(n.file, PersistMode.EMULATED)) {
      assertTrue(open.hasPageChecksums());
    }
    assertTrue(RegionStat.run(n.file).pageChecksums());
    assertEquals(0, CheckAssert.check(n.file).exitCode());
    assertEquals(dump, NamespaceDump.lines(n.file));
    assertEquals(counters, NamespaceDump.counters(n.file));
  }

  /** An upgrade a crash interrupted: some pages and counters sealed, the others not. */
  @Test
  public void aPartlyUpgradedRegionIsConsistent() throws Exception {
    List<String> dump = NamespaceDump.lines(n.file);
    downgrade(n.file, 2);
    assertEquals(0, judge("half upgraded").exitCode());
    assertEquals(dump, NamespaceDump.lines(n.file));
  }

  /** Without the feature a page may carry the magic or its checksum, nothing else. */
  @Test
  public void withoutTheFeatureABadChecksumOrCheckIsStillAnError() throws Exception {
    downgrade(n.file, 2);
    File pristine = RegionDamage.copy(n.file, shm.file("pristine"));
    long sealed = RegionDamage.getLong(n.file, n.small) >>> 32 != PAGE_MAGIC ? n.small : n.big;
    RegionDamage.flipBit(n.file, sealed + IN_MTIME, 0);
    CheckAssert.onlyError(judge("a sealed page"), Finding.Kind.BAD_CHECKSUM, sealed);
    refusedAt(sealed);

    RegionDamage.copy(pristine, n.file);
    RegionDamage.flipBit(n.file, SB_GENSTAMP_V2 + 7, 0); // a check bit of a plain counter
    CheckAssert.onlyError(judge("a counter"), Finding.Kind.BAD_COUNTER, SB_GENSTAMP_V2);
    refusedAt(SB_GENSTAMP_V2);
  }

  /**
   * In a region from before the redo log, a disarmed undo record keeps its payload (with a valid
   * CRC); a flipped bit in its state word arms it again. The native open refuses a record whose
   * state is not the commit sequence it saved plus one (a real record always is), instead of
   * rolling the last committed batch back; the checker reports that refusal at UNDO_STATE.
   */
  @Test
  public void anUndoRecordArmedByADamagedStateIsRefused() throws Exception {
    RegionDamage.disarmedUndoRecord(n.file);
    assertEquals(0, RegionDamage.getLong(n.file, UNDO_STATE));
    RegionDamage.flipBit(n.file, UNDO_STATE + 2, 5);
    CheckReport r = judge("a stale undo record armed");
    Finding f = CheckAssert.find(r, Finding.Kind.REFUSED, UNDO_STATE);
    assertTrue(f.message(), f.message().contains("does not follow the commit sequence it saved"));
    assertEquals(1, r.exitCode());
  }

  /**
   * Turns the sample region into one written before the feature: SB_FEATURES 0 and, for every
   * {@code every}-th LIVE page and counter, the page magic and a plain value.
   */
  static void downgrade(File f, int every) throws Exception {
    RegionDamage.rawPutLong(f, SB_FEATURES, 0);
    int k = 0;
    for (long off = SB_LAST_INODE_ID; off <= SB_LAST_TXID; off += 8) {
      if (k++ % every == 0) {
        RegionDamage.rawPutLong(
            f, off, RegionDamage.getLong(f, off) & ((1L << SB_COUNTER_BITS) - 1));
      }
    }
    for (long page = DATA_OFFSET; page + PAGE_SIZE <= f.length(); page += PAGE_SIZE) {
      long w = RegionDamage.getLong(f, page);
      if (stateOf(w) == STATE_LIVE && k++ % every == 0) {
        RegionDamage.rawPutLong(f, page, (w & 0xffffffffL) | PAGE_MAGIC << 32);
      }
    }
  }
}
