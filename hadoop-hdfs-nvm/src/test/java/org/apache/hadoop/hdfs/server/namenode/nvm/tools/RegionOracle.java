package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import java.io.File;
import java.io.IOException;
import org.apache.hadoop.hdfs.server.namenode.nvm.NvmException;
import org.apache.hadoop.hdfs.server.namenode.nvm.PersistMode;
import org.apache.hadoop.hdfs.server.namenode.nvm.Region;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionDamage;

/**
 * The offline checker as an enforced oracle of the native open: two independent readers of
 * docs/region-format.md (like {@code pmempool check} beside libpmemobj) must agree on every region
 * they are given:
 *
 * <ol>
 *   <li>the checker calls it consistent (no ERROR) &rArr; {@code Region.open} (validation and
 *       recovery) accepts it;
 *   <li>{@code Region.open} refuses it &rArr; the checker reports at least one ERROR (the
 *       contrapositive, checked and reported on its own so a failure says which way round it went);
 *   <li>the checker's REFUSED finding (its read-only native open refused) &rArr; {@code
 *       Region.open} refuses with the same code at the same offset: both opens validate the same
 *       header, superblock and undo record before anything else.
 * </ol>
 *
 * The converse of 1 is not required: the checker also reports what recovery accepts and the
 * NameNode cannot use (a duplicate name or block id, a value above its counter, ...). A
 * disagreement means one of the two readers is wrong about the format; the spec decides which.
 * {@code Region.open} may write (recovery), so it opens a copy.
 */
final class RegionOracle {
  /** Regions judged. */
  int regions;

  /** ... that the checker called consistent (each of them accepted by Region.open). */
  int consistent;

  /** ... that Region.open accepted. */
  int accepted;

  /** ... that Region.open refused (each with a checker ERROR). */
  int refused;

  /** ... of those, how many had a checker ERROR at the offset the native refusal names. */
  int refusedAtAnErrorOffset;

  /** The refusal of the last read-write open this oracle made, or null if it accepted. */
  NvmException lastRefusal;

  /**
   * Checks {@code region} and opens a copy of it at {@code scratch}; fails with both verdicts,
   * {@code what} and the checker's report if they disagree. Returns the report.
   */
  CheckReport judge(File region, File scratch, String what) throws IOException {
    CheckReport report = check(region, what);
    RegionDamage.copy(region, scratch);
    copyLog(region, scratch);
    return verdict(report, region, scratch, what);
  }

  /**
   * The region's write-ahead log (its path + ".wal", which both readers take by default) goes with
   * the copy, so that both read the same pair; a log left beside the scratch copy goes.
   */
  private static void copyLog(File region, File scratch) throws IOException {
    File log = WriteAheadLog.defaultFile(region);
    File scratchLog = WriteAheadLog.defaultFile(scratch);
    if (log.exists()) {
      RegionDamage.copy(log, scratchLog);
    } else if (scratchLog.exists() && !scratchLog.delete()) {
      throw new IOException("cannot delete " + scratchLog);
    }
  }

  /**
   * As {@link #judge}, on {@code region} itself: the checker first (it does not write), then the
   * read-write open, which may write (recovery), so the file is the recovered region afterwards if
   * the open accepted it.
   */
  CheckReport judgeInPlace(File region, String what) throws IOException {
    return verdict(check(region, what), region, region, what);
  }

  private static CheckReport check(File region, String what) {
    try {
      return RegionCheck.run(region);
    } catch (RuntimeException e) {
      throw new AssertionError(what + ": the checker threw", e);
    }
  }

  private CheckReport verdict(CheckReport report, File region, File opened, String what) {
    NvmException refusal = null;
    try (Region r = Region.open(opened, PersistMode.EMULATED)) {
      accepted++;
    } catch (NvmException e) {
      refusal = e;
      if (e.getMessage() == null || e.getMessage().isEmpty()) {
        throw new AssertionError(what + ": refusal without a message", e);
      }
    } catch (RuntimeException e) {
      throw new AssertionError(what + ": Region.open threw instead of refusing", e);
    }
    lastRefusal = refusal;
    regions++;
    String verdicts =
        what
            + "\nRegion.open: "
            + (refusal == null
                ? "accepted"
                : "refused at offset " + refusal.offset() + ": " + refusal.getMessage())
            + "\nchecker:\n"
            + report.format();
    if (report.isConsistent() && refusal != null) {
      throw new AssertionError("the checker says consistent, but Region.open refuses: " + verdicts);
    }
    if (refusal != null && report.count(Finding.Severity.ERROR) == 0) {
      throw new AssertionError(
          "Region.open refuses, but the checker reports no ERROR: " + verdicts);
    }
    if (report.isRefused()) {
      Finding f = report.findings().get(0);
      if (refusal == null
          || !f.message().contains(refusal.getMessage().replace(opened.getPath(), region.getPath()))
          || f.offset() != refusal.offset()) {
        throw new AssertionError(
            "the read-only open refused, the read-write open did not refuse the same way: "
                + verdicts);
      }
    }
    consistent += report.isConsistent() ? 1 : 0;
    if (refusal != null) {
      refused++;
      for (Finding f : report.findings()) {
        if (f.severity() == Finding.Severity.ERROR && f.offset() == refusal.offset()) {
          refusedAtAnErrorOffset++;
          break;
        }
      }
    }
    return report;
  }

  /**
   * "N regions: C consistent per the checker (all accepted), A accepted by Region.open, R refused
   * (...)".
   */
  String summary(String what) {
    return regions
        + " "
        + what
        + ": "
        + consistent
        + " consistent per the checker (all accepted by Region.open), "
        + accepted
        + " accepted by Region.open, "
        + refused
        + " refused (each with a checker ERROR, "
        + refusedAtAnErrorOffset
        + " of them at the offset of the native refusal)";
  }

  /**
   * Whatever the damage, dump and stat of {@code region} either succeed or throw IOException (the
   * native open refused it), and a region the checker calls consistent ({@code report}) can be
   * dumped; anything else they throw fails with {@code what}.
   */
  static void dumpAndStatOnlyReport(File region, CheckReport report, String what) {
    try {
      NamespaceDump.read(region).text();
      RegionStat.run(region);
    } catch (IOException e) {
      if (report.isConsistent()) {
        throw new AssertionError(what + ": consistent per the checker, yet the dump failed", e);
      }
    } catch (RuntimeException e) {
      throw new AssertionError(
          what + ": dump or stat threw instead of reporting:\n" + report.format(), e);
    }
  }
}
