package org.nvmnn.it.crash;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.server.namenode.nvm.NvmConfigKeys;
import org.junit.BeforeClass;
import org.nvmnn.it.NvmCluster;

/**
 * make crash-test, the disk mode (docs/region-format.md §12): the same operations as {@link
 * CrashPointSweepTest}, on a NameNode whose region persists through the write-ahead log, with the
 * power-loss model armed around each (§12.7): at every sync point — each fdatasync of the log, each
 * msync or fdatasync of the region file — every pair of a region image and a log image a power loss
 * there could leave must check, recover, check clean and hold exactly a state before the operation
 * or after one of its batches. Its report is target/powerloss-test-report.txt.
 */
public class PowerLossSweepTest extends CrashPointSweepTest {
  /** Shadows the memory-mode sweep's start (JUnit runs only this one). */
  @BeforeClass
  public static void start() throws Exception {
    Configuration conf = NvmCluster.nvmConf();
    conf.set(NvmConfigKeys.NVM_PERSIST_MODE_KEY, "disk");
    conf.set(NvmConfigKeys.NVM_LOG_SIZE_KEY, "1m");
    // no checkpoint by age during the sweep: each operation starts at one (the model's arming)
    conf.set(NvmConfigKeys.NVM_CHECKPOINT_PERIOD_KEY, "1h");
    start(conf, CaptureModel.POWER_LOSS);
  }
}
