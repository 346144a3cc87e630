package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;

import java.io.File;
import java.nio.file.Files;
import java.util.Random;
import org.junit.Test;

/**
 * Seeded random damage to a region holding records ({@link RecordSample}: tokens, one with a
 * RECORD_EXT chain, and a master key; {@link CacheSample}: a cache pool, two directives, one with a
 * RECORD_EXT chain, and the cache ids record), as {@link RegionMutationTest} damages the plain
 * sample ({@code -Dnvm.mutants=N}, {@code -Dnvm.mutants.seed=S}): every change lands in a record
 * page, a RECORD_EXT page or the record counters, raw or sealed. The checker stays the oracle of
 * the native open ({@link RegionOracle}), and the dump and stat never throw anything but their
 * reported errors. The checker's record invariants the native open does not check (duplicate keys,
 * keys above their counters, unknown types, payloads, the cache records' protobuf payloads and
 * references) give ERRORs on regions the open accepts, which the oracle allows: it requires only
 * that a region the checker calls consistent is accepted.
 */
public class RecordOracleTest extends SampleNamespaceFixture {
  private static final long SEED = Long.getLong("nvm.mutants.seed", 20261125L);
  private static final int MUTANTS = Integer.getInteger("nvm.mutants", 300);

  @Test
  public void damagedRecordsAreReportedAndTheCheckerIsTheOracleOfTheOpen() throws Exception {
    RecordSample rs = RecordSample.add(shm);
    CacheSample cs = CacheSample.add(shm);
    long[] pages = {
      rs.masterKey, rs.shortToken, rs.longToken, cs.pool, cs.directive1, cs.directive2, cs.ids
    };
    long[] targets = new long[pages.length + rs.longTokenExt.length + cs.directive2Ext.length];
    System.arraycopy(pages, 0, targets, 0, pages.length);
    System.arraycopy(rs.longTokenExt, 0, targets, pages.length, rs.longTokenExt.length);
    System.arraycopy(
        cs.directive2Ext,
        0,
        targets,
        pages.length + rs.longTokenExt.length,
        cs.directive2Ext.length);
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
        int from;
        int to;
        if (rnd.nextInt(4) == 0) { // the record counters
          from = SB_LAST_RECORD_ID;
          to = SB_MASTER_KEY_ID + 8;
        } else {
          from = (int) targets[rnd.nextInt(targets.length)];
          to = from + PAGE_SIZE;
        }
        what.append(RegionMutationTest.mutate(b, from, to, rnd, sealed)).append(' ');
      }
      Files.write(mutant.toPath(), b);
      String ctx = "record mutant " + i + " (-Dnvm.mutants.seed=" + SEED + "): " + what;
      CheckReport report = oracle.judge(mutant, copy, ctx);
      reported += report.isConsistent() ? 0 : 1;
      RegionOracle.dumpAndStatOnlyReport(mutant, report, ctx);
    }
    System.out.println(
        oracle.summary("record mutants (seed " + SEED + ")")
            + "; "
            + reported
            + " with a checker ERROR");
  }
}
