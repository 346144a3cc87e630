package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;
import static org.junit.Assert.*;

import org.apache.hadoop.hdfs.server.namenode.nvm.RegionDamage;
import org.junit.Test;

/** Block records against each other and the superblock counters. */
public class RegionCheckBlockTest extends SampleNamespaceFixture {

  private long inlineRecord(long page, int i) {
    return page + FI_BLOCKS_INLINE + (long) BLOCK_RECORD_SIZE * i;
  }

  @Test
  public void duplicateBlockIdAcrossTwoFiles() throws Exception {
    long smallRec = inlineRecord(n.small, 0);
    long writingRec = inlineRecord(n.writing, 0);
    RegionDamage.putLong(n.file, writingRec + BR_ID, SampleNamespace.BLOCK_BASE + 1);
    Finding f =
        CheckAssert.onlyError(
            CheckAssert.check(n.file),
            Finding.Kind.DUPLICATE_BLOCK_ID,
            Math.max(smallRec, writingRec) + BR_ID);
    assertTrue(f.message(), f.message().contains("/user/alice/small.txt"));
    assertTrue(f.message(), f.message().contains("/user/alice/writing.log"));
  }

  @Test
  public void duplicateBlockIdInsideOneFileAcrossItsChain() throws Exception {
    long extRec = n.bigExtPages[1] + EXT_PAYLOAD + BLOCK_RECORD_SIZE * 3;
    RegionDamage.putLong(n.file, extRec + BR_ID, n.bigBlocks[0]);
    CheckAssert.onlyError(
        CheckAssert.check(n.file),
        Finding.Kind.DUPLICATE_BLOCK_ID,
        Math.max(extRec, inlineRecord(n.big, 0)) + BR_ID);
  }

  @Test
  public void generationStampAboveTheCounter() throws Exception {
    long rec = inlineRecord(n.small, 0);
    RegionDamage.putLong(n.file, rec + BR_GENSTAMP, 1101);
    Finding f =
        CheckAssert.onlyError(
            CheckAssert.check(n.file), Finding.Kind.GENSTAMP_ABOVE_COUNTER, rec + BR_GENSTAMP);
    assertTrue(f.message(), f.message().contains("SB_GENSTAMP_V2 1100"));
  }

  @Test
  public void generationStampCounterLoweredBelowABlock() throws Exception {
    RegionDamage.putLong(n.file, SB_GENSTAMP_V2, 1049); // writing.log's blocks carry 1050 and 1100
    CheckReport r = CheckAssert.check(n.file);
    CheckAssert.find(
        r, Finding.Kind.GENSTAMP_ABOVE_COUNTER, inlineRecord(n.writing, 0) + BR_GENSTAMP);
    CheckAssert.find(
        r, Finding.Kind.GENSTAMP_ABOVE_COUNTER, inlineRecord(n.writing, 1) + BR_GENSTAMP);
    assertEquals(r.format(), 2, r.count(Finding.Severity.ERROR));
  }

  @Test
  public void sequentialBlockIdAboveTheCounter() throws Exception {
    long rec = inlineRecord(n.small, 0);
    RegionDamage.putLong(n.file, rec + BR_ID, SampleNamespace.BLOCK_BASE + 42);
    CheckAssert.onlyError(
        CheckAssert.check(n.file), Finding.Kind.BLOCK_ID_ABOVE_COUNTER, rec + BR_ID);
  }

  @Test
  public void legacyBlockIdsAreRandomButTheirStampsAreBoundedByV1() throws Exception {
    long rec = inlineRecord(n.small, 0);
    RegionDamage.putLong(n.file, rec + BR_ID, -4242424242L); // legacy ids are random, even negative
    RegionDamage.putLong(n.file, rec + BR_GENSTAMP, 999); // below the V1 limit 1000: legacy
    assertEquals(CheckAssert.check(n.file).format(), 0, CheckAssert.check(n.file).exitCode());
    RegionDamage.putLong(n.file, SB_GENSTAMP_V1, 998);
    Finding f =
        CheckAssert.onlyError(
            CheckAssert.check(n.file), Finding.Kind.GENSTAMP_ABOVE_COUNTER, rec + BR_GENSTAMP);
    assertTrue(f.message(), f.message().contains("SB_GENSTAMP_V1 998"));
  }
}
