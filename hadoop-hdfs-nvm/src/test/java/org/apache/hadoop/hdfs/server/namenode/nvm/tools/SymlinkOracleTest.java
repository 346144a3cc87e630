package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;
import static org.junit.Assert.*;

import java.io.File;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.util.Random;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeStore;
import org.apache.hadoop.hdfs.server.namenode.nvm.Txn;
import org.junit.Test;

/**
 * Seeded random damage to a region holding symlinks ({@link SymlinkSample}: an inline target, and a
 * target chain beside a name chain of the same symlink) and a truncate block record for
 * writing.log, as {@link RegionMutationTest} damages the plain sample ({@code -Dnvm.mutants=N},
 * {@code -Dnvm.mutants.seed=S}): every change lands in a SYMLINK page, a page of the long symlink's
 * chains or the record page, raw or sealed. The checker stays the oracle of the native open ({@link
 * RegionOracle}), and the dump and stat never throw anything but their reported errors.
 */
public class SymlinkOracleTest extends SampleNamespaceFixture {
  private static final long SEED = Long.getLong("nvm.mutants.seed", 20261126L);
  private static final int MUTANTS = Integer.getInteger("nvm.mutants", 300);

  @Test
  public void damagedSymlinksAreReportedAndTheCheckerIsTheOracleOfTheOpen() throws Exception {
    SymlinkSample l = SymlinkSample.add(shm, n);
    long truncate;
    try (InodeStore s = shm.reopen("r");
        Txn t = s.begin()) {
      byte[] block =
          ByteBuffer.allocate(24)
              .order(ByteOrder.LITTLE_ENDIAN)
              .putLong(SampleNamespace.BLOCK_BASE + 41)
              .putLong(500)
              .putLong(1100)
              .array();
      truncate = t.createRecord(RECORD_TRUNCATE_BLOCK, n.id(n.writing), 0, block);
      t.commit();
    }
    assertEquals(0, CheckAssert.check(n.file).exitCode());
    long[] targets = {
      l.shortLink, l.longLink, l.targetExt[0], l.targetExt[1], l.nameExt[0], truncate
    };
    byte[] pristine = Files.readAllBytes(n.file.toPath());
    Random rnd = new Random(SEED);
    File mutant = shm.file("mutant");
    File copy = shm.file("mutant-open");
    RegionOracle oracle = new RegionOracle();
    int reported = 0;
    for (int i = 0; i < MUTANTS; i++) {
      byte[] b = pristine.clone();
      boolean sealed = i % 2 == 1;
      StringBuilder what = new StringBuilder();
      for (int c = 1 + rnd.nextInt(3); c > 0; c--) {
        int from = (int) targets[rnd.nextInt(targets.length)];
        what.append(RegionMutationTest.mutate(b, from, from + PAGE_SIZE, rnd, sealed)).append(' ');
      }
      Files.write(mutant.toPath(), b);
      String ctx = "symlink mutant " + i + " (-Dnvm.mutants.seed=" + SEED + "): " + what;
      CheckReport report = oracle.judge(mutant, copy, ctx);
      reported += report.isConsistent() ? 0 : 1;
      RegionOracle.dumpAndStatOnlyReport(mutant, report, ctx);
    }
    System.out.println(
        oracle.summary("symlink mutants (seed " + SEED + ")")
            + "; "
            + reported
            + " with a checker ERROR");
    assertTrue("most mutants are damage the checker reports", reported > MUTANTS / 2);
  }
}
