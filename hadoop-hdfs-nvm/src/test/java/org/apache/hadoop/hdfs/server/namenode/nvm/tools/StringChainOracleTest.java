package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;
import static org.junit.Assert.*;

import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeAttrs;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeStore;
import org.apache.hadoop.hdfs.server.namenode.nvm.NvmException;
import org.apache.hadoop.hdfs.server.namenode.nvm.PersistMode;
import org.apache.hadoop.hdfs.server.namenode.nvm.Region;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionDamage;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionUsage;
import org.apache.hadoop.hdfs.server.namenode.nvm.ShmDir;
import org.apache.hadoop.hdfs.server.namenode.nvm.StoreOps;
import org.junit.Rule;
import org.junit.Test;

/**
 * The checker as the oracle of the native open ({@link RegionOracle}) over what the format gained
 * with strings of any length and names of up to 65535 bytes with any byte but '/': chained strings
 * sound, broken ({@link StringChainDamage}: refused, at the checker's offset where the two readers
 * report the same field) and unreferenced (reclaimed with their chains), NUL bytes and long names,
 * and seeded random damage to a region holding all of them, as {@link RegionMutationTest} does to
 * the plain sample ({@code -Dnvm.mutants=N}, {@code -Dnvm.mutants.seed=S}).
 */
public class StringChainOracleTest {
  private static final long SEED = Long.getLong("nvm.mutants.seed", 20261124L);
  private static final int MUTANTS = Integer.getInteger("nvm.mutants", 300);

  @Rule public ShmDir shm = new ShmDir();

  private final RegionOracle oracle = new RegionOracle();

  private void judgeClean(File f, String what) throws IOException {
    CheckReport r = oracle.judge(f, shm.file("copy"), what);
    assertEquals(r.format(), 0, r.exitCode());
  }

  @Test
  public void soundChainsLongNamesAndNulBytesAreAcceptedAndKept() throws Exception {
    SampleNamespace n = SampleNamespace.create(shm, "r");
    try (InodeStore s = shm.reopen("r")) {
      ChainedString.secondWriter(n, s);
      RegionCheckNameTest.createInTmp(n, s, "a\0b");
      RegionCheckNameTest.createInTmp(n, s, RegionCheckNameTest.repeat('n', 2000));
      RegionCheckNameTest.createInTmp(n, s, RegionCheckNameTest.repeat('m', NAME_MAX));
    }
    int free = highWater(n.file);
    ChainedString owner =
        ChainedString.write(n.file, ChainedString.nextId(n.file), ChainedString.TEXT, free);
    ChainedString group =
        ChainedString.write(
            n.file, ChainedString.nextId(n.file), ChainedString.FULL_TEXT, free + 10);
    owner.referAsOwner(n.tmp);
    group.referAsGroup(n.user);
    owner.referAsClientName(n.writing);
    judgeClean(n.file, "sound chains, long names, a NUL byte");
    List<String> before = NamespaceDump.lines(n.file);
    StatReport st = RegionStat.run(n.file);
    RegionUsage u;
    try (Region r = Region.open(n.file, PersistMode.EMULATED)) { // recovery keeps everything
      u = r.usage();
    }
    assertEquals(st.pagesUsed(), u.pagesUsed());
    assertEquals(st.highWater(), u.highWater());
    assertEquals(0, CheckAssert.check(n.file).exitCode());
    assertEquals(before, NamespaceDump.lines(n.file));
    for (long p : owner.ext) {
      assertEquals(STATE_LIVE, RegionDamage.getLong(n.file, p) & STATE_MASK);
    }
  }

  /**
   * Chains the store wrote, and a crash image holding an idle chained string (the store keeps a
   * string without references for reuse): accepted; the image's string and chain are reclaimed.
   */
  @Test
  public void chainsTheStoreWroteAndItsIdleLeftovers() throws Exception {
    SampleNamespace n = SampleNamespace.create(shm, "r");
    File image = shm.file("image");
    try (InodeStore s = shm.reopen("r")) {
      long f =
          StoreOps.createInode(
              s,
              n.tmp,
              InodeAttrs.file("long")
                  .owner(RegionCheckNameTest.repeat('u', 10_000), ChainedString.TEXT)
                  .underConstruction(ChainedString.FULL_TEXT, "10.0.0.7"));
      StoreOps.setOwner(s, f, "alice", null); // the 10,000 u's: idle
      RegionDamage.copy(n.file, image);
    }
    judgeClean(n.file, "chains the store wrote");
    CheckReport r = oracle.judge(image, shm.file("copy"), "an idle chained string");
    assertEquals(r.format(), 2, r.exitCode());
    assertEquals(r.format(), 45, CheckAssert.count(r, Finding.Kind.UNREFERENCED_EXTENSION));
    try (Region region = Region.open(image, PersistMode.EMULATED)) {
      assertEquals(1, region.recovery().stringsReclaimed());
      assertEquals(45, region.recovery().extReclaimed());
    }
    assertEquals(0, CheckAssert.check(image).exitCode());
  }

