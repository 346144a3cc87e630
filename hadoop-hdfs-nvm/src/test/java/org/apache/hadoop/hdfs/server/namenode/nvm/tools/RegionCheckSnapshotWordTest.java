package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;
import static org.junit.Assert.*;

import org.apache.hadoop.hdfs.server.namenode.nvm.InodeStore;
import org.apache.hadoop.hdfs.server.namenode.nvm.PersistMode;
import org.apache.hadoop.hdfs.server.namenode.nvm.Region;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionDamage;
import org.apache.hadoop.hdfs.server.namenode.nvm.Txn;
import org.junit.Test;

/**
 * A directory's DI_SNAPSHOT word (region-format.md §5.2) in check and dump: DI_SNAPSHOTTABLE as a
 * batch writes it is clean and dumped as {@code snapshottable=true}; any other value, or a set word
 * in a region without FEATURE_SNAPSHOTS, is BAD_SNAPSHOT_WORD at the word, and recovery still
 * accepts the region.
 */
public class RegionCheckSnapshotWordTest extends SampleNamespaceFixture {
  private final RegionOracle oracle = new RegionOracle();

  private CheckReport judge(String what) throws Exception {
    CheckReport r = CheckAssert.check(n.file);
    oracle.judge(n.file, shm.file("open-copy"), what);
    assertNull("recovery accepts it: " + what, oracle.lastRefusal);
    return r;
  }

  @Test
  public void aSnapshottableDirectoryIsCleanAndDumped() throws Exception {
    assertFalse(line("/tmp ").contains("snapshottable"));
    try (InodeStore s = InodeStore.open(Region.open(n.file, PersistMode.EMULATED));
        Txn t = s.begin()) {
      t.setSnapshottable(n.tmp, true);
      t.commit();
    }
    assertEquals(DI_SNAPSHOTTABLE, RegionDamage.getLong(n.file, n.tmp + DI_SNAPSHOT));
    assertEquals(0, judge("a snapshottable directory").exitCode());
    assertTrue(line("/tmp "), line("/tmp ").endsWith(" snapshottable=true"));
    try (InodeStore s = InodeStore.open(Region.open(n.file, PersistMode.EMULATED));
        Txn t = s.begin()) {
      t.setSnapshottable(n.tmp, false);
      t.commit();
    }
    assertEquals(0, RegionDamage.getLong(n.file, n.tmp + DI_SNAPSHOT));
    assertFalse(line("/tmp ").contains("snapshottable"));
  }

  @Test
  public void anotherValueIsABadSnapshotWord() throws Exception {
    RegionDamage.putLong(n.file, n.tmp + DI_SNAPSHOT, 2); // sealed: only the word is wrong
    Finding f =
        CheckAssert.onlyError(
            judge("snapshot word 2"), Finding.Kind.BAD_SNAPSHOT_WORD, n.tmp + DI_SNAPSHOT);
    assertTrue(f.message(), f.message().contains("neither 0 nor DI_SNAPSHOTTABLE"));
    assertTrue(line("/tmp "), line("/tmp ").endsWith(" snapshot=0x2"));
  }

  @Test
  public void aSetWordWithoutTheFeatureIsABadSnapshotWord() throws Exception {
    RegionDamage.putLong(n.file, n.tmp + DI_SNAPSHOT, DI_SNAPSHOTTABLE);
    long bits =
        RegionDamage.getLong(n.file, SB_FEATURES)
            & 0xffffffffL
            & ~(FEATURE_SNAPSHOTS | FEATURE_REDO_CHAIN); // the feature after it goes too
    RegionDamage.rawPutLong(n.file, SB_FEATURES, (~bits & 0xffffffffL) << 32 | bits);
    Finding f =
        CheckAssert.onlyError(
            judge("snapshot word without the feature"),
            Finding.Kind.BAD_SNAPSHOT_WORD,
            n.tmp + DI_SNAPSHOT);
    assertTrue(f.message(), f.message().contains("without the snapshots feature"));
  }

  private String line(String prefix) throws Exception {
    for (String l : NamespaceDump.lines(n.file)) {
      if (l.startsWith(prefix)) {
        return l;
      }
    }
    throw new AssertionError("no dump line starts with '" + prefix + "'");
  }
}
