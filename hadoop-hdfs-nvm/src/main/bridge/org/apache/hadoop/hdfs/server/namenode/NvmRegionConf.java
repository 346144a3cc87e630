package org.apache.hadoop.hdfs.server.namenode;

import java.io.File;
import java.util.concurrent.TimeUnit;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.server.namenode.nvm.LogStats;
import org.apache.hadoop.hdfs.server.namenode.nvm.NvmConfigKeys;
import org.apache.hadoop.hdfs.server.namenode.nvm.PersistMode;
import org.apache.hadoop.hdfs.server.namenode.nvm.Region;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionOptions;

/**
 * How a NameNode opens its region, from its configuration: the persistence mode and the disk mode's
 * write-ahead log and checkpoints (docs/region-format.md §12). Every open and create of the
 * NameNode, the start-up options and the import read them here, so they agree.
 */
final class NvmRegionConf {
  private static final Log LOG = LogFactory.getLog(NvmRegionConf.class);

  private NvmRegionConf() {}

  /**
   * {@code dfs.namenode.nvm.persist.mode}; the old name "msync" is read as disk, with a warning.
   */
  static PersistMode mode(Configuration conf) {
    String v =
        conf.getTrimmed(NvmConfigKeys.NVM_PERSIST_MODE_KEY, NvmConfigKeys.NVM_PERSIST_MODE_DEFAULT);
    if (PersistMode.isOldName(v)) {
      LOG.warn(
          NvmConfigKeys.NVM_PERSIST_MODE_KEY
              + "=msync: that mode was replaced by the disk mode (a write-ahead log and"
              + " checkpoints), which this NameNode uses; set it to disk");
    }
    return PersistMode.parse(v);
  }

  /** The write-ahead log and checkpoint options. */
  static RegionOptions options(Configuration conf) {
    String log = conf.getTrimmed(NvmConfigKeys.NVM_LOG_PATH_KEY, "");
    return new RegionOptions(
        log.isEmpty() ? null : new File(log),
        conf.getLongBytes(NvmConfigKeys.NVM_LOG_SIZE_KEY, NvmConfigKeys.NVM_LOG_SIZE_DEFAULT),
        conf.getLongBytes(
            NvmConfigKeys.NVM_CHECKPOINT_SIZE_KEY, NvmConfigKeys.NVM_CHECKPOINT_SIZE_DEFAULT),
        conf.getTimeDuration(
                NvmConfigKeys.NVM_CHECKPOINT_PERIOD_KEY,
                NvmConfigKeys.NVM_CHECKPOINT_PERIOD_DEFAULT,
                TimeUnit.SECONDS)
            * 1000,
        0);
  }

  /**
   * {@code dfs.namenode.nvm.commit.delay} in nanoseconds (a bare number is microseconds); unset:
   * {@link NvmConfigKeys#NVM_COMMIT_DELAY_DISK_DEFAULT_US} in the disk mode, where a group costs an
   * {@code fdatasync}, and 0 in the memory modes, whose commit costs less than any wait.
   */
  static long commitDelayNanos(Configuration conf, PersistMode mode) {
    long us =
        conf.getTrimmed(NvmConfigKeys.NVM_COMMIT_DELAY_KEY, "").isEmpty()
            ? (mode == PersistMode.DISK ? NvmConfigKeys.NVM_COMMIT_DELAY_DISK_DEFAULT_US : 0)
            : conf.getTimeDuration(NvmConfigKeys.NVM_COMMIT_DELAY_KEY, 0, TimeUnit.MICROSECONDS);
    return TimeUnit.MICROSECONDS.toNanos(us);
  }

  /** The start-up line that says how this region persists (the operator's guide quotes it). */
  static String describe(File file, Region region) {
    StringBuilder b = new StringBuilder();
    b.append("NVM region ")
        .append(file)
        .append(": ")
        .append(region.size())
        .append(" bytes, persistence mode ")
        .append(region.persistMode().configName())
        .append(", pmem_is_pmem=")
        .append(region.isPmem());
    LogStats log = region.logStats();
    if (log != null) {
      b.append("; write-ahead log ")
          .append(region.logFile())
          .append(" (")
          .append(log.capacity())
          .append(" bytes): a group commit is one write and one fdatasync of it, the region file")
          .append(" is written after it and made durable by checkpoints; survives a power loss");
      if (region.recovery().logRecords() > 0) {
        b.append("; replayed ")
            .append(region.recovery().logRecords())
            .append(" records (")
            .append(region.recovery().logBytes())
            .append(" bytes) at this start");
      }
    } else if (region.persistMode() == PersistMode.EMULATED) {
      b.append("; survives a NameNode crash, not a power loss");
    }
    return b.toString();
  }
}
