package org.apache.hadoop.hdfs.server.namenode.nvm;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The most recent latencies (nanoseconds), written without locks by the persisting thread and
 * handed to the metrics thread by {@link #drain}. A writer claims a sequence number with one atomic
 * increment and publishes the sample with one atomic store; the slot holds the sample and a tag of
 * its sequence number in the same 64-bit word, so the reader never sees half a sample. When more
 * samples arrive between two drains than the ring holds, the oldest are skipped (and counted): the
 * ring feeds quantile estimates, exact counts and sums are kept elsewhere.
 */
public final class LatencyRing {
  static final int VALUE_BITS = 40; // ~18 minutes in nanoseconds
  static final long VALUE_MAX = (1L << VALUE_BITS) - 1;
  private static final long TAG_MASK = (1L << (64 - VALUE_BITS)) - 1;

  private final AtomicLong next = new AtomicLong();
  private final AtomicLongArray slots;
  private final int mask;
  private long drained; // guarded by this; only drain() reads and writes it

  /** {@code capacity} is rounded up to a power of two. */
  public LatencyRing(int capacity) {
    if (capacity < 1 || capacity > (1 << 24)) {
      throw new IllegalArgumentException("capacity " + capacity + " outside 1..2^24");
    }
    int c = Integer.highestOneBit(capacity);
    if (c < capacity) {
      c <<= 1;
    }
    slots = new AtomicLongArray(c);
    mask = c - 1;
  }

  public int capacity() {
    return mask + 1;
  }

  /** Records one latency; negative values count as 0, values above ~18 minutes are capped. */
  public void add(long nanos) {
    long seq = next.getAndIncrement();
    long v = nanos < 0 ? 0 : Math.min(nanos, VALUE_MAX);
    slots.lazySet((int) (seq & mask), (tag(seq) << VALUE_BITS) | v);
  }

  /** Samples ever added. */
  public long added() {
    return next.get();
  }

  // The tag is seq + 1 so that a never-written slot (0) matches no sequence number of the first
  // 2^24 - 1, by which time every slot has been written.
  private static long tag(long seq) {
    return (seq + 1) & TAG_MASK;
  }

  /** Receives drained samples. */
  public interface Sink {
    void accept(long nanos);
  }

  /**
   * Hands every sample added since the previous drain to {@code sink}, oldest first; returns how
   * many of them were skipped (overwritten before this drain, or claimed but not yet written).
   */
  public synchronized long drain(Sink sink) {
    long end = next.get();
    long from = drained;
    long skipped = 0;
    if (end - from > capacity()) {
      skipped = end - capacity() - from;
      from = end - capacity();
    }
    for (long s = from; s < end; s++) {
      long slot = slots.get((int) (s & mask));
      if ((slot >>> VALUE_BITS) == tag(s)) {
        sink.accept(slot & VALUE_MAX);
      } else {
        skipped++;
      }
    }
    drained = end;
    return skipped;
  }
}
