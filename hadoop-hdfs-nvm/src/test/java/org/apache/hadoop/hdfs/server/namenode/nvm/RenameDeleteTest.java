package org.apache.hadoop.hdfs.server.namenode.nvm;

import static org.apache.hadoop.hdfs.server.namenode.nvm.StoreOps.*;
import static org.junit.Assert.*;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.Rule;
import org.junit.Test;

/** rename and delete, checked after close + reopen. */
public class RenameDeleteTest {
  @Rule public ShmDir shm = new ShmDir();

  static String longName(int len, char base) {
    char[] c = new char[len];
    for (int i = 0; i < len; i++) {
      c[i] = (char) (base + i % 20);
    }
    return new String(c);
  }

  @Test
  public void renameShortToLongNameSurvivesReopen() throws Exception {
    String lng = longName(700, 'a');
    long f;
    try (InodeStore s = shm.createStore("r", ShmDir.SMALL)) {
      f = createInode(s, s.rootPage(), InodeAttrs.file("short").times(10, 10));
      long used = s.region().usage().pagesUsed();
      rename(s, f, s.rootPage(), lng, 20);
      assertEquals(used + PageCodec.nameExtPages(lng.length()), s.region().usage().pagesUsed());
    }
    try (InodeStore s = shm.reopen("r")) {
      assertEquals(lng, s.inode(f).name());
      assertEquals(20, s.inode(s.rootPage()).mtime());
      assertEquals(0, s.region().recovery().extReclaimed());
    }
  }

  @Test
  public void renameLongToShortNameFreesTheOldChainAndSurvivesReopen() throws Exception {
    String lng = longName(500, 'A');
    long f;
    long usedShort;
    try (InodeStore s = shm.createStore("r", ShmDir.SMALL)) {
      usedShort = s.region().usage().pagesUsed() + 1;
      f = createInode(s, s.rootPage(), InodeAttrs.file(lng));
      rename(s, f, s.rootPage(), "tiny", 30);
      assertEquals(usedShort, s.region().usage().pagesUsed());
      // long -> other long: a new chain replaces the old one
      rename(s, f, s.rootPage(), longName(260, 'k'), 31);
      rename(s, f, s.rootPage(), "tiny", 32);
      assertEquals(usedShort, s.region().usage().pagesUsed());
    }
    try (InodeStore s = shm.reopen("r")) {
      assertEquals("tiny", s.inode(f).name());
      assertEquals(0, s.inode(f).firstNameExt());
      assertEquals(usedShort, s.region().usage().pagesUsed());
      assertEquals(0, s.region().recovery().extReclaimed());
    }
  }

  @Test
  public void renameAcrossDirectoriesSurvivesReopen() throws Exception {
    long a, b, f, child;
    try (InodeStore s = shm.createStore("r", ShmDir.SMALL)) {
      a = createInode(s, s.rootPage(), InodeAttrs.directory("a").times(1, 1));
      b = createInode(s, s.rootPage(), InodeAttrs.directory("b").times(2, 2));
      f = createInode(s, a, InodeAttrs.directory("sub").times(3, 3));
      child = createInode(s, f, InodeAttrs.file("leaf").times(4, 4));
      rename(s, f, b, "moved", 100);
    }
    try (InodeStore s = shm.reopen("r")) {
      InodeView v = s.inode(f);
      assertEquals("moved", v.name());
      assertEquals(b, v.parentPage());
      assertEquals(s.inode(b).id(), v.parentId());
      assertEquals(100, s.inode(a).mtime());
      assertEquals(100, s.inode(b).mtime());
      assertEquals(f, s.inode(child).parentPage());
      assertEquals(5, s.region().recoveredInodes().length);
      assertEquals(0, s.region().recovery().orphansReclaimed());
    }
  }

