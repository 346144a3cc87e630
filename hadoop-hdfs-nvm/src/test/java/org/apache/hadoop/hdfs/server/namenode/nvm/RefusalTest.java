package org.apache.hadoop.hdfs.server.namenode.nvm;

import static org.apache.hadoop.hdfs.server.namenode.nvm.StoreOps.*;
import static org.junit.Assert.*;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.hdfs.server.namenode.nvm.NvmException.ErrorCode;
import org.junit.Rule;
import org.junit.Test;

/**
 * Every refusal surfaces as an NvmException with the right code and the offset it points at, and
 * the file is unchanged.
 */
public class RefusalTest {
  @Rule public ShmDir shm = new ShmDir();

  private File region() throws Exception {
    try (InodeStore s = shm.createStore("r", ShmDir.SMALL)) {
      createInode(s, s.rootPage(), InodeAttrs.file("f"));
    }
    return shm.file("r");
  }

  private static void assertOpenRefused(File f, ErrorCode code, long offset) throws Exception {
    byte[] before = ShmDir.read(f);
    try (Region r = Region.open(f, PersistMode.EMULATED)) {
      fail("opened " + f);
    } catch (NvmException e) {
      assertEquals(e.getMessage(), code, e.code());
      assertEquals(e.getMessage(), offset, e.offset());
    }
    try (Region r = Region.openReadOnly(f)) {
      fail("opened read-only " + f);
    } catch (NvmException e) {
      assertEquals(e.getMessage(), code, e.code());
      assertEquals(e.getMessage(), offset, e.offset());
    }
    assertArrayEquals("refused file was modified", before, ShmDir.read(f));
  }

  @Test
  public void foreignFileIsRefusedAsNotARegion() throws Exception {
    File f = shm.file("foreign");
    byte[] junk = new byte[1 << 20];
    new Random(7).nextBytes(junk);
    Files.write(f.toPath(), junk);
    assertOpenRefused(f, ErrorCode.ENOTREGION, RegionLayout.HDR_MAGIC);
  }

  @Test
  public void fileShorterThanAHeaderIsRefusedAsNotARegion() throws Exception {
    File f = shm.file("tiny");
    Files.write(f.toPath(), "hello".getBytes(StandardCharsets.UTF_8));
    assertOpenRefused(f, ErrorCode.ENOTREGION, RegionLayout.HDR_MAGIC);
  }

  @Test
  public void wrongVersionIsRefused() throws Exception {
    File f = region();
    RegionDamage.write(f, RegionLayout.HDR_VERSION, new byte[] {1, 0, 0, 0});
    assertOpenRefused(f, ErrorCode.EVERSION, RegionLayout.HDR_VERSION);
  }

  @Test
  public void badHeaderCrcIsRefusedAsCorrupt() throws Exception {
    File f = region();
    RegionDamage.write(f, RegionLayout.HDR_CLUSTER_ID, new byte[] {'X'});
    assertOpenRefused(f, ErrorCode.ECORRUPT, RegionLayout.HDR_CRC);
  }

  @Test
  public void truncatedFileIsRefusedAtItsEnd() throws Exception {
    File f = region();
    RegionDamage.truncate(f, ShmDir.SMALL / 2);
    assertOpenRefused(f, ErrorCode.ETRUNCATED, ShmDir.SMALL / 2);
  }

  /**
   * Recovery's refusals point into the pages: here the file's page, refused for a malformed state
   * word (bits 31..16 set; the edit reseals the page, so the scan's state-word check refuses it,
   * not the checksum) and, separately, for one flipped bit in a field (not resealed: the page fails
   * its checksum, region-format.md §11).
   */
  @Test
  public void recoveryRefusalCarriesThePageOffset() throws Exception {
    File f = region();
    long page;
    long id;
    try (InodeStore s = shm.reopen("r")) {
      page = s.region().recoveredInodes()[1]; // the root, then the file
      id = s.inode(page).id();
    }
    File pristine = RegionDamage.copy(f, shm.file("pristine"));
    RegionDamage.write(f, page + 2, new byte[] {0x55}); // sealed: a malformed state word
    NvmException e = refusedUnchanged(f);
    assertEquals(e.getMessage(), page, e.offset());
    assertTrue(e.getMessage(), e.getMessage().contains("bad state word"));

    RegionDamage.copy(pristine, f);
    RegionDamage.flipBit(f, page + RegionLayout.IN_MTIME + 3, 6); // raw: the page's checksum fails
    e = refusedUnchanged(f);
    assertEquals(e.getMessage(), page, e.offset());
    assertTrue(e.getMessage(), e.getMessage().contains("fails its checksum"));
    assertTrue(e.getMessage(), e.getMessage().contains("kind 2, id " + id + ")"));
  }

