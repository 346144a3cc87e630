package org.apache.hadoop.hdfs.server.namenode.nvm;

import java.util.concurrent.atomic.LongAdder;

/**
 * Counters of one open {@link Region}, kept by the region itself (the lowest Java level that
 * crosses JNI): every native call, every persist (one {@code nvm_apply}: one atomic, durable batch;
 * or one {@code nvm_stage}, made durable by a later group commit) with its latency, how many
 * persists went through the undo log, and the group commits ({@code nvm_sync}) with their latency.
 * Updated without locks on the persist path; read by the metrics source.
 */
public final class RegionStats {
  /** Latency samples kept between two drains of the metrics source. */
  static final int LATENCY_SAMPLES = 1 << 16;

  private final LongAdder jniCalls = new LongAdder();
  private final LongAdder persists = new LongAdder();
  private final LongAdder persistNanos = new LongAdder();
  private final LongAdder persistBytes = new LongAdder();
  private final LongAdder undoLogged = new LongAdder();
  private final LongAdder syncs = new LongAdder();
  private final LongAdder syncNanos = new LongAdder();
  private final LatencyRing latencies = new LatencyRing(LATENCY_SAMPLES);

  void jniCall() {
    jniCalls.increment();
  }

  void jniCalls(int n) {
    jniCalls.add(n);
  }

  void persisted(long nanos, int batchBytes, boolean undoLoggedBatch) {
    persists.increment();
    persistNanos.add(nanos);
    persistBytes.add(batchBytes);
    if (undoLoggedBatch) {
      undoLogged.increment();
    }
    latencies.add(nanos);
  }

  void synced(long nanos) {
    syncs.increment();
    syncNanos.add(nanos);
  }

  /**
   * Group commits ({@code nvm_sync} calls; each commits what was staged before it, if anything).
   */
  public long syncs() {
    return syncs.sum();
  }

  /** Sum of the group commits' latencies (wall clock around the native call). */
  public long syncNanos() {
    return syncNanos.sum();
  }

  /** Native calls made through the region (every {@code NvmNative} method, reads included). */
  public long jniCalls() {
    return jniCalls.sum();
  }

  /** Batches applied ({@code nvm_apply} calls that returned success). */
  public long persists() {
    return persists.sum();
  }

  /** Sum of the persists' latencies (wall clock around the native call). */
  public long persistNanos() {
    return persistNanos.sum();
  }

  /**
   * Bytes of the batches applied (the encoded {@code nvm_apply} input: headers, page images,
   * changed words): what a replica would have to receive to apply the same changes.
   */
  public long persistBytes() {
    return persistBytes.sum();
  }

  /**
   * Persists whose batch changes more than one word in place (MutationBatch.isUndoLogged): before
   * the redo log these were undo-logged (4 barriers) and the rest one atomic word; with it every
   * persist is one redo record (region-format.md §7.3), and the count keeps the old meaning.
   */
  public long undoLoggedPersists() {
    return undoLogged.sum();
  }

  /** Recent persist latencies, for quantiles. */
  public LatencyRing latencies() {
    return latencies;
  }
}
