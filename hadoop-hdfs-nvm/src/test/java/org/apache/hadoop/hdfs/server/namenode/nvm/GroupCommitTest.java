package org.apache.hadoop.hdfs.server.namenode.nvm;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;
import static org.apache.hadoop.hdfs.server.namenode.nvm.StoreOps.*;
import static org.junit.Assert.*;

import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.Rule;
import org.junit.Test;

/**
 * Group commit through the store (docs/region-format.md §7.7): with it on, a commit stages its
 * batch, readers see it at once, and the region file holds it only after a sync; one sync serves
 * every thread whose batch was staged before it; a sync up to a thread's own batch leaves later
 * ones staged; a failed sync fails the store; a commit delay lets writers queued for the namesystem
 * lock join the group, for a bounded time, and never in HA.
 */
public class GroupCommitTest {
  @Rule public ShmDir shm = new ShmDir();

  /** The state word of a page as the region file holds it (the media, not the working copy). */
  private static long onMedia(File region, long page) throws IOException {
    try (RandomAccessFile f = new RandomAccessFile(region, "r")) {
      f.seek(page);
      return Long.reverseBytes(f.readLong()); // the region is little-endian
    }
  }

  private static boolean liveOnMedia(File region, long page) throws IOException {
    return (onMedia(region, page) & STATE_MASK) == STATE_LIVE;
  }

  private static InodeStore formatted(ShmDir shm) throws Exception {
    InodeStore s = InodeStore.open(shm.create("r", ShmDir.MEDIUM));
    s.format(1, 0755, "hdfs", "supergroup");
    return s;
  }

  /** Runs {@code body} in a thread of its own and waits for it (a thread's own staged batches). */
  private static void inThread(ThrowingRunnable body) throws Exception {
    Exception[] failed = new Exception[1];
    Thread t =
        new Thread(
            () -> {
              try {
                body.run();
              } catch (Exception e) {
                failed[0] = e;
              }
            });
    t.start();
    t.join();
    if (failed[0] != null) {
      throw failed[0];
    }
  }

  private interface ThrowingRunnable {
    void run() throws Exception;
  }

  @Test
  public void aStagedChangeIsReadAtOnceAndInTheRegionFileOnlyAfterTheSync() throws Exception {
    try (InodeStore s = formatted(shm)) {
      File file = s.region().file();
      s.groupCommit(true);
      long page = createInode(s, s.rootPage(), InodeAttrs.file("f").owner("hdfs", "supergroup"));
      assertTrue("readers see the staged inode", s.inode(page).isLive());
      assertEquals("f", s.inode(page).name());
      assertFalse("the region file does not have it yet", liveOnMedia(file, page));
      long syncs = s.region().stats().syncs();
      s.syncMine(true);
      assertTrue(liveOnMedia(file, page));
      assertEquals(syncs + 1, s.region().stats().syncs());
      s.syncMine(true); // nothing of this thread's is staged any more: no native call
      assertEquals(syncs + 1, s.region().stats().syncs());
    }
  }

  @Test
  public void withoutGroupCommitACommitIsInTheRegionFileWhenItReturns() throws Exception {
    try (InodeStore s = formatted(shm)) {
      assertFalse(s.isGroupCommit());
      long page = createInode(s, s.rootPage(), InodeAttrs.file("f"));
      assertTrue(liveOnMedia(s.region().file(), page));
    }
  }

  @Test
  public void oneSyncServesEveryThreadWhoseBatchWasStagedBeforeIt() throws Exception {
    try (InodeStore s = formatted(shm)) {
      File file = s.region().file();
      s.groupCommit(true);
      long[] pages = new long[2];
      inThread(() -> pages[0] = createInode(s, s.rootPage(), InodeAttrs.file("a")));
      long syncs = s.region().stats().syncs();
      inThread(
          () -> {
            pages[1] = createInode(s, s.rootPage(), InodeAttrs.file("b"));
            s.syncMine(true);
          });
      assertTrue(liveOnMedia(file, pages[0]));
      assertTrue(liveOnMedia(file, pages[1]));
      assertEquals(syncs + 1, s.region().stats().syncs());
    }
  }

