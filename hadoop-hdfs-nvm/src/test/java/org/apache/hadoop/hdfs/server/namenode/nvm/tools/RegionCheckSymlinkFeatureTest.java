package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;
import static org.junit.Assert.*;

import java.io.File;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.hdfs.server.namenode.nvm.CrashHook;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeAttrs;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeStore;
import org.apache.hadoop.hdfs.server.namenode.nvm.NvmException;
import org.apache.hadoop.hdfs.server.namenode.nvm.PersistMode;
import org.apache.hadoop.hdfs.server.namenode.nvm.Region;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionDamage;
import org.apache.hadoop.hdfs.server.namenode.nvm.Txn;
import org.junit.Test;

/**
 * The symlinks feature (FEATURE_SYMLINKS, region-format.md §11) in check, and a symlink's crash
 * leftover: a region from before the feature holds no SYMLINK page (recovery's scan refuses one as
 * an unknown kind), the native open refuses the feature without inode attributes, and a symlink
 * whose create crashed before its commit leaves target chain pages recovery reclaims.
 */
public class RegionCheckSymlinkFeatureTest extends SampleNamespaceFixture {
  private final RegionOracle oracle = new RegionOracle();

  private CheckReport judge(String what) throws Exception {
    CheckReport r = CheckAssert.check(n.file);
    oracle.judge(n.file, shm.file("open-copy"), what);
    return r;
  }

  @Test
  public void symlinkPagesInARegionWithoutTheFeatureAreRefused() throws Exception {
    long withoutSymlinks = features(FEATURE_PAGE_CHECKSUMS | FEATURE_RECORDS | FEATURE_INODE_ATTRS);
    File pristine = RegionDamage.copy(n.file, shm.file("pristine"));
    RegionDamage.rawPutLong(n.file, SB_FEATURES, withoutSymlinks);
    assertEquals("a region without symlinks is clean", 0, judge("no feature").exitCode());

    RegionDamage.copy(pristine, n.file);
    SymlinkSample l = SymlinkSample.add(shm, n);
    RegionDamage.rawPutLong(n.file, SB_FEATURES, withoutSymlinks);
    CheckReport r = judge("SYMLINK pages without the feature");
    for (long page : new long[] {l.shortLink, l.longLink}) {
      Finding f = CheckAssert.find(r, Finding.Kind.UNKNOWN_KIND, page);
      assertTrue(f.message(), f.message().contains("(SYMLINK), which a region without the"));
    }
    assertEquals(r.format(), 2, r.count(Finding.Severity.ERROR));
    assertTrue(
        oracle.lastRefusal.getMessage(),
        oracle.lastRefusal.getMessage().contains("unknown kind 10"));
    assertEquals(Math.min(l.shortLink, l.longLink), oracle.lastRefusal.offset());
    assertFalse("not an inode without the feature", line(n.file, "/tmp/").startsWith("/tmp/ln "));
  }

  /** The native open refuses the symlinks feature without the inode-attributes feature. */
  @Test
  public void symlinksWithoutAttributesAreRefused() throws Exception {
    RegionDamage.rawPutLong(
        n.file, SB_FEATURES, features(FEATURE_PAGE_CHECKSUMS | FEATURE_RECORDS | FEATURE_SYMLINKS));
    CheckAssert.onlyError(judge("symlinks without attributes"), Finding.Kind.REFUSED, SB_FEATURES);
  }

  /** A crash after the create's pages were written and before its commit: the target chain. */
  @Test
  public void targetChainOfACreateThatCrashedIsRecoverable() throws Exception {
    File work = RegionDamage.copy(n.file, shm.file("crash"));
    String prefix = shm.file("crash.img").getPath();
    try (InodeStore s = InodeStore.open(Region.open(work, PersistMode.EMULATED))) {
      CrashHook.crashAt(s.region(), 1, prefix); // the new pages are written, nothing is linked
      try (Txn t = s.begin()) {
        t.create(
            n.tmp,
            InodeAttrs.symlink(SymlinkSample.LONG_TARGET.getBytes(StandardCharsets.UTF_8))
                .name("crashed")
                .times(1, 1)
                .mode(0777)
                .owner("hdfs", "supergroup"));
        t.commit();
        fail("the crash hook did not fire");
      } catch (NvmException e) {
        assertEquals(NvmException.ErrorCode.ECRASHED, e.code());
      }
    }
    File image = new File(prefix + ".present");
    CheckReport r = CheckAssert.check(image);
    assertEquals(r.format(), 2, CheckAssert.count(r, Finding.Kind.UNREFERENCED_EXTENSION));
    assertEquals(r.format(), 2, r.findings().size());
    assertTrue(r.format(), r.format().contains("LIVE NAME_EXT page "));
    assertEquals(2, r.exitCode());
    assertEquals(2, RegionStat.run(image).reclaimablePages());
    oracle.judgeInPlace(image, "a symlink create at barrier 1");
    assertNull(oracle.lastRefusal);
    assertEquals(0, CheckAssert.check(image).exitCode()); // recovery reclaimed the pages
    assertEquals(0, RegionStat.run(image).symlinks());
  }

  private static String line(File f, String prefix) throws Exception {
    for (String l : NamespaceDump.lines(f)) {
      if (l.startsWith(prefix)) {
        return l;
      }
    }
    return "";
  }

  /** A feature word: the bits, their complement above. */
  private static long features(int bits) {
    return (bits & 0xffffffffL) | (~bits & 0xffffffffL) << 32;
  }
}
