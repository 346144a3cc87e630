package org.nvmnn.workload.stream;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.util.Map;
import org.junit.Test;

public class LatencyRecorderTest {
  /** Nearest rank: p50 of 1..100 is 50, p99 is 99, p99.9 and p100 are 100, p1 is 1. */
  @Test
  public void percentilesAreNearestRank() {
    long[] v = new long[100];
    for (int i = 0; i < 100; i++) {
      v[i] = i + 1;
    }
    assertEquals(50, LatencyRecorder.percentile(v, 50));
    assertEquals(99, LatencyRecorder.percentile(v, 99));
    assertEquals(100, LatencyRecorder.percentile(v, 99.9));
    assertEquals(100, LatencyRecorder.percentile(v, 100));
    assertEquals(1, LatencyRecorder.percentile(v, 1));
    assertEquals(7, LatencyRecorder.percentile(new long[] {7}, 99.9));
    assertEquals(50.5, LatencyRecorder.mean(v), 1e-9);
  }

  @Test(expected = IllegalArgumentException.class)
  public void percentileOfNothingIsRefused() {
    LatencyRecorder.percentile(new long[0], 50);
  }

  @Test(expected = IllegalArgumentException.class)
  public void percentileOutOfRangeIsRefused() {
    LatencyRecorder.percentile(new long[] {1}, 0);
  }

  /** Samples count only between start and stop; each op keeps its own, sorted on output. */
  @Test
  public void recordsOnlyWhileStartedPerOp() {
    LatencyRecorder r = new LatencyRecorder();
    r.add("create", 5);
    assertFalse(r.isRecording());
    r.start();
    r.add("create", 30);
    r.add("create", 10);
    r.add("rename", 7);
    for (int i = 0; i < 3000; i++) {
      r.add("complete", 3000 - i);
    }
    r.stop();
    r.add("create", 99);
    Map<String, long[]> s = r.sorted();
    assertArrayEquals(new long[] {10, 30}, s.get("create"));
    assertArrayEquals(new long[] {7}, s.get("rename"));
    assertEquals(3000, s.get("complete").length);
    assertEquals(1, s.get("complete")[0]);
    assertEquals(3000, s.get("complete")[2999]);
    assertTrue(!s.containsKey("delete"));
  }
}
