package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;
import static org.junit.Assert.*;

import org.apache.hadoop.hdfs.server.namenode.nvm.RegionDamage;
import org.junit.Before;
import org.junit.Test;

/**
 * Damaged NAME_EXT / BLOCK_EXT chains: broken, cyclic, shared, or of the wrong length, each an
 * ERROR at the link or field that is wrong. Pages a broken chain no longer reaches are RECOVERABLE
 * leftovers.
 */
public class RegionCheckChainTest extends SampleNamespaceFixture {
  @Before
  public void chains() {
    assertEquals(2, n.longNameExtPages.length);
    assertEquals(3, n.bigExtPages.length);
  }

  private CheckReport check() throws Exception {
    return CheckAssert.check(n.file);
  }

  private static Finding error(CheckReport r, Finding.Kind kind, long offset) {
    Finding f = CheckAssert.find(r, kind, offset);
    assertEquals(Finding.Severity.ERROR, f.severity());
    assertEquals(r.format(), 1, r.exitCode());
    return f;
  }

  @Test
  public void nameChainLinksAFilePage() throws Exception {
    RegionDamage.putLong(n.file, n.longName + IN_NAME_EXT, n.small);
    CheckReport r = check();
    Finding f = CheckAssert.onlyError(r, Finding.Kind.BROKEN_CHAIN, n.longName + IN_NAME_EXT);
    assertTrue(f.message(), f.message().contains("a LIVE FILE page, not a LIVE NAME_EXT page"));
    // the two name pages nothing links any more are what recovery would reclaim
    for (long p : n.longNameExtPages) {
      assertEquals(
          Finding.Severity.RECOVERABLE,
          CheckAssert.find(r, Finding.Kind.UNREFERENCED_EXTENSION, p).severity());
    }
  }

  @Test
  public void nameChainEndsEarly() throws Exception {
    RegionDamage.putLong(n.file, n.longNameExtPages[0] + EXT_NEXT, 0);
    Finding f =
        CheckAssert.onlyError(check(), Finding.Kind.CHAIN_LENGTH, n.longNameExtPages[0] + EXT_NEXT);
    assertTrue(
        f.message(),
        f.message().contains("ends after 1 page(s) with 28 name bytes still to cover"));
  }

  @Test
  public void nameChainOnANameThatFitsInline() throws Exception {
    RegionDamage.putLong(n.file, n.small + IN_NAME_EXT, n.longNameExtPages[0]);
    CheckAssert.onlyError(check(), Finding.Kind.CHAIN_LENGTH, n.small + IN_NAME_EXT);
  }

  @Test
  public void blockChainLongerThanTheCount() throws Exception {
    RegionDamage.putLong(n.file, n.big + FI_BLOCK_COUNT, 4 + 9 + 9);
    CheckAssert.onlyError(check(), Finding.Kind.CHAIN_LENGTH, n.bigExtPages[1] + EXT_NEXT);
  }

  @Test
  public void blockChainShorterThanTheCount() throws Exception {
    RegionDamage.putLong(n.file, n.big + FI_BLOCK_COUNT, 40);
    Finding f =
        CheckAssert.onlyError(check(), Finding.Kind.CHAIN_LENGTH, n.bigExtPages[2] + EXT_NEXT);
    assertTrue(f.message(), f.message().contains("17 block records still to cover"));
  }

  /**
   * Found by the oracle (RegionMutationTest): the count is a u64, so with the top bit set it asks
   * for more records than any chain holds; recovery refuses it at the same link.
   */
  @Test
  public void blockCountWithTheTopBitSet() throws Exception {
    RegionDamage.putLong(
        n.file, n.big + FI_BLOCK_COUNT, Long.MIN_VALUE | SampleNamespace.BIG_BLOCKS);
    long link = n.bigExtPages[2] + EXT_NEXT;
    CheckReport r = check();
    Finding f = CheckAssert.onlyError(r, Finding.Kind.CHAIN_LENGTH, link);
    assertTrue(
        f.message(),
        f.message().contains("ends after 3 page(s) with 9223372036854775808 block records"));
    assertEquals(r.format(), 1, r.findings().size()); // the chain's pages are linked, not leftovers
    assertEquals(link, CheckAssert.refusedByRecovery(n.file, shm.file("copy")).offset());
  }

  @Test
  public void blockChainPageWithABadCount() throws Exception {
    RegionDamage.putLong(n.file, n.bigExtPages[0] + EXT_COUNT, BLOCKS_EXT_MAX + 1);
    CheckAssert.onlyError(check(), Finding.Kind.CHAIN_LENGTH, n.bigExtPages[0] + EXT_COUNT);
  }

  @Test
  public void cyclicBlockChain() throws Exception {
    RegionDamage.putLong(n.file, n.bigExtPages[1] + EXT_NEXT, n.bigExtPages[0]);
    CheckReport r = check();
    Finding f = error(r, Finding.Kind.CYCLIC_CHAIN, n.bigExtPages[1] + EXT_NEXT);
    assertTrue(f.message(), f.message().contains("cyclic"));
    assertEquals(r.format(), 1, r.count(Finding.Severity.ERROR));
    CheckAssert.find(r, Finding.Kind.UNREFERENCED_EXTENSION, n.bigExtPages[2]);
  }

  @Test
  public void blockChainSharedBetweenTwoFiles() throws Exception {
    RegionDamage.putLong(n.file, n.writing + FI_BLOCK_COUNT, 4 + 9);
    RegionDamage.putLong(n.file, n.writing + FI_BLOCK_EXT, n.bigExtPages[0]);
    CheckReport r = check();
    Finding f = error(r, Finding.Kind.SHARED_CHAIN, n.writing + FI_BLOCK_EXT);
    assertTrue(f.message(), f.message().contains("belongs to inode " + n.id(n.big)));
    // big.bin, the owner, is not blamed
    for (Finding x : r.findings()) {
      assertFalse(x.format(), x.offset() >= n.big && x.offset() < n.big + PAGE_SIZE);
    }
  }

  @Test
  public void extensionPageWithAnotherOwner() throws Exception {
    RegionDamage.putLong(n.file, n.bigExtPages[1] + EXT_OWNER_ID, 5);
    Finding f =
        CheckAssert.onlyError(check(), Finding.Kind.BROKEN_CHAIN, n.bigExtPages[1] + EXT_OWNER_ID);
    assertTrue(f.message(), f.message().contains("carries owner id 5"));
  }

  @Test
  public void extensionPageInvalidated() throws Exception {
    RegionDamage.putLong(n.file, n.bigExtPages[2], stateWord(KIND_BLOCK_EXT, STATE_INVALID));
    Finding f =
        CheckAssert.onlyError(check(), Finding.Kind.BROKEN_CHAIN, n.bigExtPages[1] + EXT_NEXT);
    assertTrue(f.message(), f.message().contains("INVALID BLOCK_EXT"));
  }
}
