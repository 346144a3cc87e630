package org.apache.hadoop.hdfs.server.namenode.nvm;

import java.io.File;

/**
 * The options of a read-write open or a create (nvm_options in nvmns.h): the disk mode's
 * write-ahead log and checkpoints (docs/region-format.md §12). A zero or null field takes the
 * library's default. Immutable; {@link #DEFAULTS} has every default.
 */
public final class RegionOptions {
  /** NVM_OPT_NO_CHECKPOINTER: no background checkpoint thread (tests that sweep every sync). */
  public static final int NO_CHECKPOINTER = 1;

  public static final RegionOptions DEFAULTS = new RegionOptions(null, 0, 0, 0, 0);

  private final File logFile;
  private final long logCapacity;
  private final long checkpointBytes;
  private final long checkpointMillis;
  private final int flags;

  public RegionOptions(
      File logFile, long logCapacity, long checkpointBytes, long checkpointMillis, int flags) {
    this.logFile = logFile;
    this.logCapacity = logCapacity;
    this.checkpointBytes = checkpointBytes;
    this.checkpointMillis = checkpointMillis;
    this.flags = flags;
  }

  /** The write-ahead log; null: the region's path + ".wal". */
  public File logFile() {
    return logFile;
  }

  public long logCapacity() {
    return logCapacity;
  }

  public long checkpointBytes() {
    return checkpointBytes;
  }

  public long checkpointMillis() {
    return checkpointMillis;
  }

  public int flags() {
    return flags;
  }

  /** These options with {@code flags} instead. */
  public RegionOptions withFlags(int f) {
    return new RegionOptions(logFile, logCapacity, checkpointBytes, checkpointMillis, f);
  }

  /** The log a region at {@code region} uses with these options. */
  public File logFileOf(File region) {
    return logFile != null ? logFile : new File(region.getPath() + ".wal");
  }

  String logPath() {
    return logFile == null ? null : logFile.getPath();
  }

  @Override
  public String toString() {
    return "RegionOptions{log="
        + (logFile == null ? "<region>.wal" : logFile.getPath())
        + ", capacity="
        + logCapacity
        + ", checkpointBytes="
        + checkpointBytes
        + ", checkpointMillis="
        + checkpointMillis
        + ", flags="
        + flags
        + "}";
  }
}
