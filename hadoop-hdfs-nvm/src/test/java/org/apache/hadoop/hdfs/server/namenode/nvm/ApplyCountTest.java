package org.apache.hadoop.hdfs.server.namenode.nvm;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;
import static org.apache.hadoop.hdfs.server.namenode.nvm.StoreOps.*;
import static org.junit.Assert.*;

import org.junit.Rule;
import org.junit.Test;

/** Every InodeStore mutation is exactly one JNI apply call. */
public class ApplyCountTest {
  @Rule public ShmDir shm = new ShmDir();

  private interface Op {
    void run() throws Exception;
  }

  private Region region;

  private void once(String what, Op op) throws Exception {
    long before = region.applyCalls;
    op.run();
    assertEquals(what, before + 1, region.applyCalls);
  }

  @Test
  public void creatingInodesCrossesJniOncePerInodePlusOneRefillPer64() throws Exception {
    try (InodeStore s = InodeStore.open(shm.create("r", ShmDir.MEDIUM))) {
      s.format(1, 0755, "hdfs", "supergroup");
      Region r = s.region();
      long applies = r.applyCalls, reserves = r.reserveCalls, releases = r.releaseCalls;
      int n = 640;
      for (int i = 0; i < n; i++) {
        createInode(s, s.rootPage(), InodeAttrs.file("f" + i).owner("hdfs", "supergroup"));
      }
      assertEquals(n, r.applyCalls - applies);
      assertTrue(
          "reserve calls " + (r.reserveCalls - reserves),
          r.reserveCalls - reserves <= n / PagePool.REFILL + 1);
      assertEquals(releases, r.releaseCalls);
    }
  }

  @Test
  public void eachMutationIsOneApplyCall() throws Exception {
    final InodeStore s = InodeStore.open(shm.create("r", ShmDir.MEDIUM));
    region = s.region();
    try {
      final long[] p = new long[4];
      once("format", () -> s.format(1, 0755, "hdfs", "supergroup"));
      once(
          "mkdir",
          () -> p[0] = createInode(s, s.rootPage(), InodeAttrs.directory("d").owner("new", "grp")));
      once(
          "create long",
          () ->
              p[1] =
                  createInode(
                      s,
                      p[0],
                      InodeAttrs.file(RenameDeleteTest.longName(900, 'a'))
                          .underConstruction("c1", "m1")));
      once("create", () -> p[2] = createInode(s, p[0], InodeAttrs.file("g")));
      once("setMtime", () -> setMtime(s, p[1], 2));
      once("setAtime", () -> setAtime(s, p[1], 3));
      once("setTimes", () -> setTimes(s, p[1], 4, 5));
      once("setPermission", () -> setPermission(s, p[1], 0600));
      once("setOwner", () -> setOwner(s, p[1], "someone", "else"));
      once("setReplication", () -> setReplication(s, p[1], 2));
      once("setStoragePolicy", () -> setStoragePolicy(s, p[1], 3));
      once("setPreferredBlockSize", () -> setPreferredBlockSize(s, p[1], 1 << 20));
      once("setQuota", () -> setQuota(s, p[0], 10, 20));
      once("setStorageTypeQuota", () -> setStorageTypeQuota(s, p[0], 2, 30));
      for (int i = 0; i < 14; i++) {
        final int k = i;
        once("addBlock " + i, () -> addBlock(s, p[1], 100 + k, 1, k == 0 ? -1 : 10));
      }
      once("updateBlock", () -> updateBlock(s, p[1], 13, 5, 6));
      once("removeLastBlock", () -> removeLastBlock(s, p[1]));
      once("setUnderConstruction", () -> setUnderConstruction(s, p[1], "c2", "m2"));
      once("clearUnderConstruction", () -> clearUnderConstruction(s, p[1]));
      once("rename", () -> rename(s, p[1], s.rootPage(), "short", 6));
      once(
          "rename over",
          () -> rename(s, p[2], s.rootPage(), "short".getBytes(), 7, p[1], new long[0]));
      once("mkdir 2", () -> p[3] = createInode(s, p[0], InodeAttrs.directory("sub")));
      once("delete", () -> delete(s, p[0], new long[] {p[3]}, s.rootPage(), 8));
      once("genstamp v1", () -> setGenerationStampV1(s, 1));
      once("genstamp v2", () -> setGenerationStampV2(s, 2));
      once("genstamp limit", () -> setGenerationStampV1Limit(s, 3));
      once("block id", () -> setLastAllocatedBlockId(s, 4));
      once("inode id", () -> setLastInodeId(s, 1L << 20));
      once("txid", () -> setLastTxId(s, 5));
    } finally {
      s.close();
    }
  }

  /**
   * With the redo log (region-format.md §7.3) every commit is one record and one barrier: a counter
   * or a state word alone, a page field alone (its page's seal is in the record too), two fields.
   */
  @Test
  public void everyCommitWithoutLiveFreshPagesIsOneBarrier() throws Exception {
    try (InodeStore s = shm.createStore("r", ShmDir.SMALL)) {
      assertTrue(s.region().hasPageChecksums());
      long f = createInode(s, s.rootPage(), InodeAttrs.file("f"));
      long g = createInode(s, s.rootPage(), InodeAttrs.file("g"));
      assertEquals("a counter", 1, barriers(s, () -> setLastTxId(s, 77)));
      assertEquals(77, s.region().lastTxId());
      MutationBatch invalidate =
          new MutationBatch()
              .putLong(g + PG_STATE, stateWord(KIND_FILE, STATE_INVALID), Field.STATE);
      assertEquals("a state word", 1, barriers(s, () -> s.region().apply(invalidate)));
      assertEquals(STATE_INVALID, stateOf(s.region().getLong(g + PG_STATE)));
      assertEquals("one page field", 1, barriers(s, () -> setMtime(s, f, 9)));
      assertEquals("one time of two", 1, barriers(s, () -> setTimes(s, f, -1, 12)));
      assertEquals("two page fields", 1, barriers(s, () -> setTimes(s, f, 10, 11)));
      assertEquals(10, s.inode(f).mtime());
      assertEquals(11, s.inode(f).atime());
    }
  }

  private static long barriers(InodeStore s, Op op) throws Exception {
    long b0 = s.region().barrierCount();
    op.run();
    return s.region().barrierCount() - b0;
  }
}
