package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;
import static org.junit.Assert.*;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Arrays;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionDamage;
import org.junit.Test;

/**
 * Damage to state words, parent links, ids and names: each reported as an ERROR at the damaged
 * field.
 */
public class RegionCheckTreeTest extends SampleNamespaceFixture {

  private CheckReport check() throws Exception {
    return CheckAssert.check(n.file);
  }

  private void putName(long page, String name) throws Exception {
    byte[] b = name.getBytes(StandardCharsets.UTF_8);
    RegionDamage.putLong(n.file, page + IN_NAME_LEN, b.length);
    RegionDamage.write(n.file, page + IN_NAME_INLINE, Arrays.copyOf(b, NAME_INLINE_MAX));
  }

  @Test
  public void flippedMagicBitInAStateWord() throws Exception {
    // /tmp is empty: deleted, its page is a free INVALID page, which keeps the page magic
    RegionDamage.putLong(n.file, n.tmp, stateWord(KIND_DIR, STATE_INVALID));
    assertTrue(check().isConsistent());
    RegionDamage.flipBit(n.file, n.tmp + 5, 0); // bit 40: inside PAGE_MAGIC
    Finding f = CheckAssert.onlyError(check(), Finding.Kind.BAD_STATE_WORD, n.tmp);
    assertTrue(f.message(), f.message().contains("recovery refuses the region"));
  }

  @Test
  public void flippedChecksumBitInALiveStateWord() throws Exception {
    RegionDamage.flipBit(n.file, n.small + 5, 0); // bit 40: inside the LIVE page's checksum
    Finding f = CheckAssert.onlyError(check(), Finding.Kind.BAD_CHECKSUM, n.small);
    assertTrue(f.message(), f.message().contains("recovery refuses the region"));
    assertTrue(f.message(), f.message().contains("/user/alice/small.txt"));
  }

  @Test
  public void reservedStateBitsInALiveSealedPage() throws Exception {
    RegionDamage.xor(n.file, n.small + 2, 0x01); // sealed: bit 16, one of the zero bits 31..16
    CheckAssert.onlyError(check(), Finding.Kind.BAD_STATE_WORD, n.small);
  }

  @Test
  public void stateAboveInvalid() throws Exception {
    RegionDamage.flipBit(n.file, n.small, 1); // LIVE (1) -> 3
    CheckAssert.onlyError(check(), Finding.Kind.BAD_STATE_WORD, n.small);
  }

  @Test
  public void livePageOfAnUndefinedKind() throws Exception {
    RegionDamage.putLong(n.file, n.tmp, stateWord(KIND_SYMLINK + 1, STATE_LIVE));
    CheckAssert.onlyError(check(), Finding.Kind.UNKNOWN_KIND, n.tmp);
  }

  @Test
  public void usedPageAboveTheScanLimit() throws Exception {
    long highWater = highWater();
    RegionDamage.putLong(n.file, SB_SCAN_LIMIT, ScanLimit.word(highWater));
    assertTrue(check().isConsistent()); // every used page is still below the limit
    long above = DATA_OFFSET + (highWater + 5) * PAGE_SIZE;
    RegionDamage.putLong(n.file, above, stateWord(KIND_FILE, STATE_LIVE));
    Finding f = CheckAssert.onlyError(check(), Finding.Kind.ABOVE_SCAN_LIMIT, above);
    assertTrue(f.message(), f.message().contains("recovery never reads it"));
  }

  /** One past the last page whose state word is not zero. */
  private long highWater() throws Exception {
    ByteBuffer b =
        ByteBuffer.wrap(Files.readAllBytes(n.file.toPath())).order(ByteOrder.LITTLE_ENDIAN);
    long hw = 0;
    for (int i = 0; DATA_OFFSET + (i + 1L) * PAGE_SIZE <= b.capacity(); i++) {
      hw = b.getLong(DATA_OFFSET + i * PAGE_SIZE) != 0 ? i + 1 : hw;
    }
    return hw;
  }

  @Test
  public void changedParentIdDetachesASubtree() throws Exception {
    RegionDamage.putLong(n.file, n.alice + IN_PARENT_ID, 99);
    CheckReport r = check();
    Finding f = CheckAssert.onlyError(r, Finding.Kind.BROKEN_PARENT_LINK, n.alice + IN_PARENT_ID);
    assertTrue(f.message(), f.message().contains("the 4 inode(s) below it"));
    assertTrue(f.message(), f.message().contains("recorded parent id 99"));
    // The subtree's extension and string pages are covered by this finding, not listed again.
    assertEquals(r.format(), 1, r.findings().size());
  }

  @Test
  public void parentPageOnAFile() throws Exception {
    RegionDamage.putLong(n.file, n.small + IN_PARENT_PAGE, n.big);
    Finding f =
        CheckAssert.onlyError(check(), Finding.Kind.BROKEN_PARENT_LINK, n.small + IN_PARENT_PAGE);
    assertTrue(f.message(), f.message().contains("a LIVE FILE page"));
  }

  @Test
  public void parentPageOnAnotherDirectoryWhileTheParentIsElsewhere() throws Exception {
    RegionDamage.putLong(n.file, n.small + IN_PARENT_PAGE, n.tmp);
    Finding f =
        CheckAssert.onlyError(check(), Finding.Kind.BROKEN_PARENT_LINK, n.small + IN_PARENT_PAGE);
    assertTrue(
        f.message(),
        f.message().contains("directory " + n.id(n.alice) + " is attached at page " + n.alice));
  }

