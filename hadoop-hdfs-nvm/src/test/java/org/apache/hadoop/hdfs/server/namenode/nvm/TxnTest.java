package org.apache.hadoop.hdfs.server.namenode.nvm;

import static org.apache.hadoop.hdfs.server.namenode.nvm.StoreOps.*;
import static org.junit.Assert.*;

import java.util.Random;
import org.junit.Rule;
import org.junit.Test;

/** Txn: several operations in one atomic batch; state sync of whole inodes. */
public class TxnTest {
  @Rule public ShmDir shm = new ShmDir();

  static long[] blocks(int n, long seed) {
    long[] b = new long[3 * n];
    for (int i = 0; i < n; i++) {
      b[3 * i] = 1000 + i + seed;
      b[3 * i + 1] = 10 * i + seed;
      b[3 * i + 2] = 5000 + seed;
    }
    return b;
  }

  static void assertBlocks(InodeStore s, long page, long[] b, int n) {
    assertEquals(n, s.inode(page).blockCount());
    assertArrayEquals(java.util.Arrays.copyOf(b, 3 * n), StoreOps.blocks(s, page, 0));
  }

  @Test
  public void removeAndCreateInOneBatchIsOneApply() throws Exception {
    long old;
    long fresh;
    try (InodeStore s = shm.createStore("t", ShmDir.SMALL)) {
      old = createInode(s, s.rootPage(), InodeAttrs.file("f").times(1, 1));
      long calls = s.region().nativeWriteCalls();
      try (Txn t = s.begin()) {
        t.remove(old, new long[0]);
        fresh =
            t.create(s.rootPage(), InodeAttrs.file("f").times(2, 2).underConstruction("c", "m"));
        t.setMtime(s.rootPage(), 2);
        t.commit();
      }
      assertEquals(calls + 1, s.region().nativeWriteCalls());
    }
    try (InodeStore s = shm.reopen("t")) {
      assertTrue(s.inode(fresh).isLive());
      assertEquals("c", s.clientName(fresh));
      assertEquals(2, s.inode(s.rootPage()).mtime());
      assertEquals(2, s.region().recovery().inodesLive());
    }
  }

  @Test
  public void abandonedTxnWritesNothingAndReleasesPages() throws Exception {
    try (InodeStore s = shm.createStore("t", ShmDir.SMALL)) {
      long used = s.region().usage().pagesUsed();
      long calls = s.region().nativeWriteCalls();
      try (Txn t = s.begin()) {
        t.create(s.rootPage(), InodeAttrs.directory("d").owner("newuser", "newgroup"));
      }
      assertEquals(calls, s.region().nativeWriteCalls());
      assertEquals(used, s.region().usage().pagesUsed());
      assertEquals(0, s.strings().lookup("newuser"));
      createInode(s, s.rootPage(), InodeAttrs.directory("d2").owner("newuser", "g"));
      assertEquals(1, s.strings().lookup("newuser") > 0 ? 1 : 0);
    }
  }

  @Test
  public void setBlocksGrowsAndShrinksTheExtensionChain() throws Exception {
    long f;
    long[] b = blocks(40, 7);
    try (InodeStore s = shm.createStore("t", ShmDir.MEDIUM)) {
      f = createInode(s, s.rootPage(), InodeAttrs.file("f"));
      long used = s.region().usage().pagesUsed();
      Random r = new Random(1);
      int[] sizes = {1, 4, 5, 13, 14, 40, 22, 4, 0, 31, 3, 9};
      for (int n : sizes) {
        b[3 * (n > 0 ? n - 1 : 0) + 1] = r.nextInt(1000); // a changed length too
        try (Txn t = s.begin()) {
          t.setBlocks(f, b, n);
          t.commit();
        }
        assertBlocks(s, f, b, n);
        int ext = n <= 4 ? 0 : (n - 4 + 8) / 9;
        assertEquals("pages for " + n + " blocks", used + ext, s.region().usage().pagesUsed());
      }
    }
    try (InodeStore s = shm.reopen("t")) {
      assertBlocks(s, f, b, 9);
      assertEquals(0, s.region().recovery().extReclaimed());
    }
  }