  @Test
  public void aSyncUpToTheCallersBatchLeavesLaterOnesStaged() throws Exception {
    try (InodeStore s = formatted(shm)) {
      File file = s.region().file();
      s.groupCommit(true);
      long[] pages = new long[2];
      Thread[] first = new Thread[1];
      Object gate = new Object();
      boolean[] go = new boolean[1];
      Exception[] failed = new Exception[1];
      // the first thread stages, waits for the second to stage, then syncs up to its own batch
      first[0] =
          new Thread(
              () -> {
                try {
                  pages[0] = createInode(s, s.rootPage(), InodeAttrs.file("a"));
                  synchronized (gate) {
                    gate.notifyAll();
                    while (!go[0]) {
                      gate.wait();
                    }
                  }
                  s.syncMine(false);
                } catch (Exception e) {
                  failed[0] = e;
                }
              });
      synchronized (gate) {
        first[0].start();
        gate.wait();
      }
      inThread(() -> pages[1] = createInode(s, s.rootPage(), InodeAttrs.file("b")));
      synchronized (gate) {
        go[0] = true;
        gate.notifyAll();
      }
      first[0].join();
      assertNull(failed[0]);
      assertTrue(liveOnMedia(file, pages[0]));
      assertFalse("the later batch stays staged", liveOnMedia(file, pages[1]));
      assertTrue(s.inode(pages[1]).isLive());
      s.syncAll();
      assertTrue(liveOnMedia(file, pages[1]));
    }
  }

  @Test
  public void closingTheStoreCommitsWhatIsStaged() throws Exception {
    File file;
    long page;
    try (InodeStore s = formatted(shm)) {
      file = s.region().file();
      s.groupCommit(true);
      page = createInode(s, s.rootPage(), InodeAttrs.file("f"));
      assertFalse(liveOnMedia(file, page));
    }
    assertTrue(liveOnMedia(file, page));
    try (InodeStore s = InodeStore.open(Region.open(file, PersistMode.EMULATED))) {
      assertEquals("f", s.inode(page).name());
    }
  }

  @Test
  public void aFailedSyncFailsTheStoreForGood() throws Exception {
    try (InodeStore s = formatted(shm)) {
      s.groupCommit(true);
      createInode(s, s.rootPage(), InodeAttrs.file("f"));
      CrashHook.crashAt(s.region(), 1, new File(shm.dir(), "crash").getPath());
      try {
        s.syncMine(true);
        fail("the crash hook fires in the sync");
      } catch (NvmException e) {
        assertEquals(NvmException.ErrorCode.ECRASHED, e.code());
      }
      try {
        createInode(s, s.rootPage(), InodeAttrs.file("g"));
        fail("a failed store stages nothing");
      } catch (NvmException e) {
        assertEquals(NvmException.ErrorCode.ECRASHED, e.code());
      }
    }
  }

  @Test(timeout = 120_000)
  public void aCommitDelayLetsTheQueuedWritersJoinTheGroup() throws Exception {
    try (InodeStore s = formatted(shm)) {
      File file = s.region().file();
      s.groupCommit(true);
      CountDownLatch waiting = new CountDownLatch(1);
      AtomicInteger queued = new AtomicInteger(1); // a writer queued for the namesystem lock
      s.commitDelay(
          TimeUnit.SECONDS.toNanos(60),
          () -> {
            waiting.countDown();
            return queued.get();
          });
      long syncs = s.region().stats().syncs();
      long[] pages = new long[2];
      Exception[] failed = new Exception[1];
      Thread committer =
          new Thread(
              () -> {
                try {
                  pages[0] = createInode(s, s.rootPage(), InodeAttrs.file("a"));
                  s.syncMine(true);
                } catch (Exception e) {
                  failed[0] = e;
                }
              });
      committer.start();
      assertTrue("the committer looks at the lock's queue", waiting.await(60, TimeUnit.SECONDS));
      // the queued writer gets the lock, stages, and leaves the queue: the commit covers it too
      inThread(() -> pages[1] = createInode(s, s.rootPage(), InodeAttrs.file("b")));
      assertFalse("nothing committed while the writer was queued", liveOnMedia(file, pages[0]));
      queued.set(0);
      committer.join();
      if (failed[0] != null) {
        throw failed[0];
      }
      assertTrue(liveOnMedia(file, pages[0]));
      assertTrue("the queued writer's batch joined the group", liveOnMedia(file, pages[1]));
      assertEquals("one group commit", syncs + 1, s.region().stats().syncs());
    }
  }

  @Test(timeout = 120_000)
  public void theCommitDelayIsBoundedAndOffInHa() throws Exception {
    try (InodeStore s = formatted(shm)) {
      File file = s.region().file();
      s.groupCommit(true);
      long delay = TimeUnit.MILLISECONDS.toNanos(50);
      s.commitDelay(delay, () -> 1); // a queue that never empties
      long page = createInode(s, s.rootPage(), InodeAttrs.file("a"));
      long t0 = System.nanoTime();
      s.syncMine(true);
      assertTrue("waited the delay", System.nanoTime() - t0 >= delay);
      assertTrue("and committed after it", liveOnMedia(file, page));
      s.commitDelay(TimeUnit.SECONDS.toNanos(600), () -> 1);
      long ha = createInode(s, s.rootPage(), InodeAttrs.file("b"));
      s.syncMine(false); // HA: the commit covers only this thread's batch, so it does not wait
      assertTrue(liveOnMedia(file, ha));
    }
  }
}
