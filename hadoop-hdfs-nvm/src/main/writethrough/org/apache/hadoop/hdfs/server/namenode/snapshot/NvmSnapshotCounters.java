package org.apache.hadoop.hdfs.server.namenode.snapshot;

import org.apache.hadoop.hdfs.server.namenode.INodeDirectory;

/**
 * The {@link SnapshotManager} state the region persists and restores (region-format.md §13), which
 * 2.7.3 exposes only to its own package (its fsimage saver and loader use the same accessors).
 */
public final class NvmSnapshotCounters {
  private NvmSnapshotCounters() {}

  /** The last snapshot id handed out (ids are never reused). */
  public static int counter(SnapshotManager sm) {
    return sm.getSnapshotCounter();
  }

  public static INodeDirectory[] snapshottableDirs(SnapshotManager sm) {
    return sm.getSnapshottableDirs();
  }

  /** After a restore: the number of snapshots and the counter, as the fsimage loader sets them. */
  public static void restored(SnapshotManager sm, int numSnapshots, int counter) {
    sm.setNumSnapshots(numSnapshots);
    sm.setSnapshotCounter(counter);
  }
}