  @Test
  public void unchangedStateStagesNothing() throws Exception {
    try (InodeStore s = shm.createStore("t", ShmDir.SMALL)) {
      long f =
          createInode(
              s,
              s.rootPage(),
              InodeAttrs.file("f")
                  .times(5, 6)
                  .mode(0644)
                  .owner("u", "g")
                  .preferredBlockSize(1 << 20)
                  .replication(3));
      long calls = s.region().nativeWriteCalls();
      try (Txn t = s.begin()) {
        t.setMtime(f, 5);
        t.setAtime(f, 6);
        t.setPermission(f, 0644, "u", "g");
        t.setFileHeader(f, 1 << 20, 3, 0);
        t.setUnderConstruction(f, null, null);
        t.setBlocks(f, new long[0], 0);
        assertEquals(0, t.size());
        t.commit();
      }
      assertEquals(calls, s.region().nativeWriteCalls());
    }
  }

  @Test
  public void removeAllInvalidatesOnlySubtreeRoots() throws Exception {
    long a;
    long keep;
    try (InodeStore s = shm.createStore("t", ShmDir.SMALL)) {
      a = createInode(s, s.rootPage(), InodeAttrs.directory("a"));
      long b = createInode(s, a, InodeAttrs.directory("b"));
      long c = createInode(s, b, InodeAttrs.file("c"));
      long x = createInode(s, s.rootPage(), InodeAttrs.file("x"));
      keep = createInode(s, s.rootPage(), InodeAttrs.file("keep"));
      long used = s.region().usage().pagesUsed();
      try (Txn t = s.begin()) {
        t.removeAll(new long[] {c, b, x, a}, 4);
        t.commit();
      }
      assertEquals(used - 4, s.region().usage().pagesUsed());
    }
    try (InodeStore s = shm.reopen("t")) {
      assertEquals(2, s.region().recovery().inodesLive());
      assertEquals(0, s.region().recovery().orphansReclaimed());
      assertTrue(s.inode(keep).isLive());
    }
  }

  @Test
  public void removeAllOfOnePageInvalidatesItAndRefusesTheRoot() throws Exception {
    long x;
    long keep;
    try (InodeStore s = shm.createStore("t", ShmDir.SMALL)) {
      x = createInode(s, s.rootPage(), InodeAttrs.file("x").owner("u", "g"));
      keep = createInode(s, s.rootPage(), InodeAttrs.file("keep").owner("u", "g"));
      long used = s.region().usage().pagesUsed();
      try (Txn t = s.begin()) {
        t.removeAll(new long[] {s.rootPage()}, 1);
        fail("removed the root");
      } catch (NvmException e) {
        assertEquals(NvmException.ErrorCode.EINVAL, e.code());
      }
      try (Txn t = s.begin()) {
        t.removeAll(new long[] {x, 0}, 1); // only the first n pages count
        assertEquals("its state word, then its FREE", 2, t.size());
        t.commit();
      }
      assertEquals(used - 1, s.region().usage().pagesUsed());
      assertFalse(s.inode(x).isLive());
      assertTrue(s.inode(keep).isLive());
    }
    try (InodeStore s = shm.reopen("t")) {
      assertEquals(2, s.region().recovery().inodesLive());
      assertEquals(0, s.region().recovery().orphansReclaimed());
      assertEquals(1, s.strings().references(s.strings().lookup("u")));
    }
  }

  @Test
  public void directoryStoragePolicySurvivesReopen() throws Exception {
    long d;
    try (InodeStore s = shm.createStore("t", ShmDir.SMALL)) {
      d = createInode(s, s.rootPage(), InodeAttrs.directory("d").storagePolicy(12));
      assertEquals(12, s.inode(d).directoryStoragePolicy());
      setStoragePolicy(s, d, 7);
    }
    try (InodeStore s = shm.reopen("t")) {
      assertEquals(7, s.inode(d).directoryStoragePolicy());
    }
  }

  @Test
  public void longLongMapBehavesLikeAMap() {
    LongLongMap m = new LongLongMap(4);
    java.util.HashMap<Long, Long> ref = new java.util.HashMap<>();
    Random r = new Random(3);
    for (int i = 0; i < 200000; i++) {
      long k = 1 + r.nextInt(5000);
      int op = r.nextInt(3);
      if (op == 0) {
        Long old = ref.put(k, (long) i);
        assertEquals(old == null ? LongLongMap.MISSING : old, m.put(k, i));
      } else if (op == 1) {
        Long old = ref.remove(k);
        assertEquals(old == null ? LongLongMap.MISSING : old, m.remove(k));
      } else {
        Long v = ref.get(k);
        assertEquals(v == null ? LongLongMap.MISSING : v, m.get(k));
      }
      assertEquals(ref.size(), m.size());
    }
  }
}
