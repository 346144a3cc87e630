package org.apache.hadoop.hdfs.server.namenode.nvm;

/**
 * How the namespace came back at the NameNode's start: the native recovery of the region ({@link
 * RecoveryReport}: scan, undo roll-back, reclaimed pages) plus the NameNode's rebuild of its
 * in-memory namespace from the recovered inodes.
 */
public final class LastRecovery {
  private final RecoveryReport report;
  private final long totalNanos;
  private final long rebuildNanos;
  private final long inodesRebuilt;

  /**
   * @param totalNanos from the region's open to the end of the rebuild
   * @param rebuildNanos the rebuild alone
   * @param inodesRebuilt inodes put into the in-memory namespace (the root included)
   */
  public LastRecovery(
      RecoveryReport report, long totalNanos, long rebuildNanos, long inodesRebuilt) {
    this.report = report;
    this.totalNanos = totalNanos;
    this.rebuildNanos = rebuildNanos;
    this.inodesRebuilt = inodesRebuilt;
  }

  public RecoveryReport report() {
    return report;
  }

  public long totalNanos() {
    return totalNanos;
  }

  public long rebuildNanos() {
    return rebuildNanos;
  }

  public long inodesRebuilt() {
    return inodesRebuilt;
  }
}
