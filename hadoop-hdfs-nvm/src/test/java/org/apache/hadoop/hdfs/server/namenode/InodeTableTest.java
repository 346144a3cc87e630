package org.apache.hadoop.hdfs.server.namenode;

import static org.apache.hadoop.hdfs.server.namenode.CachedFiles.file;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.Test;

/**
 * The open-addressing table behind the inode cache: against a HashMap under random changes (growth,
 * backward-shift removals, taking the excess, shrinking), and lock-free lookups racing adds and
 * removals.
 */
public class InodeTableTest {
  @Test
  public void agreesWithAMapUnderRandomChanges() {
    Random r = new Random(27);
    InodeTable t = new InodeTable(64);
    Map<Long, INodeFile> model = new HashMap<>();
    Map<Long, Byte> kinds = new HashMap<>();
    for (int step = 0; step < 200_000; step++) {
      // ids from a range that makes long probe runs and many collisions
      long id = 16385 + r.nextInt(step < 100_000 ? 3000 : 300);
      int op = r.nextInt(10);
      synchronized (t) {
        if (op < 4) {
          INodeFile f = file(id);
          byte kind = r.nextInt(5) == 0 ? InodeTable.PINNED : InodeTable.CLOCK;
          INodeFile had = t.addIfAbsent(f, kind);
          assertSame(model.get(id), had);
          if (had == null) {
            model.put(id, f);
            kinds.put(id, kind);
          }
        } else if (op < 6) {
          INodeFile f = r.nextBoolean() && model.containsKey(id) ? model.get(id) : file(id);
          byte kind = (byte) r.nextInt(3);
          INodeFile old = model.get(id);
          assertSame(old == f ? null : old, t.set(f, kind));
          model.put(id, f);
          kinds.put(id, kind);
        } else if (op < 8) {
          assertSame(model.remove(id), t.remove(id));
          kinds.remove(id);
        } else if (op < 9) {
          INodeFile e = t.takeClock();
          if (e == null) {
            assertTrue(!kinds.containsValue(InodeTable.CLOCK));
          } else {
            assertSame(model.remove(e.getId()), e);
            assertEquals(Byte.valueOf(InodeTable.CLOCK), kinds.remove(e.getId()));
          }
        } else {
          t.shrinkIfSparse();
        }
      }
      if (step % 5000 == 0 || step == 199_999) {
        check(t, model, kinds);
      }
    }
  }

  private static void check(InodeTable t, Map<Long, INodeFile> model, Map<Long, Byte> kinds) {
    int clock = 0;
    for (Map.Entry<Long, Byte> k : kinds.entrySet()) {
      clock += k.getValue() == InodeTable.CLOCK ? 1 : 0;
    }
    synchronized (t) {
      assertEquals(clock, t.clockCount());
      assertEquals(model.size() - clock, t.otherCount());
      for (long id = 16385; id < 16385 + 3000; id++) {
        assertSame("id " + id, model.get(id), t.get(id));
        assertEquals(kinds.containsKey(id) ? kinds.get(id) : -1, t.kindOf(id));
      }
      assertTrue(t.length() * 7L >= (t.clockCount() + t.otherCount()) * 10L);
    }
  }

  @Test
  public void takingTheExcessPassesOverPinnedAndReleasingEntries() {
    InodeTable t = new InodeTable(8);
    synchronized (t) {
      for (long id = 1; id <= 20; id++) {
        t.addIfAbsent(file(id), id % 2 == 0 ? InodeTable.PINNED : InodeTable.RELEASING);
      }
      for (long id = 21; id <= 420; id++) {
        t.addIfAbsent(file(id), InodeTable.CLOCK);
      }
      Set<Long> taken = new HashSet<>();
      for (INodeFile f; (f = t.takeClock()) != null; ) {
        assertTrue(f.getId() > 20);
        assertTrue(taken.add(f.getId()));
      }
      assertEquals(400, taken.size());
      assertEquals(20, t.otherCount());
      int before = t.length();
      t.shrinkIfSparse();
      assertTrue("shrunk: " + t.length(), t.length() < before);
      for (long id = 1; id <= 20; id++) {
        assertNotNull(t.get(id));
      }
    }
  }

