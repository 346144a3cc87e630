package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.StoreOps.*;
import static org.junit.Assert.*;

import java.io.File;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeStore;
import org.apache.hadoop.hdfs.server.namenode.nvm.PersistMode;
import org.apache.hadoop.hdfs.server.namenode.nvm.Region;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionDamage;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionUsage;
import org.codehaus.jackson.JsonNode;
import org.codehaus.jackson.map.ObjectMapper;
import org.junit.Test;

/** The stat numbers agree with what was written and with the native allocator after recovery. */
public class RegionStatTest extends SampleNamespaceFixture {

  /** Usage as the native library counts it after a read-write open (recovery) of a copy. */
  private RegionUsage nativeUsage(File f) throws Exception {
    File c = RegionDamage.copy(f, shm.file(f.getName() + ".copy"));
    try (Region r = Region.open(c, PersistMode.EMULATED)) {
      return r.usage();
    }
  }

  @Test
  public void sampleCountsMatchWhatWasWritten() throws Exception {
    String hash = RegionDamage.sha256(n.file);
    StatReport s = RegionStat.run(n.file);
    assertEquals(hash, RegionDamage.sha256(n.file));
    assertEquals(SampleNamespace.REGION_SIZE, s.regionSize());
    assertEquals(
        (SampleNamespace.REGION_SIZE - RegionLayout.DATA_OFFSET) / RegionLayout.PAGE_SIZE,
        s.pagesTotal());
    assertEquals(4, s.dirs()); // /, /user, /user/alice, /tmp
    assertEquals(4, s.files());
    assertEquals(8, s.liveInodes());
    assertEquals(1, s.filesUnderConstruction());
    assertEquals(4, s.liveDirPages());
    assertEquals(4, s.liveFilePages());
    assertEquals(2, s.liveNameExtPages()); // 300-byte name: 48 inline + 224 + 28
    assertEquals(3, s.liveBlockExtPages()); // 23 blocks: 4 inline + 9 + 9 + 1
    assertEquals(7, s.liveStringPages()); // hdfs supergroup alice staff bob client machine
    assertEquals(1 + SampleNamespace.BIG_BLOCKS + 2, s.blocks());
    assertEquals(1234 + 22 * (64L << 20) + 777 + (128L << 20), s.blockBytes());
    assertEquals(8 + 2 + 3 + 7, s.pagesUsed());
    assertEquals(0, s.pendingPages());
    assertEquals(0, s.reclaimablePages());
    assertEquals(s.pagesUsed() * 256.0 / 8, s.bytesPerInode(), 1e-9);
    assertEquals((double) (s.highWater() - s.pagesUsed()) / s.highWater(), s.fragmentation(), 1e-9);
    RegionUsage u = nativeUsage(n.file);
    assertEquals(u.pagesUsed(), s.pagesUsed());
    assertEquals(u.highWater(), s.highWater());
    assertEquals(u.pagesFree(), s.pagesFree());
  }

  @Test
  public void deleteLeavesInvalidPagesBelowTheHighWaterMark() throws Exception {
    long[] below = {n.small, n.big, n.longName, n.writing};
    try (InodeStore s = shm.reopen("r")) {
      delete(s, n.alice, below, n.user, 9000);
    }
    StatReport s = RegionStat.run(n.file);
    assertEquals(3, s.dirs());
    assertEquals(0, s.files());
    assertEquals(0, s.blocks());
    // alice + 4 files + 2 name + 3 block extension pages were freed, and with them the strings
    // only the deleted inodes used: alice, staff, bob, client, machine
    assertEquals(15, s.invalidPages());
    assertEquals(0, s.reclaimablePages());
    RegionUsage u = nativeUsage(n.file);
    assertEquals(u.pagesUsed(), s.pagesUsed());
    assertEquals(u.highWater(), s.highWater());
    assertTrue(s.fragmentation() > 0);
  }

  @Test
  public void jsonHasTheSameNumbers() throws Exception {
    StatReport s = RegionStat.run(n.file);
    JsonNode j = new ObjectMapper().readTree(s.json());
    assertEquals(s.pagesUsed(), j.get("pagesUsed").getLongValue());
    assertEquals(s.highWater(), j.get("highWater").getLongValue());
    assertEquals(s.liveInodes(), j.get("liveInodes").getLongValue());
    assertEquals(s.blocks(), j.get("blocks").getLongValue());
    assertEquals(s.liveBlockExtPages(), j.get("liveBlockExtPages").getLongValue());
    assertEquals(s.bytesPerInode(), j.get("bytesPerInode").getDoubleValue(), 1e-6);
    assertEquals(s.fragmentation(), j.get("fragmentation").getDoubleValue(), 1e-6);
    assertTrue(s.format(), s.format().contains("\npagesUsed: " + s.pagesUsed() + "\n"));
  }

  @Test
  public void emptyRegion() throws Exception {
    shm.create("empty", 1L << 20).close();
    StatReport s = RegionStat.run(shm.file("empty"));
    assertEquals(0, s.pagesUsed());
    assertEquals(0, s.highWater());
    assertEquals(s.pagesTotal(), s.pagesNeverUsed());
    assertEquals(0, s.bytesPerInode(), 0);
    assertEquals(0, s.fragmentation(), 0);
  }
}
