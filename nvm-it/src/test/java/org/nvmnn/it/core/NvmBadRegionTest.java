package org.nvmnn.it.core;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeView;
import org.apache.hadoop.hdfs.server.namenode.nvm.NvmConfigKeys;
import org.apache.hadoop.hdfs.server.namenode.nvm.Region;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionDamage;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout;
import org.apache.hadoop.hdfs.server.namenode.nvm.tools.CheckReport;
import org.apache.hadoop.hdfs.server.namenode.nvm.tools.RegionCheck;
import org.apache.hadoop.util.StringUtils;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;
import org.nvmnn.it.NvmCluster;

/**
 * Bad regions at NameNode start: an empty file, a truncated one, another format version, a flipped
 * bit in the header, in a page's state word, in a page's parent link, a name damaged into one no
 * operation writes or into a sibling's name, a damaged undo record and a bad redo record. Each time
 * the NameNode refuses to start with a message naming the problem, the region file is byte for byte
 * unchanged, and the offline checker reports it (exit code 1). The intact region then starts with
 * its namespace.
 */
public class NvmBadRegionTest {
  private static MiniDFSCluster cluster;
  private static File region;
  private static File pristine;

  /** Each name directory's seen_txid as it was with the pristine region (a start writes them). */
  private static final java.util.Map<File, byte[]> pristineSeenTxid =
      new java.util.HashMap<File, byte[]>();

  @BeforeClass
  public static void start() throws Exception {
    Configuration conf = NvmCluster.nvmConf();
    conf.set(NvmConfigKeys.NVM_REGION_SIZE_KEY, "2m");
    conf.set(
        MiniDFSCluster.HDFS_MINIDFS_BASEDIR, NamespaceOpsTestBase.baseDir(NvmBadRegionTest.class));
    conf.setInt(org.apache.hadoop.hdfs.DFSConfigKeys.DFS_REPLICATION_KEY, 1);
    cluster = NvmCluster.buildOrSkipIfPlaceholder(NvmCluster.builder(conf, 0));
    cluster.getFileSystem().mkdirs(new Path("/dir/sub"));
    cluster.getFileSystem().create(new Path("/dir/sub/file"), (short) 1).close();
    cluster.getFileSystem().create(new Path("/dir/sub/filf"), (short) 1).close();
    region =
        new File(
            cluster.getNameDirs(0).iterator().next().getPath(),
            "current/" + NvmConfigKeys.REGION_DEFAULT_FILE_NAME);
    cluster.shutdownNameNodes();
    pristine = new File(region.getPath() + ".pristine");
    Files.copy(region.toPath(), pristine.toPath(), StandardCopyOption.REPLACE_EXISTING);
    for (java.net.URI dir : cluster.getNameDirs(0)) {
      File seen = new File(dir.getPath(), "current/seen_txid");
      pristineSeenTxid.put(seen, Files.readAllBytes(seen.toPath()));
    }
  }

  /** The intact region, and the name directory as it was with it. */
  private static void restorePristine() throws IOException {
    Files.copy(pristine.toPath(), region.toPath(), StandardCopyOption.REPLACE_EXISTING);
    for (java.util.Map.Entry<File, byte[]> e : pristineSeenTxid.entrySet()) {
      Files.write(e.getKey().toPath(), e.getValue());
    }
  }

  @AfterClass
  public static void stop() throws IOException {
    if (cluster != null) {
      cluster.shutdown();
    }
    if (pristine != null) {
      Files.deleteIfExists(pristine.toPath());
    }
  }

  /** Damage done to the region file, with {@link RegionDamage}. */
  private interface Damage {
    void apply(File f) throws IOException;
  }

  /** Restores the intact region, damages it, expects the refusal and an unchanged file. */
  private static void assertRefused(String what, Damage damage, String... expected)
      throws Exception {
    assertRefused(what, false, damage, expected);
  }

  /**
   * As above; with {@code afterReclaim} the refusal comes from the NameNode's rebuild, after
   * recovery's reclaim step (docs/bad-input.md), so the only changes allowed are pages that nothing
   * referenced going from LIVE to INVALID.
   */
  private static void assertRefused(
      String what, boolean afterReclaim, Damage damage, String... expected) throws Exception {
    restorePristine();
    damage.apply(region);
    byte[] before = Files.readAllBytes(region.toPath());
    try {
      cluster.restartNameNode(false);
      fail(what + ": the NameNode started");
    } catch (Throwable t) {
      String all = StringUtils.stringifyException(t);
      for (String e : expected) {
        assertTrue(what + ": expected '" + e + "' in:\n" + all, all.contains(e));
      }
      assertTrue(
          what + ": the message does not name the region file:\n" + all,
          all.contains(region.getPath()));
    }
    byte[] refused = Files.readAllBytes(region.toPath());
    if (afterReclaim) {
      assertOnlyReclaimed(what, before, refused);
    } else {
      assertArrayEquals(what + ": the region file changed", before, refused);
    }
    CheckReport report = RegionCheck.run(region);
    assertEquals(what + ": checker verdict:\n" + report.format(), 1, report.exitCode());
    assertArrayEquals(
        what + ": the checker changed the file", refused, Files.readAllBytes(region.toPath()));
  }

