package org.apache.hadoop.hdfs.server.namenode.nvm;

import static org.apache.hadoop.hdfs.server.namenode.nvm.StoreOps.*;
import static org.junit.Assert.*;

import java.io.File;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import org.junit.Rule;
import org.junit.Test;

public class RegionTest {
  @Rule public ShmDir shm = new ShmDir();

  @Test
  public void createThenReopenKeepsIdentityModeAndUsage() throws Exception {
    RegionUsage created;
    long creationId;
    try (Region r = shm.create("r", ShmDir.SMALL)) {
      assertEquals(ShmDir.ID, r.identity());
      assertEquals(PersistMode.EMULATED, r.persistMode());
      assertEquals(ShmDir.SMALL, r.size());
      created = r.usage();
      assertEquals(
          (ShmDir.SMALL - RegionLayout.DATA_OFFSET) / RegionLayout.PAGE_SIZE, created.pagesTotal());
      assertEquals(0, created.pagesUsed());
      assertEquals(created.pagesTotal(), created.pagesFree());
      assertEquals(created.pagesTotal(), r.pageCount());
      creationId = r.creationId();
      assertEquals(RegionLayout.REGION_MAGIC, r.getLong(RegionLayout.HDR_MAGIC));
      assertEquals(RegionLayout.SUPER_MAGIC, r.getLong(RegionLayout.SB_MAGIC));
    }
    try (Region r = Region.open(shm.file("r"), PersistMode.EMULATED)) {
      assertEquals(ShmDir.ID, r.identity());
      assertEquals(PersistMode.EMULATED, r.persistMode());
      assertEquals(created, r.usage());
      assertEquals(creationId, r.creationId());
      assertEquals(0, r.rootPage());
    }
  }

  @Test
  public void reopenAfterFormatReportsRootInRecovery() throws Exception {
    long root;
    try (InodeStore s = shm.createStore("r", ShmDir.SMALL)) {
      root = s.rootPage();
    }
    try (Region r = Region.open(shm.file("r"), PersistMode.EMULATED)) {
      assertEquals(root, r.rootPage());
      assertArrayEquals(new long[] {root}, r.recoveredInodes());
      assertEquals(1, r.recovery().inodesLive());
      assertEquals(2, r.recoveredStrings().length);
      assertFalse(r.recovery().undoRolledBack());
    }
  }

  @Test
  public void diskModeRoundTrips() throws Exception {
    try (Region r = Region.create(shm.file("m"), ShmDir.SMALL, ShmDir.ID, PersistMode.DISK)) {
      assertEquals(PersistMode.DISK, r.persistMode());
    }
    try (Region r = Region.open(shm.file("m"), PersistMode.DISK)) {
      assertEquals(PersistMode.DISK, r.persistMode());
      assertEquals(ShmDir.ID, r.identity());
    }
  }

  @Test
  public void readOnlyOpenMapsAReadOnlyViewAndRefusesWrites() throws Exception {
    try (InodeStore s = shm.createStore("r", ShmDir.SMALL)) {
      createInode(s, s.rootPage(), InodeAttrs.file("f").owner("alice", "staff").replication(3));
    }
    try (Region r = Region.openReadOnly(shm.file("r"));
        InodeStore s = InodeStore.open(r)) {
      assertTrue(r.isReadOnly());
      assertEquals(ShmDir.ID, r.identity());
      assertEquals(4, s.strings().size()); // hdfs, supergroup (root), alice, staff
      assertEquals("read-only opens run no recovery", 0, r.recoveredInodes().length);
      assertNotEquals(0, s.strings().lookup("alice"));
      assertEquals("alice", s.strings().get(s.strings().lookup("alice")));
      try {
        r.reservePages(1);
        fail("reserve on a read-only region");
      } catch (NvmException e) {
        assertNotEquals(NvmException.ErrorCode.OK, e.code());
      }
    }
  }

  @Test
  public void closeIsIdempotentAndUseAfterCloseThrowsIllegalState() throws Exception {
    Region r = shm.create("r", ShmDir.SMALL);
    r.close();
    r.close();
    assertTrue(r.isClosed());
    try {
      r.getLong(0);
      fail();
    } catch (IllegalStateException expected) {
    }
    try {
      r.usage();
      fail();
    } catch (IllegalStateException expected) {
    }
    try {
      r.apply(new MutationBatch().putLong(RegionLayout.SB_LAST_TXID, 1, Field.COUNTER));
      fail();
    } catch (IllegalStateException expected) {
    }
  }

  @Test
  public void segmentedViewReadsTheSameBytesAcrossSegmentBoundaries() throws Exception {
    try (InodeStore s = shm.createStore("r", ShmDir.SMALL)) {
      for (int i = 0; i < 300; i++) {
        createInode(s, s.rootPage(), InodeAttrs.file("file-" + i));
      }
    }
    byte[] whole;
    try (Region r = Region.open(shm.file("r"), PersistMode.EMULATED)) {
      whole = r.getBytes(0, (int) r.size());
    }
    try (Region r = Region.open(shm.file("r"), PersistMode.EMULATED, 0, 64 * 1024)) {
      byte[] seg = r.getBytes(0, (int) r.size());
      assertArrayEquals(whole, seg);
      long boundary = 64 * 1024;
      ByteBuffer expect = ByteBuffer.wrap(whole).order(ByteOrder.LITTLE_ENDIAN);
      assertEquals(expect.getLong((int) boundary - 8), r.getLong(boundary - 8));
      assertEquals(expect.getLong((int) boundary), r.getLong(boundary));
      assertEquals(expect.getInt((int) boundary * 3 + 4), r.getInt(boundary * 3 + 4));
      assertEquals(
          expect.getLong((int) boundary - 4),
          r.getLong(boundary - 4)); // unaligned, spans two segments
      assertEquals(0, r.getBytes(r.size(), 0).length);
      byte[] across = r.getBytes(boundary - 100, 200);
      assertArrayEquals(
          Arrays.copyOfRange(whole, (int) boundary - 100, (int) boundary + 100), across);
    }
  }

  @Test
  public void readsOutsideTheRegionThrow() throws Exception {
    try (Region r = shm.create("r", ShmDir.SMALL)) {
      try {
        r.getLong(r.size() - 4);
        fail();
      } catch (IndexOutOfBoundsException expected) {
      }
      try {
        r.getLong(-8);
        fail();
      } catch (IndexOutOfBoundsException expected) {
      }
    }
  }

  @Test
  public void reserveAndReleaseAreAccounted() throws Exception {
    try (Region r = shm.create("r", ShmDir.SMALL)) {
      RegionUsage before = r.usage();
      long[] p = r.reservePages(3);
      assertEquals(3, r.usage().pagesReserved());
      for (long off : p) {
        assertEquals(0, (off - RegionLayout.DATA_OFFSET) % RegionLayout.PAGE_SIZE);
      }
      r.releasePages(p);
      assertEquals(before.pagesFree(), r.usage().pagesFree());
      assertEquals(0, r.usage().pagesReserved());
    }
  }

  @Test
  public void versionStringNamesTheLibrary() {
    assertTrue(NvmNative.versionString(), NvmNative.versionString().contains("libhdfsnvm"));
    assertEquals("NVM_EFULL", NvmNative.strerror(NvmException.ErrorCode.EFULL.value()));
  }

  @Test
  public void fileNameIsKept() throws Exception {
    File f = shm.file("named");
    try (Region r = shm.create("named", ShmDir.SMALL)) {
      assertEquals(f, r.file());
    }
  }
}
