package org.apache.hadoop.hdfs.server.namenode.nvm;

import static org.apache.hadoop.hdfs.server.namenode.nvm.StoreOps.*;
import static org.junit.Assert.*;

import org.junit.Rule;
import org.junit.Test;

/**
 * The counters the metrics source publishes, against what the native side really did: one persist
 * per InodeStore mutation, undo-logged persists exactly where the library issues the undo log's
 * barriers, every JNI call counted, live inodes across creates, deletes and a reopen.
 */
public class RegionStatsTest {
  @Rule public ShmDir shm = new ShmDir();

  private interface Op {
    void run() throws Exception;
  }

  /**
   * Runs {@code op} (one store mutation) and checks: one persist, one more JNI call than the
   * barrier read, a latency sample, and counted undo-logged ({@code undoLogged}: more than one word
   * changed, what the undo log used to take four barriers for) as the batch says; with the redo log
   * the native side commits each of them with one record in one or two barriers (two when FRESH
   * data is written LIVE, region-format.md §7.3).
   */
  private static void check(Region r, String what, boolean undoLogged, Op op) throws Exception {
    RegionStats s = r.stats();
    long barriers = r.barrierCount();
    long persists = s.persists(),
        undo = s.undoLoggedPersists(),
        jni = s.jniCalls(),
        nanos = s.persistNanos();
    long samples = s.latencies().added();
    long bytes = s.persistBytes();
    op.run();
    assertTrue(
        what + ": batch bytes (header + at least one 24-byte entry)",
        s.persistBytes() - bytes >= 8 + 24 + 8);
    long dBarriers = r.barrierCount() - barriers;
    assertEquals(what + ": persists", persists + 1, s.persists());
    assertTrue(what + ": latency recorded", s.persistNanos() > nanos);
    assertEquals(what + ": one latency sample", samples + 1, s.latencies().added());
    assertTrue(
        what + ": JNI calls (apply, barrier reads, maybe a page refill)", s.jniCalls() - jni >= 2);
    assertEquals(what + ": counted undo-logged", undoLogged ? 1 : 0, s.undoLoggedPersists() - undo);
    assertTrue(
        what + ": one record (" + dBarriers + " barriers)", dBarriers >= 1 && dBarriers <= 2);
  }

  @Test
  public void persistsUndoLoggingAndJniCallsMatchTheNativeSide() throws Exception {
    try (InodeStore s = InodeStore.open(shm.create("r", ShmDir.MEDIUM))) {
      Region r = s.region();
      final long[] p = new long[3];
      check(r, "format", true, () -> s.format(1, 0755, "hdfs", "supergroup"));
      check(r, "mkdir", true, () -> p[0] = createInode(s, s.rootPage(), InodeAttrs.directory("d")));
      check(
          r,
          "create",
          true,
          () -> p[1] = createInode(s, p[0], InodeAttrs.file("f").underConstruction("c", "m")));
      check(r, "setMtime (one page field: its page is resealed)", true, () -> setMtime(s, p[1], 5));
      check(r, "setPermission (one page field)", true, () -> setPermission(s, p[1], 0600));
      check(r, "setTimes (two words)", true, () -> setTimes(s, p[1], 6, 7));
      check(r, "addBlock", true, () -> addBlock(s, p[1], 1001, 1));
      check(r, "clearUnderConstruction", true, () -> clearUnderConstruction(s, p[1]));
      check(r, "rename", true, () -> rename(s, p[1], s.rootPage(), "g", 8));
      check(r, "genstamp (one counter)", false, () -> setGenerationStampV2(s, 99));
      check(r, "delete", true, () -> delete(s, p[0], new long[0], s.rootPage(), 9));
      RegionStats st = r.stats();
      assertTrue(
          "some undo-logged, some not: " + st.undoLoggedPersists() + " of " + st.persists(),
          st.undoLoggedPersists() > 0 && st.undoLoggedPersists() < st.persists());
      assertEquals(st.persists(), r.applyCalls);
    }
  }

  @Test
  public void liveInodesFollowCreatesDeletesAndSurviveAReopen() throws Exception {
    long live;
    try (InodeStore s = shm.createStore("r", ShmDir.MEDIUM)) {
      assertEquals("the root", 1, s.liveInodes());
      long d = createInode(s, s.rootPage(), InodeAttrs.directory("d"));
      long[] kids = new long[20];
      for (int i = 0; i < kids.length; i++) {
        kids[i] = createInode(s, d, InodeAttrs.file("f" + i));
      }
      long e = createInode(s, s.rootPage(), InodeAttrs.directory("e"));
      assertEquals(1 + 1 + 20 + 1, s.liveInodes());
      delete(s, d, kids, s.rootPage(), 5);
      assertEquals(2, s.liveInodes());
      long g = createInode(s, e, InodeAttrs.file("g"));
      rename(s, g, s.rootPage(), "h".getBytes(), 6, 0, null);
      assertEquals("a rename moves, it does not create", 3, s.liveInodes());
      try (Txn t = s.begin()) {
        t.create(e, InodeAttrs.file("abandoned"));
      } // never committed
      assertEquals("an abandoned transaction changes nothing", 3, s.liveInodes());
      live = s.liveInodes();
    }
    try (InodeStore s = shm.reopen("r")) {
      assertEquals("recovery's count after a reopen", live, s.liveInodes());
      assertEquals(live, s.region().recovery().inodesLive());
      assertEquals(live, s.region().recoveredInodes().length);
    }
  }
}