  /** The read-write open refuses {@code f} as corrupt and leaves it as it was. */
  private static NvmException refusedUnchanged(File f) throws Exception {
    byte[] before = ShmDir.read(f);
    try (Region r = Region.open(f, PersistMode.EMULATED)) {
      fail("opened " + f);
      return null;
    } catch (NvmException e) {
      assertEquals(e.getMessage(), ErrorCode.ECORRUPT, e.code());
      return e;
    } finally {
      assertArrayEquals(before, ShmDir.read(f));
    }
  }

  @Test
  public void createOverAnExistingFileIsRefused() throws Exception {
    File f = region();
    byte[] before = ShmDir.read(f);
    try (Region r = Region.create(f, ShmDir.SMALL, ShmDir.ID, PersistMode.EMULATED)) {
      fail();
    } catch (NvmException e) {
      assertEquals(e.getMessage(), ErrorCode.EEXIST, e.code());
    }
    assertArrayEquals(before, ShmDir.read(f));
  }

  @Test
  public void createBelowTheMinimumSizeIsRefused() throws Exception {
    File f = shm.file("small");
    try (Region r =
        Region.create(
            f,
            RegionLayout.MIN_REGION_SIZE - RegionLayout.PAGE_SIZE,
            ShmDir.ID,
            PersistMode.EMULATED)) {
      fail();
    } catch (NvmException e) {
      assertEquals(e.getMessage(), ErrorCode.EINVAL, e.code());
    }
    assertFalse(f.exists());
  }

  @Test
  public void openingTwiceIsRefusedAsBusy() throws Exception {
    File f = region();
    try (Region r = Region.open(f, PersistMode.EMULATED)) {
      byte[] before = ShmDir.read(f);
      try (Region again = Region.open(f, PersistMode.EMULATED)) {
        fail();
      } catch (NvmException e) {
        assertEquals(e.getMessage(), ErrorCode.EBUSY, e.code());
        assertEquals("a lock has no place in the file", NvmException.NO_OFFSET, e.offset());
      }
      try (Region ro = Region.openReadOnly(f)) {
        fail();
      } catch (NvmException e) {
        assertEquals(e.getMessage(), ErrorCode.EBUSY, e.code());
        assertEquals(NvmException.NO_OFFSET, e.offset());
      }
      assertArrayEquals(before, ShmDir.read(f));
    }
    Region.open(f, PersistMode.EMULATED).close();
  }

  /** Runs ModeProbe in a JVM whose environment does not force pmem_is_pmem. */
  private static String probe(String... args) throws Exception {
    return probeWithLibraryPath(System.getProperty("java.library.path"), args);
  }

