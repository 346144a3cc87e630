package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.junit.Assert.*;

import java.io.File;
import java.io.IOException;
import org.apache.hadoop.hdfs.server.namenode.nvm.NvmException;
import org.apache.hadoop.hdfs.server.namenode.nvm.PersistMode;
import org.apache.hadoop.hdfs.server.namenode.nvm.Region;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionDamage;

/** Runs the checker and proves it did not write; finds the finding a test expects. */
final class CheckAssert {
  private CheckAssert() {}

  /** Checks {@code f} and asserts the file is byte-identical afterwards. */
  static CheckReport check(File f) throws IOException {
    String before = RegionDamage.sha256(f);
    long length = f.length();
    CheckReport r = RegionCheck.run(f);
    assertEquals("the checker changed the length of " + f, length, f.length());
    assertEquals("the checker changed " + f, before, RegionDamage.sha256(f));
    return r;
  }

  /**
   * Checks {@code f} with the write-ahead log {@code log} and asserts both files are byte-identical
   * afterwards.
   */
  static CheckReport check(File f, File log) throws IOException {
    String before = log.exists() ? RegionDamage.sha256(log) : null;
    String regionBefore = RegionDamage.sha256(f);
    CheckReport r = RegionCheck.run(f, log);
    assertEquals("the checker changed " + f, regionBefore, RegionDamage.sha256(f));
    assertEquals(
        "the checker changed " + log, before, log.exists() ? RegionDamage.sha256(log) : null);
    return r;
  }

  /**
   * The finding of {@code kind} at {@code offset}; fails with the whole report if there is none.
   */
  static Finding find(CheckReport r, Finding.Kind kind, long offset) {
    for (Finding f : r.findings()) {
      if (f.kind() == kind && f.offset() == offset) {
        return f;
      }
    }
    fail("no " + kind + " at offset " + offset + " in:\n" + r.format());
    return null;
  }

  /**
   * The refusal of a read-write open (with recovery) of a copy of {@code f} made at {@code
   * scratch}; fails if the open accepts it.
   */
  static NvmException refusedByRecovery(File f, File scratch) throws IOException {
    RegionDamage.copy(f, scratch);
    try (Region r = Region.open(scratch, PersistMode.EMULATED)) {
      fail("recovery accepted " + f);
      return null;
    } catch (NvmException e) {
      return e;
    }
  }

  static int count(CheckReport r, Finding.Kind kind) {
    int n = 0;
    for (Finding f : r.findings()) {
      n += f.kind() == kind ? 1 : 0;
    }
    return n;
  }

  /** The report has exactly one ERROR, of {@code kind} at {@code offset}, and exit code 1. */
  static Finding onlyError(CheckReport r, Finding.Kind kind, long offset) {
    Finding f = find(r, kind, offset);
    assertEquals(Finding.Severity.ERROR, f.severity());
    assertEquals(r.format(), 1, r.count(Finding.Severity.ERROR));
    assertFalse(r.isConsistent());
    assertEquals(1, r.exitCode());
    String line =
        offset >= 0 ? "ERROR at offset " + offset + ": " + kind + ": " : "ERROR: " + kind + ": ";
    assertTrue(r.format(), r.format().contains(line));
    return f;
  }
}