  /**
   * Readers look up and add (as materializing readers do, one object per id wins) while another
   * thread takes entries out (backward shifts) and shrinks: a lookup never returns another inode's
   * object, and no id is in the table twice afterwards.
   */
  @Test
  public void lockFreeLookupsRacingAddsAndEvictionsStayCorrect() throws Exception {
    final InodeTable t = new InodeTable(2000);
    final int ids = 5000;
    final int readers = 4;
    final AtomicBoolean stop = new AtomicBoolean();
    final AtomicReference<Throwable> failure = new AtomicReference<>();
    final AtomicLong removed = new AtomicLong();
    final CountDownLatch go = new CountDownLatch(1);
    // readers go on past their 400,000 lookups until the remover has run alongside them (a loaded
    // machine may starve it), within a minute
    final long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
    List<Thread> threads = new ArrayList<>();
    for (int k = 0; k < readers; k++) {
      final long seed = k;
      threads.add(
          new Thread(
              () -> {
                Random r = new Random(seed);
                try {
                  go.await();
                  for (int i = 0;
                      (i < 400_000 || removed.get() <= 10_000)
                          && failure.get() == null
                          && System.nanoTime() < deadline;
                      i++) {
                    long id = 1 + r.nextInt(ids);
                    INodeFile f = t.get(id);
                    if (f == null) {
                      INodeFile mine = file(id);
                      synchronized (t) {
                        f = t.addIfAbsent(mine, InodeTable.CLOCK);
                      }
                      f = f == null ? mine : f;
                    }
                    if (f.getId() != id) {
                      throw new AssertionError("asked for " + id + ", got " + f.getId());
                    }
                  }
                } catch (Throwable e) {
                  failure.compareAndSet(null, e);
                }
              }));
    }
    Thread remover =
        new Thread(
            () -> {
              try {
                go.await();
                while (!stop.get()) {
                  synchronized (t) {
                    while (t.clockCount() > 2000) {
                      t.takeClock();
                      removed.incrementAndGet();
                    }
                    t.shrinkIfSparse();
                  }
                  Thread.yield();
                }
              } catch (Throwable e) {
                failure.compareAndSet(null, e);
              }
            });
    for (Thread th : threads) {
      th.start();
    }
    remover.start();
    go.countDown();
    for (Thread th : threads) {
      th.join();
    }
    stop.set(true);
    remover.join();
    if (failure.get() != null) {
      throw new AssertionError(failure.get());
    }
    assertTrue("removals ran alongside: " + removed.get(), removed.get() > 10_000);
    // one object per id: no id twice among the entries
    Set<Long> seen = new HashSet<>();
    synchronized (t) {
      for (long id = 1; id <= ids; id++) {
        if (t.kindOf(id) >= 0) {
          assertTrue(seen.add(id));
          assertNotNull(t.held(id));
        }
      }
      assertEquals(seen.size(), t.clockCount());
    }
  }

  @Test
  public void racingAddsOfOneIdAllGetTheFirstObject() throws Exception {
    final InodeTable t = new InodeTable(100_000);
    final int ids = 50_000;
    final int readers = 4;
    final INodeFile[][] got = new INodeFile[readers][ids + 1];
    final CountDownLatch go = new CountDownLatch(1);
    List<Thread> threads = new ArrayList<>();
    for (int k = 0; k < readers; k++) {
      final int me = k;
      threads.add(
          new Thread(
              () -> {
                try {
                  go.await();
                } catch (InterruptedException e) {
                  return;
                }
                for (int id = 1; id <= ids; id++) {
                  INodeFile f = t.get(id);
                  if (f == null) {
                    INodeFile mine = file(id);
                    synchronized (t) {
                      f = t.addIfAbsent(mine, InodeTable.CLOCK);
                    }
                    f = f == null ? mine : f;
                  }
                  got[me][id] = f;
                }
              }));
    }
    for (Thread th : threads) {
      th.start();
    }
    go.countDown();
    for (Thread th : threads) {
      th.join();
    }
    for (int id = 1; id <= ids; id++) {
      for (int k = 1; k < readers; k++) {
        if (got[k][id] != got[0][id]) {
          fail("two objects for id " + id);
        }
      }
      assertSame(got[0][id], t.get(id));
    }
  }
}
