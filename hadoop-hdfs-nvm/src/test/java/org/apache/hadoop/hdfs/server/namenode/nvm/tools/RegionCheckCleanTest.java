package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.junit.Assert.*;

import java.io.File;
import org.apache.hadoop.hdfs.server.namenode.nvm.Region;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionDamage;
import org.apache.hadoop.hdfs.server.namenode.nvm.ShmDir;
import org.junit.Rule;
import org.junit.Test;

/** Regions with nothing wrong check clean, and checking never writes. */
public class RegionCheckCleanTest {
  @Rule public ShmDir shm = new ShmDir();

  @Test
  public void sampleNamespaceIsConsistentAndClean() throws Exception {
    SampleNamespace n = SampleNamespace.create(shm, "r");
    CheckReport r = CheckAssert.check(n.file);
    assertTrue(r.format(), r.findings().isEmpty());
    assertTrue(r.isConsistent());
    assertFalse(r.needsRecovery());
    assertEquals(0, r.exitCode());
    String last = r.format().trim().substring(r.format().trim().lastIndexOf('\n') + 1);
    assertTrue(last, last.startsWith("summary: " + n.file + ": 0 errors, 0 recoverable; "));
    assertTrue(last, last.contains("8 attached inodes (4 dirs, 4 files)"));
    assertTrue(last, last.endsWith("consistent (exit 0)"));
  }

  @Test
  public void unformattedRegionIsClean() throws Exception {
    shm.create("empty", 1L << 20).close();
    CheckReport r = CheckAssert.check(shm.file("empty"));
    assertTrue(r.format(), r.findings().isEmpty());
    assertEquals(0, r.exitCode());
  }

  @Test
  public void checkingTwiceGivesTheSameReport() throws Exception {
    SampleNamespace n = SampleNamespace.create(shm, "r");
    RegionDamage.putLong(
        n.file, n.small + org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.IN_PARENT_ID, 99);
    assertEquals(RegionCheck.run(n.file).format(), RegionCheck.run(n.file).format());
  }

  @Test
  public void regionOpenElsewhereReadOnlyCanBeChecked() throws Exception {
    SampleNamespace n = SampleNamespace.create(shm, "r");
    File f = n.file;
    try (Region other = Region.openReadOnly(f)) { // a shared lock does not exclude the checker's
      assertEquals(0, CheckAssert.check(f).exitCode());
    }
  }
}