  @Test
  public void parentPageOutsideTheDataArea() throws Exception {
    RegionDamage.putLong(n.file, n.tmp + IN_PARENT_PAGE, 12345);
    Finding f =
        CheckAssert.onlyError(check(), Finding.Kind.BROKEN_PARENT_LINK, n.tmp + IN_PARENT_PAGE);
    assertTrue(f.message(), f.message().contains("not a page of the data area"));
  }

  @Test
  public void parentCycle() throws Exception {
    RegionDamage.putLong(n.file, n.user + IN_PARENT_PAGE, n.alice);
    RegionDamage.putLong(n.file, n.user + IN_PARENT_ID, n.id(n.alice));
    CheckReport r = check();
    Finding f =
        CheckAssert.onlyError(
            r, Finding.Kind.PARENT_CYCLE, Math.min(n.user, n.alice) + IN_PARENT_PAGE);
    assertTrue(f.message(), f.message().contains("the 5 inode(s) below it"));
  }

  @Test
  public void rootPointerCleared() throws Exception {
    RegionDamage.putLong(n.file, SB_ROOT_PAGE, 0);
    Finding f = CheckAssert.onlyError(check(), Finding.Kind.BAD_ROOT, SB_ROOT_PAGE);
    assertTrue(f.message(), f.message().contains("8 live inode pages"));
  }

  @Test
  public void rootPointerOnAFile() throws Exception {
    RegionDamage.putLong(n.file, SB_ROOT_PAGE, n.small);
    CheckAssert.onlyError(check(), Finding.Kind.BAD_ROOT, SB_ROOT_PAGE);
  }

  @Test
  public void rootWithAnotherId() throws Exception {
    RegionDamage.putLong(n.file, n.root + IN_ID, ROOT_INODE_ID - 1);
    CheckReport r = check();
    assertEquals(
        Finding.Severity.ERROR,
        CheckAssert.find(r, Finding.Kind.BAD_ROOT, n.root + IN_ID).severity());
    assertEquals(1, r.exitCode());
  }

  @Test
  public void duplicateNameUnderOneDirectory() throws Exception {
    putName(n.big, "small.txt");
    Finding f =
        CheckAssert.onlyError(
            check(), Finding.Kind.DUPLICATE_NAME, Math.max(n.small, n.big) + IN_NAME_LEN);
    assertTrue(
        f.message(), f.message().contains("/user/alice has two children named \"small.txt\""));
  }

  @Test
  public void sameNameInTwoDirectoriesIsFine() throws Exception {
    putName(n.tmp, "alice"); // /tmp renamed to /alice: no sibling of /user/alice
    assertEquals(0, check().exitCode());
  }

  @Test
  public void nameWithASlash() throws Exception {
    putName(n.small, "a/b");
    Finding f = CheckAssert.onlyError(check(), Finding.Kind.BAD_NAME, n.small + IN_NAME_LEN);
    assertTrue(f.message(), f.message().contains("'/' at byte 1"));
  }

  /** Any byte but '/' is a name byte, NUL included (region-format.md §5.2). */
  @Test
  public void nameWithANulIsValid() throws Exception {
    putName(n.small, "a\0b");
    assertEquals(check().format(), 0, check().exitCode());
  }

  @Test
  public void dotAndDotDotAndEmptyNames() throws Exception {
    putName(n.small, ".");
    putName(n.tmp, "..");
    putName(n.user, "");
    CheckReport r = check();
    for (long page : new long[] {n.small, n.tmp, n.user}) {
      assertEquals(
          Finding.Severity.ERROR,
          CheckAssert.find(r, Finding.Kind.BAD_NAME, page + IN_NAME_LEN).severity());
    }
  }

  @Test
  public void nameLengthOverTheLimit() throws Exception {
    RegionDamage.putLong(n.file, n.longName + IN_NAME_LEN, NAME_MAX + 1);
    CheckReport r = check();
    Finding f = CheckAssert.onlyError(r, Finding.Kind.BAD_NAME, n.longName + IN_NAME_LEN);
    assertTrue(f.message(), f.message().contains("over NAME_MAX"));
  }

  /** Found by the oracle (RegionMutationTest): recovery refuses the root's length too. */
  @Test
  public void rootNameLengthOverTheLimit() throws Exception {
    RegionDamage.putLong(n.file, n.root + IN_NAME_LEN, 1L << 21);
    Finding f = CheckAssert.onlyError(check(), Finding.Kind.BAD_NAME, n.root + IN_NAME_LEN);
    assertTrue(f.message(), f.message().contains("name length 2097152 is over NAME_MAX"));
    assertEquals(
        n.root + IN_NAME_LEN, CheckAssert.refusedByRecovery(n.file, shm.file("copy")).offset());
  }

  @Test
  public void duplicateInodeId() throws Exception {
    RegionDamage.putLong(n.file, n.tmp + IN_ID, n.id(n.small));
    Finding f =
        CheckAssert.onlyError(
            check(), Finding.Kind.DUPLICATE_INODE_ID, Math.max(n.tmp, n.small) + IN_ID);
    assertTrue(f.message(), f.message().contains("page " + Math.min(n.tmp, n.small)));
  }

  @Test
  public void inodeIdAboveTheCounter() throws Exception {
    long last = RegionDamage.counter(n.file, SB_LAST_INODE_ID);
    RegionDamage.putLong(n.file, n.tmp + IN_ID, last + 1);
    CheckAssert.onlyError(check(), Finding.Kind.INODE_ID_ABOVE_COUNTER, n.tmp + IN_ID);
  }
}
