package org.apache.hadoop.hdfs.server.namenode.nvm;

import static org.junit.Assert.*;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.Test;

/** The lock-free ring of persist latencies the metrics source drains. */
public class LatencyRingTest {
  private static List<Long> drain(LatencyRing r, long[] skipped) {
    final List<Long> out = new ArrayList<>();
    skipped[0] = r.drain(out::add);
    return out;
  }

  @Test
  public void drainsEverySampleOnceInOrder() {
    LatencyRing r = new LatencyRing(16);
    long[] skipped = new long[1];
    for (long v = 1; v <= 10; v++) {
      r.add(v * 100);
    }
    List<Long> got = drain(r, skipped);
    assertEquals(0, skipped[0]);
    assertEquals(10, got.size());
    for (int i = 0; i < 10; i++) {
      assertEquals((i + 1) * 100L, (long) got.get(i));
    }
    assertTrue("a second drain finds nothing new", drain(r, skipped).isEmpty());
    r.add(7);
    assertEquals(java.util.Collections.singletonList(7L), drain(r, skipped));
  }

  @Test
  public void keepsTheNewestWhenMoreArriveThanItHolds() {
    LatencyRing r = new LatencyRing(10); // rounded up to 16
    assertEquals(16, r.capacity());
    long[] skipped = new long[1];
    for (long v = 0; v < 100; v++) {
      r.add(v);
    }
    List<Long> got = drain(r, skipped);
    assertEquals(84, skipped[0]);
    assertEquals(16, got.size());
    assertEquals(84L, (long) got.get(0));
    assertEquals(99L, (long) got.get(15));
    assertEquals(100, r.added());
  }

  @Test
  public void clampsNegativeAndHugeValues() {
    LatencyRing r = new LatencyRing(4);
    r.add(-5);
    r.add(Long.MAX_VALUE);
    long[] skipped = new long[1];
    List<Long> got = drain(r, skipped);
    assertEquals(0L, (long) got.get(0));
    assertEquals(LatencyRing.VALUE_MAX, (long) got.get(1));
  }

  /** Writers and a drainer at once: every sample is drained or counted as skipped, none is torn. */
  @Test
  public void concurrentWritersAndDrainerLoseNothingUnaccounted() throws Exception {
    final LatencyRing r = new LatencyRing(1024);
    final int writers = 3;
    final int perWriter = 200000;
    Thread[] t = new Thread[writers];
    for (int w = 0; w < writers; w++) {
      final long base = (w + 1) * 1000000000L;
      t[w] =
          new Thread(
              () -> {
                for (int i = 0; i < perWriter; i++) {
                  r.add(base + i); // writer w only writes values in [base, base + perWriter)
                }
              });
    }
    final AtomicLong drained = new AtomicLong();
    final AtomicLong bad = new AtomicLong();
    long skipped = 0;
    for (Thread x : t) {
      x.start();
    }
    LatencyRing.Sink check =
        v -> {
          drained.incrementAndGet();
          long w = v / 1000000000L;
          if (w < 1 || w > writers || v % 1000000000L >= perWriter) {
            bad.incrementAndGet();
          }
        };
    boolean running = true;
    while (running) {
      running = false;
      for (Thread x : t) {
        running |= x.isAlive();
      }
      skipped += r.drain(check);
    }
    skipped += r.drain(check);
    assertEquals("values that no writer wrote", 0, bad.get());
    assertEquals((long) writers * perWriter, r.added());
    assertEquals("drained + skipped = added", r.added(), drained.get() + skipped);
    assertTrue("something was drained", drained.get() > 0);
  }
}
