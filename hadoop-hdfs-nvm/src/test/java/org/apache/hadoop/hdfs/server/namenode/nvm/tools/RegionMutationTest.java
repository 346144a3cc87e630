package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import java.io.File;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.util.Random;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionDamage;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout;
import org.junit.Test;

/**
 * Random damage to a real region (seeded, bounded: {@code -Dnvm.mutants=N}, default 300; {@code
 * -Dnvm.mutants.seed=S}): bit flips, random words and small integers written over the header,
 * superblock, undo record and the used pages; every other mutant is sealed (the LIVE pages and
 * counters it changes carry matching checks, region-format.md §11), so that the damage reaches the
 * structural checks behind the checksums. For every mutant the checker is the oracle of the native
 * open ({@link RegionOracle}): consistent per the checker &rArr; {@code Region.open} accepts;
 * refused by {@code Region.open} &rArr; the checker reports an ERROR. Whatever the damage, the Java
 * readers never throw anything but their reported errors: the checker always returns a report; dump
 * and stat either succeed or throw IOException, and a region the checker calls consistent can be
 * dumped. This is the Java half of make fuzz (the native half is libFuzzer over recovery; {@link
 * FuzzCorpusOracleTest} runs the same oracle over its corpus).
 */
public class RegionMutationTest extends SampleNamespaceFixture {
  private static final long SEED = Long.getLong("nvm.mutants.seed", 20261122L);
  private static final int MUTANTS = Integer.getInteger("nvm.mutants", 300);

  @Test
  public void damagedRegionsAreReportedNeverTrustedAndTheCheckerIsTheOracleOfTheOpen()
      throws Exception {
    byte[] pristine = Files.readAllBytes(n.file.toPath());
    int used = usedBytes(pristine);
    Random rnd = new Random(SEED);
    File mutant = shm.file("mutant");
    File copy = shm.file("mutant-open");
    RegionOracle oracle = new RegionOracle();
    for (int i = 0; i < MUTANTS; i++) {
      byte[] b = pristine.clone();
      int changes = 1 + rnd.nextInt(6);
      boolean sealed = i % 2 == 1; // every other mutant behind valid checksums
      StringBuilder what = new StringBuilder();
      for (int c = 0; c < changes; c++) {
        what.append(mutate(b, 0, used, rnd, sealed)).append(' ');
      }
      Files.write(mutant.toPath(), b);
      String ctx = "mutant " + i + " (-Dnvm.mutants.seed=" + SEED + "): " + what;
      CheckReport report = oracle.judge(mutant, copy, ctx);
      RegionOracle.dumpAndStatOnlyReport(mutant, report, ctx);
    }
    System.out.println(oracle.summary("mutants (seed " + SEED + ")"));
  }

  /** Header, superblock, undo record and every page up to the last used one. */
  static int usedBytes(byte[] b) {
    ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
    int end = RegionLayout.DATA_OFFSET;
    for (int p = RegionLayout.DATA_OFFSET;
        p + RegionLayout.PAGE_SIZE <= b.length;
        p += RegionLayout.PAGE_SIZE) {
      if (bb.getLong(p) != 0) {
        end = p + RegionLayout.PAGE_SIZE;
      }
    }
    return end;
  }

  static String mutate(byte[] b, int used, Random rnd) {
    return mutate(b, 0, used, rnd, false);
  }

  /**
   * One random change inside {@code b[from, to)}: a flipped bit, a random word or a small integer
   * (a small number or a page offset). Raw, as media damage leaves it; or {@code sealed}, as a
   * buggy writer would store it through the library (RegionDamage's sealed edits): the LIVE pages
   * and counters it touches get checks that match, so the structural checks behind the checksums
   * are exercised too.
   */
  static String mutate(byte[] b, int from, int to, Random rnd, boolean sealed) {
    ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
    int off = from + rnd.nextInt(to - from);
    String what;
    switch (rnd.nextInt(3)) {
      case 0:
        int bit = rnd.nextInt(8);
        b[off] ^= (byte) (1 << bit);
        if (sealed) {
          RegionDamage.seal(b, off, 1);
        }
        return (sealed ? "sealed-flip@" : "flip@") + off + "." + bit;
      case 1:
        off &= ~7;
        what = "word@" + off + "=";
        long w = rnd.nextLong();
        return (sealed ? "sealed-" : "") + what + putWord(bb, off, w, sealed);
      default:
        off &= ~7;
        what = "int@" + off + "=";
        long small =
            rnd.nextInt(2) == 0
                ? rnd.nextInt(64)
                : RegionLayout.DATA_OFFSET + rnd.nextInt(to) / 256 * 256L;
        return (sealed ? "sealed-" : "") + what + putWord(bb, off, small, sealed);
    }
  }

  /** Writes {@code w} at {@code off}; sealed, a counter gets its value's low bits and its check. */
  private static long putWord(ByteBuffer bb, int off, long w, boolean sealed) {
    if (sealed && RegionDamage.isCounter(off)) {
      w = RegionDamage.counterWord(off, w);
      bb.putLong(off, w);
      return w;
    }
    bb.putLong(off, w);
    if (sealed) {
      RegionDamage.seal(bb.array(), off, 8);
    }
    return w;
  }
}