  @Test
  public void everyBrokenChainIsRefused() throws Exception {
    for (StringChainDamage d : StringChainDamage.values()) {
      SampleNamespace n = SampleNamespace.create(shm, d.name());
      long offset = d.damage(n, StringChainDamage.setUp(n));
      CheckReport r = oracle.judge(n.file, shm.file("copy"), d.name());
      CheckAssert.find(r, d.kind, offset);
      NvmException e = CheckAssert.refusedByRecovery(n.file, shm.file("copy"));
      assertEquals(d + ": " + e.getMessage(), NvmException.ErrorCode.ECORRUPT, e.code());
      if (d.nativeOffsetAgrees) {
        assertEquals(d + ": " + e.getMessage(), offset, e.offset());
      } else {
        assertNotEquals(d + ": " + e.getMessage(), offset, e.offset());
      }
      Files.delete(n.file.toPath());
    }
    System.out.println(oracle.summary("broken string chains"));
  }

  @Test
  public void unreferencedChainedStringIsReclaimedWithItsChain() throws Exception {
    SampleNamespace n = SampleNamespace.create(shm, "r");
    ChainedString s =
        ChainedString.write(n.file, ChainedString.nextId(n.file), ChainedString.TEXT, 300);
    CheckReport r = oracle.judge(n.file, shm.file("copy"), "an unreferenced chained string");
    assertEquals(r.format(), 2, r.exitCode());
    assertEquals(4, RegionStat.run(n.file).reclaimablePages());
    shm.reopen("r").close(); // recovery
    assertEquals(STATE_INVALID, RegionDamage.getLong(n.file, s.page) & STATE_MASK);
    for (long p : s.ext) {
      assertEquals(STATE_INVALID, RegionDamage.getLong(n.file, p) & STATE_MASK);
    }
    assertEquals(0, CheckAssert.check(n.file).exitCode());
  }

  @Test
  public void damagedRegionsWithChainsAndLongNames() throws Exception {
    SampleNamespace n = SampleNamespace.create(shm, "r");
    try (InodeStore s = shm.reopen("r")) {
      ChainedString.secondWriter(n, s);
      RegionCheckNameTest.createInTmp(n, s, "a\0b");
      RegionCheckNameTest.createInTmp(n, s, RegionCheckNameTest.repeat('n', 2000));
    }
    int free = highWater(n.file);
    ChainedString owner =
        ChainedString.write(n.file, ChainedString.nextId(n.file), ChainedString.TEXT, free);
    ChainedString group =
        ChainedString.write(
            n.file, ChainedString.nextId(n.file), ChainedString.FULL_TEXT, free + 10);
    owner.referAsOwner(n.tmp);
    group.referAsGroup(n.user);
    group.referAsClientName(n.writing);
    judgeClean(n.file, "the region the mutants start from");
    byte[] pristine = Files.readAllBytes(n.file.toPath());
    int used = RegionMutationTest.usedBytes(pristine);
    Random rnd = new Random(SEED);
    File mutant = shm.file("mutant");
    for (int i = 0; i < MUTANTS; i++) {
      byte[] b = pristine.clone();
      StringBuilder what = new StringBuilder();
      boolean sealed = i % 2 == 1; // every other mutant behind valid checksums
      // half of the damage aimed at the chained strings' pages, the rest anywhere
      for (int c = 1 + rnd.nextInt(4); c > 0; c--) {
        what.append(RegionMutationTest.mutate(b, 0, used, rnd, sealed)).append(' ');
      }
      if (rnd.nextBoolean()) {
        int base = (int) owner.page;
        int end = (int) (group.ext[group.ext.length - 1] + PAGE_SIZE);
        what.append("in the strings: ")
            .append(RegionMutationTest.mutate(b, base, end, rnd, sealed));
      }
      Files.write(mutant.toPath(), b);
      String ctx = "mutant " + i + " (-Dnvm.mutants.seed=" + SEED + "): " + what;
      CheckReport report = oracle.judge(mutant, shm.file("mutant-open"), ctx);
      RegionOracle.dumpAndStatOnlyReport(mutant, report, ctx);
    }
    System.out.println(oracle.summary("mutants with chained strings (seed " + SEED + ")"));
  }

  /** The index of the page after the last one whose state word is not zero. */
  private static int highWater(File f) throws IOException {
    ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(f.toPath())).order(ByteOrder.LITTLE_ENDIAN);
    int last = -1;
    for (int i = 0; DATA_OFFSET + (long) (i + 1) * PAGE_SIZE <= b.capacity(); i++) {
      if (b.getLong(DATA_OFFSET + i * PAGE_SIZE) != 0) {
        last = i;
      }
    }
    return last + 1;
  }
}
