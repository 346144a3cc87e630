package org.apache.hadoop.hdfs.server.namenode.nvm;

/**
 * What recovery did when the region was opened (struct nvm_recovery); all zero for read-only opens.
 */
public final class RecoveryReport {
  private final long elapsedNanos;
  private final long pagesScanned;
  private final long inodesLive;
  private final long stringsLive;
  private final boolean undoRolledBack;
  private final long undoEntries;
  private final long pendingDiscarded;
  private final long orphansReclaimed;
  private final long extReclaimed;
  private final long stringsReclaimed;
  private final long logRecords;
  private final long logBytes;
  private final long logEntries;

  /** {@code r} holds the fields of struct nvm_recovery in declaration order. */
  RecoveryReport(long[] r) {
    elapsedNanos = r[0];
    pagesScanned = r[1];
    inodesLive = r[2];
    stringsLive = r[3];
    undoRolledBack = r[4] != 0;
    undoEntries = r[5];
    pendingDiscarded = r[6];
    orphansReclaimed = r[7];
    extReclaimed = r[8];
    stringsReclaimed = r[9];
    logRecords = r[10];
    logBytes = r[11];
    logEntries = r[12];
  }

  public long elapsedNanos() {
    return elapsedNanos;
  }

  public long pagesScanned() {
    return pagesScanned;
  }

  /** Inodes attached to the tree, including the root. */
  public long inodesLive() {
    return inodesLive;
  }

  public long stringsLive() {
    return stringsLive;
  }

  public boolean undoRolledBack() {
    return undoRolledBack;
  }

  public long undoEntries() {
    return undoEntries;
  }

  public long pendingDiscarded() {
    return pendingDiscarded;
  }

  public long orphansReclaimed() {
    return orphansReclaimed;
  }

  public long extReclaimed() {
    return extReclaimed;
  }

  public long stringsReclaimed() {
    return stringsReclaimed;
  }

  /** Write-ahead log records replayed (the disk mode, region-format.md §12.5). */
  public long logRecords() {
    return logRecords;
  }

  /** Bytes of those records. */
  public long logBytes() {
    return logBytes;
  }

  /** Entries stored from them. */
  public long logEntries() {
    return logEntries;
  }

  @Override
  public String toString() {
    return "RecoveryReport{elapsedNanos="
        + elapsedNanos
        + ", pagesScanned="
        + pagesScanned
        + ", inodesLive="
        + inodesLive
        + ", stringsLive="
        + stringsLive
        + ", undoRolledBack="
        + undoRolledBack
        + ", undoEntries="
        + undoEntries
        + ", pendingDiscarded="
        + pendingDiscarded
        + ", orphansReclaimed="
        + orphansReclaimed
        + ", extReclaimed="
        + extReclaimed
        + ", stringsReclaimed="
        + stringsReclaimed
        + ", logRecords="
        + logRecords
        + ", logBytes="
        + logBytes
        + ", logEntries="
        + logEntries
        + "}";
  }
}
