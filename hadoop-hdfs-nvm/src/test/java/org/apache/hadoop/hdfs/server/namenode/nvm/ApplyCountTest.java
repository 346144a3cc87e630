package org.apache.hadoop.hdfs.server.namenode.nvm;

import static org.junit.Assert.*;

import org.junit.Rule;
import org.junit.Test;

/** Every InodeStore mutation is exactly one JNI apply call. */
public class ApplyCountTest {
  @Rule
  public ShmDir shm = new ShmDir();

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
        s.createInode(s.rootPage(), InodeAttrs.file("f" + i).owner("hdfs", "supergroup"));
      }
      assertEquals(n, r.applyCalls - applies);
      assertTrue("reserve calls " + (r.reserveCalls - reserves), r.reserveCalls - reserves <= n / PagePool.REFILL + 1);
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
      once("mkdir", () -> p[0] = s.createInode(s.rootPage(), InodeAttrs.directory("d").owner("new", "grp")));
      once("create long", () -> p[1] = s.createInode(p[0],
          InodeAttrs.file(RenameDeleteTest.longName(900, 'a')).underConstruction("c1", "m1")));
      once("create", () -> p[2] = s.createInode(p[0], InodeAttrs.file("g")));
      once("setMtime", () -> s.setMtime(p[1], 2));
      once("setAtime", () -> s.setAtime(p[1], 3));
      once("setTimes", () -> s.setTimes(p[1], 4, 5));
      once("setPermission", () -> s.setPermission(p[1], 0600));
      once("setOwner", () -> s.setOwner(p[1], "someone", "else"));
      once("setReplication", () -> s.setReplication(p[1], 2));
      once("setStoragePolicy", () -> s.setStoragePolicy(p[1], 3));
      once("setPreferredBlockSize", () -> s.setPreferredBlockSize(p[1], 1 << 20));
      once("setQuota", () -> s.setQuota(p[0], 10, 20));
      once("setStorageTypeQuota", () -> s.setStorageTypeQuota(p[0], 2, 30));
      for (int i = 0; i < 14; i++) {
        final int k = i;
        once("addBlock " + i, () -> s.addBlock(p[1], 100 + k, 1, k == 0 ? -1 : 10));
      }
      once("updateBlock", () -> s.updateBlock(p[1], 13, 5, 6));
      once("removeLastBlock", () -> s.removeLastBlock(p[1]));
      once("setUnderConstruction", () -> s.setUnderConstruction(p[1], "c2", "m2"));
      once("clearUnderConstruction", () -> s.clearUnderConstruction(p[1]));
      once("rename", () -> s.rename(p[1], s.rootPage(), "short", 6));
      once("rename over", () -> s.rename(p[2], s.rootPage(), "short".getBytes(), 7, p[1], new long[0]));
      once("mkdir 2", () -> p[3] = s.createInode(p[0], InodeAttrs.directory("sub")));
      once("delete", () -> s.delete(p[0], new long[] {p[3]}, s.rootPage(), 8));
      once("genstamp v1", () -> s.setGenerationStampV1(1));
      once("genstamp v2", () -> s.setGenerationStampV2(2));
      once("genstamp limit", () -> s.setGenerationStampV1Limit(3));
      once("block id", () -> s.setLastAllocatedBlockId(4));
      once("inode id", () -> s.setLastInodeId(1L << 20));
      once("txid", () -> s.setLastTxId(5));
    } finally {
      s.close();
    }
  }

  @Test
  public void singleWordUpdateIsOneBarrierAndUndoLoggedUpdateFour() throws Exception {
    try (InodeStore s = shm.createStore("r", ShmDir.SMALL)) {
      long f = s.createInode(s.rootPage(), InodeAttrs.file("f"));
      long b0 = s.region().barrierCount();
      s.setMtime(f, 9);
      s.setTimes(f, -1, 12); // only atime: still one word
      assertEquals(2, s.region().barrierCount() - b0);
      b0 = s.region().barrierCount();
      s.setTimes(f, 10, 11);
      assertEquals(4, s.region().barrierCount() - b0);
      assertEquals(10, s.inode(f).mtime());
      assertEquals(11, s.inode(f).atime());
    }
  }
}
