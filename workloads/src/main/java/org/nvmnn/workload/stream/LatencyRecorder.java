package org.nvmnn.workload.stream;

import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;

/**
 * Per-operation latency samples (nanoseconds), kept whole so percentiles are exact. Recording is
 * off until {@link #start()} (the warm-up is not measured) and off again after {@link #stop()}.
 * Thread-safe: samples are few thousand per second and each add is one short critical section next
 * to an RPC of a millisecond or more.
 */
public final class LatencyRecorder {
  private final Map<String, Samples> byOp = new TreeMap<>();
  private volatile boolean recording;

  public void start() {
    recording = true;
  }

  public void stop() {
    recording = false;
  }

  public boolean isRecording() {
    return recording;
  }

  public void add(String op, long nanos) {
    if (!recording) {
      return;
    }
    Samples s;
    synchronized (byOp) {
      s = byOp.computeIfAbsent(op, k -> new Samples());
    }
    s.add(nanos);
  }

  /** Snapshot of every operation's samples, sorted ascending. */
  public Map<String, long[]> sorted() {
    Map<String, long[]> out = new TreeMap<>();
    synchronized (byOp) {
      for (Map.Entry<String, Samples> e : byOp.entrySet()) {
        long[] v = e.getValue().copy();
        Arrays.sort(v);
        out.put(e.getKey(), v);
      }
    }
    return out;
  }

  /**
   * Nearest-rank percentile (0 < p <= 100) of ascending samples; the sample itself, not
   * interpolated.
   */
  public static long percentile(long[] sortedAsc, double p) {
    if (sortedAsc.length == 0) {
      throw new IllegalArgumentException("no samples");
    }
    if (!(p > 0 && p <= 100)) {
      throw new IllegalArgumentException("percentile must be in (0, 100]: " + p);
    }
    int rank = (int) Math.ceil(p / 100.0 * sortedAsc.length);
    return sortedAsc[Math.max(rank, 1) - 1];
  }

  public static double mean(long[] v) {
    double sum = 0;
    for (long x : v) {
      sum += x;
    }
    return v.length == 0 ? 0 : sum / v.length;
  }

  /** A growable array of longs. */
  private static final class Samples {
    private long[] values = new long[1024];
    private int size;

    synchronized void add(long v) {
      if (size == values.length) {
        values = Arrays.copyOf(values, size * 2);
      }
      values[size++] = v;
    }

    synchronized long[] copy() {
      return Arrays.copyOf(values, size);
    }
  }
}
