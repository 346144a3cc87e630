package org.apache.hadoop.hdfs.server.namenode.nvm;

import static org.apache.hadoop.hdfs.server.namenode.nvm.StoreOps.*;
import static org.junit.Assert.*;

import java.util.ArrayList;
import java.util.List;
import org.junit.Rule;
import org.junit.Test;

public class RegionFullTest {
  @Rule public ShmDir shm = new ShmDir();

  @Test
  public void fillingTheRegionFailsCleanlyAndDeleteMakesRoomAgain() throws Exception {
    List<Long> acked = new ArrayList<Long>();
    long total;
    try (InodeStore s = shm.createStore("r", ShmDir.SMALL)) {
      total = s.region().usage().pagesTotal();
      RegionFullException full = null;
      for (int i = 0; i < total + 10 && full == null; i++) {
        try {
          acked.add(createInode(s, s.rootPage(), InodeAttrs.file("f" + i).times(i, i)));
        } catch (RegionFullException e) {
          full = e;
        }
      }
      assertNotNull("the region never filled up", full);
      assertEquals(NvmException.ErrorCode.EFULL, full.code());
      String msg = full.getMessage();
      assertTrue(msg, msg.contains(String.valueOf(total)));
      assertTrue(msg, msg.contains(String.valueOf(total) + " pages"));
      RegionUsage u = s.region().usage();
      assertEquals(0, u.pagesReserved());
      assertEquals(0, u.pagesFree());
      // A multi-page create (long name) also fails and leaves nothing reserved.
      try {
        createInode(s, s.rootPage(), InodeAttrs.file(RenameDeleteTest.longName(500, 'z')));
        fail();
      } catch (RegionFullException expected) {
      }
      assertEquals(u, s.region().usage());
    }
    try (InodeStore s = shm.reopen("r")) {
      assertEquals(acked.size() + 1, s.region().recoveredInodes().length);
      assertEquals(acked.size() + 1, s.region().recovery().inodesLive());
      assertEquals(0, s.region().recovery().pendingDiscarded());
      long last = acked.get(acked.size() - 1);
      assertEquals("f" + (acked.size() - 1), s.inode(last).name());
      delete(s, last, null, s.rootPage(), 1);
      long again = createInode(s, s.rootPage(), InodeAttrs.file("again"));
      assertEquals(last, again);
      try {
        createInode(s, s.rootPage(), InodeAttrs.file("one-too-many"));
        fail();
      } catch (RegionFullException expected) {
      }
    }
  }

  @Test
  public void newStringsNeedPagesTooAndFailAllOrNothing() throws Exception {
    try (InodeStore s = shm.createStore("r", ShmDir.SMALL)) {
      long total = s.region().usage().pagesTotal();
      // leave exactly one page the store can still use (free, or reserved in its pool)
      for (int i = 0; available(s) > 1 && i < total; i++) {
        createInode(s, s.rootPage(), InodeAttrs.file("g" + i));
      }
      assertEquals(1, available(s));
      int stringsBefore = s.strings().size();
      long lastStringId = s.region().lastStringId();
      try {
        createInode(s, s.rootPage(), InodeAttrs.file("x").owner("newuser", "newgroup"));
        fail();
      } catch (RegionFullException expected) {
      }
      assertEquals(stringsBefore, s.strings().size());
      assertEquals(lastStringId, s.region().lastStringId());
      assertEquals(1, available(s));
      // known strings need no page
      createInode(s, s.rootPage(), InodeAttrs.file("y").owner("hdfs", "supergroup"));
      assertEquals(0, available(s));
    }
  }

  private static long available(InodeStore s) {
    RegionUsage u = s.region().usage();
    return u.pagesFree() + u.pagesReserved();
  }
}
