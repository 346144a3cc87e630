package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.StoreOps.*;
import static org.junit.Assert.*;

import java.io.File;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeStore;
import org.apache.hadoop.hdfs.server.namenode.nvm.PersistMode;
import org.apache.hadoop.hdfs.server.namenode.nvm.Region;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout;
import org.apache.hadoop.hdfs.server.namenode.nvm.ShmDir;
import org.junit.Rule;
import org.junit.Test;

/**
 * Every image pair the disk mode's power-loss model writes (region-format.md §12.7: at every sync
 * of the log or of the region file, the states a power loss there could leave — nothing or all of
 * the writes since the last syncs, one file's and not the other's, each log sector in flight alone
 * or all but it, each region page written since alone or all but it, every such page torn) is read
 * by the tools as recovery leaves it: the checker calls the pair consistent and the read-write open
 * accepts it ({@link RegionOracle}), and the dump of the pair equals the dump of the pair after
 * that open, in the disk mode and in a memory mode by turns.
 */
public class PowerLossLogOracleTest {
  @Rule public ShmDir shm = new ShmDir();

  private final RegionOracle oracle = new RegionOracle();
  private int pairs;

  @Test
  public void everyPowerLossImageIsShownAsRecoveryLeavesIt() throws Exception {
    File file = shm.file("r");
    SampleNamespace[] n = new SampleNamespace[1];
    List<RegionCheckLogTest.Work> steps =
        Arrays.<RegionCheckLogTest.Work>asList(
            s -> s.format(1000L, 0755, "hdfs", "supergroup"),
            // the sample's counters first: every prefix of the sample is then consistent
            s -> {
              setGenerationStampV1(s, 1000);
              setGenerationStampV1Limit(s, 1000);
              setGenerationStampV2(s, 1100);
              setLastAllocatedBlockId(s, SampleNamespace.BLOCK_BASE + 41);
            },
            s -> n[0] = SampleNamespace.writeInto(file, s),
            s -> s.region().checkpoint(),
            s -> rename(s, n[0].small, n[0].tmp, "moved.txt", 9000),
            s -> delete(s, n[0].longName, new long[0], n[0].alice, 9001),
            s -> setLastTxId(s, 77));
    try (InodeStore s =
        InodeStore.open(
            Region.create(
                file,
                RegionLayout.MIN_REGION_SIZE,
                RegionCheckLogTest.ID,
                PersistMode.DISK,
                RegionCheckLogTest.OPTIONS))) {
      for (int i = 0; i < steps.size(); i++) {
        String prefix = "pl" + i;
        s.region().debugPowerloss(shm.file(prefix).getPath(), 0);
        steps.get(i).run(s);
        s.region().debugPowerloss(null, 0);
        judgeAll(prefix);
      }
    }
    assertTrue(oracle.summary("power-loss pairs"), pairs > 100);
    assertEquals(oracle.summary("power-loss pairs"), pairs, oracle.consistent);
  }

  /** Judges every pair {@code <prefix>.<k>.<variant>} (with its .wal) and deletes it. */
  private void judgeAll(String prefix) throws Exception {
    File[] files = shm.dir().listFiles((d, name) -> name.startsWith(prefix + "."));
    List<File> regions = new ArrayList<File>();
    for (File f : files) {
      if (new File(f.getPath() + ".wal").exists()) {
        regions.add(f);
      }
    }
    for (File region : regions) {
      judge(region, pairs % 2 == 0 ? PersistMode.DISK : PersistMode.EMULATED);
      pairs++;
    }
    for (File f : files) {
      assertTrue(f.delete());
    }
  }

  private void judge(File region, PersistMode mode) throws Exception {
    String what = region.getName() + " (" + mode + ")";
    CheckReport r = oracle.judge(region, shm.file("scratch"), what);
    assertNull(what + ": " + oracle.lastRefusal, oracle.lastRefusal);
    assertTrue(what + "\n" + r.format(), r.isConsistent());
    assertEquals(r.format(), 0, CheckAssert.count(r, Finding.Kind.LOG_REFUSED));
    assertEquals(r.format(), 0, CheckAssert.count(r, Finding.Kind.BAD_LOG_RECORD));
    File opened =
        LogFileEdit.copyPair(region, WriteAheadLog.defaultFile(region), shm.file("opened"));
    Region.open(opened, mode, RegionCheckLogTest.OPTIONS).close();
    assertEquals(
        what + "\n" + r.format(),
        RegionCheckLogTest.served(opened, null),
        RegionCheckLogTest.served(region, null));
  }
}
