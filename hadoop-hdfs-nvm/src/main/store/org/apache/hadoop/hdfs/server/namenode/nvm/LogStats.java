package org.apache.hadoop.hdfs.server.namenode.nvm;

/**
 * The disk mode's write-ahead log (struct nvm_log_stats): its state and its counters since the
 * region was opened (docs/region-format.md §12).
 */
public final class LogStats {
  private final long[] v;

  /** {@code v} holds the fields of struct nvm_log_stats in declaration order. */
  LogStats(long[] v) {
    this.v = v.clone();
  }

  /** Bytes of the ring. */
  public long capacity() {
    return v[0];
  }

  /** Bytes between the checkpoint and the end of the log: what a restart would replay. */
  public long used() {
    return v[1];
  }

  /** LSN of the next record. */
  public long head() {
    return v[2];
  }

  /** LSN a restart would replay from. */
  public long checkpoint() {
    return v[3];
  }

  /** Group records written. */
  public long records() {
    return v[4];
  }

  /** fdatasync calls of the log: one per group commit. */
  public long syncs() {
    return v[5];
  }

  /** Bytes written to the log. */
  public long bytes() {
    return v[6];
  }

  /** Nanoseconds spent in those fdatasync calls. */
  public long syncNanos() {
    return v[7];
  }

  public long checkpoints() {
    return v[8];
  }

  /** Nanoseconds the checkpoints took. */
  public long checkpointNanos() {
    return v[9];
  }

  /** Records replayed at the open. */
  public long replayedRecords() {
    return v[10];
  }

  public long replayedBytes() {
    return v[11];
  }

  @Override
  public String toString() {
    return "LogStats{capacity="
        + capacity()
        + ", used="
        + used()
        + ", records="
        + records()
        + ", syncs="
        + syncs()
        + ", bytes="
        + bytes()
        + ", checkpoints="
        + checkpoints()
        + ", replayed="
        + replayedRecords()
        + "}";
  }
}
