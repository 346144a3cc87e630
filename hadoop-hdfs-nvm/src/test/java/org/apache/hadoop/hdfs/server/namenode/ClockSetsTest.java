package org.apache.hadoop.hdfs.server.namenode;

import static org.apache.hadoop.hdfs.server.namenode.CachedFiles.file;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.Test;

/**
 * The CLOCK sets of the inode cache: exactly the capacity, a scan keeps its last files, second
 * chance within a set, agreement with a map, and lock-free lookups racing evictions.
 */
public class ClockSetsTest {
  @Test
  public void holdsExactlyTheCapacityForAnyCapacity() {
    for (int capacity : new int[] {1, 2, 7, 8, 9, 16, 17, 100, 1000, 100_000}) {
      ClockSets s = new ClockSets(capacity);
      int evicted = 0;
      for (long id = 1; id <= 3L * capacity + 5; id++) {
        // half of them without reading the victim: counted all the same
        evicted += s.addEvicting(file(id), id % 2 == 0) != null ? 1 : 0;
      }
      assertEquals("capacity " + capacity, capacity, s.count());
      assertEquals(2 * capacity + 5, s.evictions());
      assertTrue("victims returned only when asked", evicted < s.evictions());
    }
  }

  /** With sets of equal size (1,024 = 64 sets of 16) a scan in id order keeps its last 1,024. */
  @Test
  public void aScanOfMoreFilesThanFitKeepsTheLastOnes() {
    ClockSets s = new ClockSets(1024);
    long first = 16385;
    for (long id = first; id < first + 10_240; id++) {
      if (s.get(id) == null) {
        s.addEvicting(file(id), false);
      }
    }
    for (long id = first; id < first + 10_240 - 1024; id++) {
      assertNull(s.get(id));
    }
    for (long id = first + 10_240 - 1024; id < first + 10_240; id++) {
      assertNotNull("id " + id, s.get(id));
    }
  }

  @Test
  public void aUsedEntryGetsASecondChanceInItsSet() {
    ClockSets s = new ClockSets(4); // one set of 4
    for (long id = 1; id <= 4; id++) {
      assertTrue(s.addIfRoom(file(id)));
    }
    assertTrue(!s.addIfRoom(file(5)));
    assertNotNull(s.get(1));
    assertNotNull(s.get(3));
    assertEquals(2, s.addEvicting(file(5), true).getId()); // 1 used: passed over, its bit cleared
    assertEquals(4, s.addEvicting(file(6), true).getId()); // 3 used: passed over
    assertEquals(1, s.addEvicting(file(7), true).getId()); // a turn later, 1 was not used again
    assertNotNull(s.get(3));
  }

  @Test
  public void agreesWithAMapUnderRandomChanges() {
    Random r = new Random(27);
    ClockSets s = new ClockSets(200);
    Map<Long, INodeFile> model = new HashMap<>();
    for (int step = 0; step < 100_000; step++) {
      long id = 1 + r.nextInt(2000);
      int op = r.nextInt(4);
      if (op == 0 && !model.containsKey(id)) {
        INodeFile f = file(id);
        INodeFile victim = s.addEvicting(f, true);
        if (victim != null) {
          assertSame(victim, model.remove(victim.getId()));
        }
        model.put(id, f);
      } else if (op == 1) {
        assertSame(model.remove(id), s.remove(id));
      } else if (op == 2 && model.containsKey(id)) {
        INodeFile f = file(id);
        s.replace(s.find(id), f);
        model.put(id, f);
      } else {
        assertSame(model.get(id), s.get(id));
      }
      assertEquals(model.size(), s.count());
    }
    for (long id = 1; id <= 2000; id++) {
      assertSame(model.get(id), s.get(id));
    }
  }

  /** Readers look up and add while their adds evict: a lookup never returns another inode's. */
  @Test
  public void lockFreeLookupsRacingEvictionsStayCorrect() throws Exception {
    final ClockSets s = new ClockSets(1000);
    final AtomicReference<Throwable> failure = new AtomicReference<>();
    final AtomicLong evicted = new AtomicLong();
    final CountDownLatch go = new CountDownLatch(1);
    List<Thread> threads = new ArrayList<>();
    for (int k = 0; k < 4; k++) {
      final long seed = k;
      threads.add(
          new Thread(
              () -> {
                Random r = new Random(seed);
                try {
                  go.await();
                  for (int i = 0; i < 300_000 && failure.get() == null; i++) {
                    long id = 1 + r.nextInt(4000);
                    INodeFile f = s.get(id);
                    if (f == null) {
                      INodeFile mine = file(id);
                      synchronized (s) {
                        if (s.find(id) < 0 && s.addEvicting(mine, true) != null) {
                          evicted.incrementAndGet();
                        }
                      }
                    } else if (f.getId() != id) {
                      throw new AssertionError("asked for " + id + ", got " + f.getId());
                    }
                  }
                } catch (Throwable e) {
                  failure.compareAndSet(null, e);
                }
              }));
    }
    for (Thread t : threads) {
      t.start();
    }
    go.countDown();
    for (Thread t : threads) {
      t.join();
    }
    if (failure.get() != null) {
      throw new AssertionError(failure.get());
    }
    assertTrue("evictions: " + evicted.get(), evicted.get() > 10_000);
    synchronized (s) {
      assertEquals(1000, s.count());
      for (long id = 1; id <= 4000; id++) {
        int slot = s.find(id);
        if (slot >= 0) {
          assertEquals(id, s.at(slot).getId());
        }
      }
    }
  }
}