  private static void assertOnlyReclaimed(String what, byte[] before, byte[] after) {
    assertEquals(what + ": region length", before.length, after.length);
    for (int i = 0; i < before.length; i++) {
      if (before[i] != after[i]) {
        boolean stateByte =
            i >= RegionLayout.DATA_OFFSET
                && (i - RegionLayout.DATA_OFFSET) % RegionLayout.PAGE_SIZE == 0;
        assertTrue(
            what
                + ": byte "
                + i
                + " changed from "
                + before[i]
                + " to "
                + after[i]
                + " (only LIVE -> INVALID"
                + " state words may change)",
            stateByte
                && before[i] == RegionLayout.STATE_LIVE
                && after[i] == RegionLayout.STATE_INVALID);
      }
    }
  }

  /** Offset of the live inode page named {@code name} in the intact region. */
  private static long pageOf(String name) throws IOException {
    try (Region r = Region.openReadOnly(pristine)) {
      for (long p = RegionLayout.DATA_OFFSET; p < r.size(); p += RegionLayout.PAGE_SIZE) {
        InodeView v = new InodeView(r, p);
        if (v.isLive() && (v.isDirectory() || v.isFile()) && name.equals(v.name())) {
          return p;
        }
      }
    }
    throw new AssertionError("no live inode named " + name);
  }

  @Test
  public void damagedRegionsAreRefusedUnchangedAndReported() throws Exception {
    assertRefused("empty file", f -> RegionDamage.truncate(f, 0), "NVM_ENOTREGION");
    assertRefused(
        "truncated file", f -> RegionDamage.truncate(f, f.length() / 2), "NVM_ETRUNCATED");
    assertRefused(
        "other format version",
        f -> RegionDamage.write(f, RegionLayout.HDR_VERSION, new byte[] {1}),
        "NVM_EVERSION");
    assertRefused(
        "bit flip in the header",
        f -> RegionDamage.xor(f, RegionLayout.HDR_CLUSTER_ID + 3, 0x10),
        "NVM_ECORRUPT",
        "header");
    long sub = pageOf("sub");
    assertRefused(
        "bit flip in a page's state word",
        f -> RegionDamage.xor(f, sub + RegionLayout.PG_STATE + 2, 0x01),
        "NVM_ECORRUPT",
        "state word");
    assertRefused(
        "bit flip in a page's checksum",
        f -> RegionDamage.xor(f, sub + RegionLayout.PG_STATE + 5, 0x01),
        "NVM_ECORRUPT",
        "fails its checksum",
        "/dir/sub");
    long file = pageOf("file");
    assertRefused(
        "media damage: a bit flip in an inode's modification time (only its checksum tells)",
        f -> RegionDamage.rawXor(f, file + RegionLayout.IN_MTIME + 2, 0x04),
        "NVM_ECORRUPT",
        "fails its checksum",
        "/dir/sub/file");
    assertRefused(
        "a name damaged into one with a '/'",
        f -> RegionDamage.write(f, sub + RegionLayout.IN_NAME_INLINE + 1, new byte[] {'/'}),
        "NVM_ECORRUPT",
        "has a name that contains '/'");
    assertRefused(
        "bit flip in a page's parent link",
        f -> RegionDamage.xor(f, file + RegionLayout.IN_PARENT_PAGE + 1, 0x40),
        "NVM_ECORRUPT",
        "damaged parent link");
    long filf = pageOf("filf");
    assertRefused(
        "a name damaged into its sibling's",
        true,
        f -> RegionDamage.write(f, filf + RegionLayout.IN_NAME_INLINE + 3, new byte[] {'e'}),
        "duplicate name 'file'");
    assertRefused(
        "damaged undo record (a region from before the redo log)",
        f -> {
          RegionDamage.withoutRedoLog(f);
          RegionDamage.write(
              f, RegionLayout.UNDO_STATE, new byte[] {7}); // armed, but its entries do not
          RegionDamage.write(
              f, RegionLayout.UNDO_ENTRY_COUNT, new byte[] {1}); // match their checksum
        },
        "NVM_ECORRUPT",
        "undo");
    assertRefused(
        "a redo record no library writes (its CRC matches, its entry is on the header)",
        RegionDamage::badRedoRecord,
        "NVM_ECORRUPT",
        "redo entry 0 has a bad target");
  }

  @Test
  public void intactRegionStartsWithItsNamespace() throws Exception {
    restorePristine();
    cluster.restartNameNode(true);
    assertTrue(cluster.getFileSystem().exists(new Path("/dir/sub/file")));
    cluster.shutdownNameNodes();
  }
}