  static String probeWithLibraryPath(String libraryPath, String... args) throws Exception {
    List<String> cmd = new ArrayList<String>();
    cmd.add(new File(System.getProperty("java.home"), "bin/java").getPath());
    cmd.add("-Djava.library.path=" + libraryPath);
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(ModeProbe.class.getName());
    cmd.addAll(Arrays.asList(args));
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
    pb.environment().remove("PMEM_IS_PMEM_FORCE");
    Process p = pb.start();
    StringBuilder out = new StringBuilder();
    try (BufferedReader r =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = r.readLine()) != null) {
        out.append(line).append('\n');
      }
    }
    assertEquals(out.toString(), 0, p.waitFor());
    return out.toString().trim();
  }

  @Test
  public void pmemModeOnTmpfsWithoutForceIsRefused() throws Exception {
    File f = region();
    byte[] before = ShmDir.read(f);
    String open = probe("open", f.getPath(), "pmem");
    assertTrue(open, open.startsWith("EMODE "));
    assertArrayEquals(before, ShmDir.read(f));
    File g = shm.file("new");
    String create = probe("create", g.getPath(), "pmem");
    assertTrue(create, create.startsWith("EMODE "));
    assertFalse("a refused create left a file behind", g.exists());
    // without the force, auto resolves to the disk mode on tmpfs
    assertEquals("OK DISK", probe("open", f.getPath(), "auto"));
  }

  @Test
  public void nameTooLongIsRefusedBeforeAnythingIsWritten() throws Exception {
    File f = region();
    try (InodeStore s = InodeStore.open(Region.open(f, PersistMode.EMULATED))) {
      RegionUsage u = s.region().usage();
      long seq = s.region().commitSeq();
      byte[] name = new byte[RegionLayout.NAME_MAX + 1];
      Arrays.fill(name, (byte) 'n');
      try {
        createInode(s, s.rootPage(), InodeAttrs.file("x").name(name));
        fail();
      } catch (NvmException e) {
        assertEquals(ErrorCode.ETOOLONG, e.code());
      }
      long page = s.region().recoveredInodes()[1];
      try {
        rename(s, page, s.rootPage(), name, 1, 0, null);
        fail();
      } catch (NvmException e) {
        assertEquals(ErrorCode.ETOOLONG, e.code());
      }
      assertEquals(u, s.region().usage());
      assertEquals(seq, s.region().commitSeq());
      assertEquals("f", s.inode(page).name());
    }
  }

  @Test
  public void badNamesAndTargetsAreRefusedAsInvalid() throws Exception {
    File f = region();
    try (InodeStore s = InodeStore.open(Region.open(f, PersistMode.EMULATED))) {
      long seq = s.region().commitSeq();
      long file = s.region().recoveredInodes()[1];
      String[] bad = {"", "a/b", ".", ".."};
      for (String n : bad) {
        try {
          createInode(s, s.rootPage(), InodeAttrs.file(n));
          fail(n);
        } catch (NvmException e) {
          assertEquals(n, ErrorCode.EINVAL, e.code());
        }
      }
      try {
        createInode(s, file, InodeAttrs.file("child-of-a-file"));
        fail();
      } catch (NvmException e) {
        assertEquals(ErrorCode.EINVAL, e.code());
      }
      try {
        setMtime(s, RegionLayout.DATA_OFFSET + 7, 1);
        fail();
      } catch (NvmException e) {
        assertEquals(ErrorCode.EINVAL, e.code());
      }
      try {
        setReplication(s, file, 5000);
        fail();
      } catch (NvmException e) {
        assertEquals(ErrorCode.EINVAL, e.code());
      }
      try {
        delete(s, s.rootPage(), null, 0, 1);
        fail();
      } catch (NvmException e) {
        assertEquals(ErrorCode.EINVAL, e.code());
      }
      assertEquals(seq, s.region().commitSeq());
    }
  }

  @Test
  public void malformedBatchIsRefusedByTheNativeSideAndNothingIsWritten() throws Exception {
    File f = region();
    try (Region r = Region.open(f, PersistMode.EMULATED)) {
      long seq = r.commitSeq();
      byte[] hdr = r.getBytes(0, RegionLayout.HEADER_SIZE);
      MutationBatch b = new MutationBatch();
      b.putLong(RegionLayout.SB_LAST_TXID, 5, Field.COUNTER);
      b.putLong(RegionLayout.HDR_REGION_SIZE, 1, Field.NONE); // the header is immutable
      try {
        r.apply(b);
        fail();
      } catch (NvmException e) {
        assertEquals(e.getMessage(), ErrorCode.EINVAL, e.code());
      }
      assertEquals(0, r.lastTxId());
      assertEquals(seq, r.commitSeq());
      assertArrayEquals(hdr, r.getBytes(0, RegionLayout.HEADER_SIZE));
    }
  }
}