  @Test
  public void renameOverAnExistingFileInvalidatesAndFreesItAndSurvivesReopen() throws Exception {
    long a, b, src, dst;
    long usedBefore;
    try (InodeStore s = shm.createStore("r", ShmDir.SMALL)) {
      a = createInode(s, s.rootPage(), InodeAttrs.directory("a"));
      b = createInode(s, s.rootPage(), InodeAttrs.directory("b"));
      src = createInode(s, a, InodeAttrs.file("src"));
      dst = createInode(s, b, InodeAttrs.file(longName(400, 'd')));
      for (int i = 0; i < 6; i++) {
        addBlock(s, dst, 700 + i, 1);
      }
      usedBefore = s.region().usage().pagesUsed();
      rename(s, src, b, longName(400, 'd').getBytes("UTF-8"), 200, dst, new long[0]);
      // dst page, its two NAME_EXT pages and one BLOCK_EXT page are free; src got two NAME_EXT
      // pages
      assertEquals(usedBefore - 4 + 2, s.region().usage().pagesUsed());
    }
    try (InodeStore s = shm.reopen("r")) {
      assertEquals(longName(400, 'd'), s.inode(src).name());
      assertEquals(b, s.inode(src).parentPage());
      assertFalse(s.inode(dst).isLive());
      assertEquals(4, s.region().recoveredInodes().length); // root, a, b, src
      assertFalse(
          Arrays.toString(s.region().recoveredInodes()),
          contains(s.region().recoveredInodes(), dst));
      assertEquals(usedBefore - 2, s.region().usage().pagesUsed());
    }
  }

  private static boolean contains(long[] a, long v) {
    for (long x : a) {
      if (x == v) {
        return true;
      }
    }
    return false;
  }

  @Test
  public void recursiveDeleteReclaimsEveryPageAndSurvivesReopen() throws Exception {
    long top;
    RegionUsage before;
    try (InodeStore s = shm.createStore("r", ShmDir.MEDIUM)) {
      long keep = createInode(s, s.rootPage(), InodeAttrs.file("keep").owner("u1", "g1"));
      before = s.region().usage();
      top = createInode(s, s.rootPage(), InodeAttrs.directory(longName(100, 'x')));
      List<Long> sub = new ArrayList<Long>();
      List<Long> dirs = new ArrayList<Long>();
      dirs.add(top);
      for (int d = 0; d < 3; d++) {
        long dir = createInode(s, dirs.get(d), InodeAttrs.directory("d" + d));
        sub.add(dir);
        dirs.add(dir);
        for (int i = 0; i < 5; i++) {
          long f = createInode(s, dir, InodeAttrs.file(i == 0 ? longName(300, 'f') : "f" + i));
          for (int k = 0; k < 6; k++) {
            addBlock(s, f, d * 100 + i * 10 + k, 1);
          }
          sub.add(f);
        }
      }
      assertTrue(s.region().usage().pagesUsed() > before.pagesUsed() + 30);
      long[] pages = new long[sub.size()];
      for (int i = 0; i < pages.length; i++) {
        pages[i] = sub.get(i);
      }
      delete(s, top, pages, s.rootPage(), 999);
      assertEquals(before.pagesUsed(), s.region().usage().pagesUsed());
      assertEquals(available(before), available(s.region().usage()));
      assertEquals(999, s.inode(s.rootPage()).mtime());
      assertTrue(s.inode(keep).isLive());
    }
    try (InodeStore s = shm.reopen("r")) {
      assertEquals(2, s.region().recoveredInodes().length);
      assertEquals(before.pagesUsed(), s.region().usage().pagesUsed());
      assertEquals(0, s.region().recovery().orphansReclaimed());
      assertEquals(0, s.region().recovery().extReclaimed());
      assertFalse(s.inode(top).isLive());
      assertEquals(999, s.inode(s.rootPage()).mtime());
    }
  }

  @Test
  public void deleteOfAFileWithoutSubtreeFreesItsPages() throws Exception {
    try (InodeStore s = shm.createStore("r", ShmDir.SMALL)) {
      RegionUsage before = s.region().usage();
      long f = createInode(s, s.rootPage(), InodeAttrs.file(longName(60, 'q')));
      delete(s, f, null, s.rootPage(), 5);
      assertEquals(before.pagesUsed(), s.region().usage().pagesUsed());
      assertEquals(available(before), available(s.region().usage()));
    }
  }

  /** Pages the store can still use: free, or reserved in its page pool. */
  static long available(RegionUsage u) {
    return u.pagesFree() + u.pagesReserved();
  }
}
