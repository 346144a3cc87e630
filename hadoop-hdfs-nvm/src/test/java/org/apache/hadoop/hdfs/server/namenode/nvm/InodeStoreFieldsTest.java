package org.apache.hadoop.hdfs.server.namenode.nvm;

import static org.apache.hadoop.hdfs.server.namenode.nvm.StoreOps.*;
import static org.junit.Assert.*;

import java.util.Arrays;
import org.junit.Rule;
import org.junit.Test;

/** Every field InodeStore writes survives close + reopen. */
public class InodeStoreFieldsTest {
  @Rule public ShmDir shm = new ShmDir();

  private long file;
  private long dir;

  private InodeStore createTree() throws Exception {
    InodeStore s = shm.createStore("r", ShmDir.MEDIUM);
    dir =
        createInode(
            s,
            s.rootPage(),
            InodeAttrs.directory("dir").times(2000, 2000).mode(0750).owner("bob", "eng"));
    file =
        createInode(
            s,
            dir,
            InodeAttrs.file("data.bin")
                .times(3000, 3001)
                .mode(0640)
                .owner("alice", "staff")
                .replication(3)
                .preferredBlockSize(128L << 20)
                .storagePolicy(7));
    return s;
  }

  @Test
  public void createdInodesSurviveReopen() throws Exception {
    try (InodeStore s = createTree()) {
      assertEquals(3000, s.inode(dir).mtime());
    }
    try (InodeStore s = shm.reopen("r")) {
      InodeView d = s.inode(dir);
      assertTrue(d.isDirectory());
      assertEquals("dir", d.name());
      assertEquals(s.rootPage(), d.parentPage());
      assertEquals(RegionLayout.ROOT_INODE_ID, d.parentId());
      assertEquals(3000, d.mtime()); // the child's creation set it
      assertEquals(0750, d.mode());
      assertEquals("bob", s.owner(dir));
      assertEquals("eng", s.group(dir));
      assertEquals(-1, d.nsQuota());
      InodeView f = s.inode(file);
      assertTrue(f.isFile());
      assertEquals("data.bin", f.name());
      assertEquals(dir, f.parentPage());
      assertEquals(d.id(), f.parentId());
      assertEquals(RegionLayout.ROOT_INODE_ID + 2, f.id());
      assertEquals(3000, f.mtime());
      assertEquals(3001, f.atime());
      assertEquals(0640, f.mode());
      assertEquals("alice", s.owner(file));
      assertEquals("staff", s.group(file));
      assertEquals(3, f.replication());
      assertEquals(128L << 20, f.preferredBlockSize());
      assertEquals(7, f.storagePolicy());
      assertFalse(f.isUnderConstruction());
      assertEquals(0, f.blockCount());
      assertEquals(RegionLayout.ROOT_INODE_ID + 2, s.region().lastInodeId());
      long[] live = s.region().recoveredInodes();
      assertEquals(Arrays.toString(live), 3, live.length);
    }
  }

  @Test
  public void timesPermissionOwnerAndFileHeaderUpdatesSurviveReopen() throws Exception {
    try (InodeStore s = createTree()) {
      setMtime(s, file, 5000);
      setAtime(s, file, 5001);
      setTimes(s, dir, 6000, 6001);
      setPermission(s, file, 0600);
      setOwner(s, file, "carol", null);
      setOwner(s, dir, null, "ops");
      setReplication(s, file, 5);
      setStoragePolicy(s, file, 12);
      setPreferredBlockSize(s, file, 256L << 20);
    }
    try (InodeStore s = shm.reopen("r")) {
      InodeView f = s.inode(file);
      assertEquals(5000, f.mtime());
      assertEquals(5001, f.atime());
      assertEquals(6000, s.inode(dir).mtime());
      assertEquals(6001, s.inode(dir).atime());
      assertEquals(0600, f.mode());
      assertEquals("carol", s.owner(file));
      assertEquals("staff", s.group(file));
      assertEquals("bob", s.owner(dir));
      assertEquals("ops", s.group(dir));
      assertEquals(0750, s.inode(dir).mode());
      assertEquals(5, f.replication());
      assertEquals(12, f.storagePolicy());
      assertEquals(256L << 20, f.preferredBlockSize());
    }
  }

  @Test
  public void quotasSurviveReopen() throws Exception {
    try (InodeStore s = createTree()) {
      setQuota(s, dir, 1000, 1L << 40);
      setStorageTypeQuota(s, dir, 1, 1L << 30);
      setStorageTypeQuota(s, dir, 3, 7);
    }
    try (InodeStore s = shm.reopen("r")) {
      InodeView d = s.inode(dir);
      assertEquals(1000, d.nsQuota());
      assertEquals(1L << 40, d.dsQuota());
      assertEquals(-1, d.typeQuota(0));
      assertEquals(1L << 30, d.typeQuota(1));
      assertEquals(-1, d.typeQuota(2));
      assertEquals(7, d.typeQuota(3));
      assertEquals(InodeStore.ROOT_NS_QUOTA, s.inode(s.rootPage()).nsQuota());
    }
  }

  @Test
  public void underConstructionSetAndClearSurviveReopen() throws Exception {
    long other;
    try (InodeStore s = createTree()) {
      setUnderConstruction(s, file, "DFSClient_NONMAPREDUCE_1", "10.0.0.7");
      other =
          createInode(s, dir, InodeAttrs.file("uc").underConstruction("DFSClient_2", "10.0.0.8"));
    }
    try (InodeStore s = shm.reopen("r")) {
      assertTrue(s.inode(file).isUnderConstruction());
      assertEquals("DFSClient_NONMAPREDUCE_1", s.clientName(file));
      assertEquals("10.0.0.7", s.clientMachine(file));
      assertEquals("DFSClient_2", s.clientName(other));
      assertEquals("10.0.0.8", s.clientMachine(other));
      clearUnderConstruction(s, file);
    }
    try (InodeStore s = shm.reopen("r")) {
      assertFalse(s.inode(file).isUnderConstruction());
      assertNull(s.clientName(file));
      assertTrue(s.inode(other).isUnderConstruction());
    }
  }

  @Test
  public void inlineBlocksSurviveReopen() throws Exception {
    try (InodeStore s = createTree()) {
      assertEquals(0, addBlock(s, file, 1001, 1));
      assertEquals(1, addBlock(s, file, 1002, 2, 128L << 20));
      addBlock(s, file, 1003, 3, 100);
      updateBlock(s, file, 2, 55, 9);
    }
    try (InodeStore s = shm.reopen("r")) {
      InodeView f = s.inode(file);
      assertEquals(3, f.blockCount());
      assertEquals(1001, f.blockId(0));
      assertEquals(128L << 20, f.blockNumBytes(0));
      assertEquals(1, f.blockGenerationStamp(0));
      assertEquals(1002, f.blockId(1));
      assertEquals(100, f.blockNumBytes(1));
      assertEquals(1003, f.blockId(2));
      assertEquals(55, f.blockNumBytes(2));
      assertEquals(9, f.blockGenerationStamp(2));
      assertEquals(0, f.blockExtPages().length);
    }
  }

  @Test
  public void blocksBeyondFourGoThroughBlockExtPagesAndSurviveReopen() throws Exception {
    int n = 4 + 9 + 9 + 3; // inline, two full ext pages, a third partly used
    RegionUsage afterCreate;
    try (InodeStore s = createTree()) {
      afterCreate = s.region().usage();
      for (int i = 0; i < n; i++) {
        assertEquals(i, addBlock(s, file, 5000 + i, 100 + i, i == 0 ? -1 : 1000 + i));
      }
      assertEquals(afterCreate.pagesUsed() + 3, s.region().usage().pagesUsed());
    }
    try (InodeStore s = shm.reopen("r")) {
      InodeView f = s.inode(file);
      assertEquals(n, f.blockCount());
      assertEquals(3, f.blockExtPages().length);
      for (int i = 0; i < n; i++) {
        assertEquals(5000 + i, f.blockId(i));
        assertEquals(100 + i, f.blockGenerationStamp(i));
        assertEquals(i == n - 1 ? 0 : 1001 + i, f.blockNumBytes(i));
      }
      assertEquals(0, s.region().recovery().extReclaimed());
      // Remove down to 4 blocks: every ext page is unlinked and freed.
      for (int i = n; i > 4; i--) {
        removeLastBlock(s, file);
      }
      assertEquals(afterCreate.pagesUsed(), s.region().usage().pagesUsed());
      updateBlock(s, file, 3, 77, 78);
    }
    try (InodeStore s = shm.reopen("r")) {
      InodeView f = s.inode(file);
      assertEquals(4, f.blockCount());
      assertEquals(0, f.firstBlockExt());
      assertEquals(5003, f.blockId(3));
      assertEquals(77, f.blockNumBytes(3));
      assertEquals(afterCreate.pagesUsed(), s.region().usage().pagesUsed());
    }
  }

  @Test
  public void longNamesGoThroughNameExtPagesAndSurviveReopen() throws Exception {
    char[] c = new char[RegionLayout.NAME_MAX];
    for (int i = 0; i < c.length; i++) {
      c[i] = (char) ('a' + i % 26);
    }
    String max = new String(c);
    String mid = max.substring(0, 300);
    String unicode = "\u00e9t\u00e9-\u6587\u4ef6-\ud83d\ude00-" + max.substring(0, 60);
    long p1, p2, p3;
    try (InodeStore s = createTree()) {
      p1 = createInode(s, dir, InodeAttrs.file(max));
      p2 = createInode(s, dir, InodeAttrs.directory(mid));
      p3 = createInode(s, p2, InodeAttrs.file(unicode));
      assertEquals(293, s.inode(p1).nameExtPages().length); // (65535 - 48) / 224, rounded up
      assertEquals(2, s.inode(p2).nameExtPages().length);
    }
    try (InodeStore s = shm.reopen("r")) {
      assertEquals(max, s.inode(p1).name());
      assertEquals(mid, s.inode(p2).name());
      assertEquals(unicode, s.inode(p3).name());
      assertEquals(p2, s.inode(p3).parentPage());
      assertEquals(0, s.region().recovery().extReclaimed());
    }
  }

  @Test
  public void superblockCountersSurviveReopen() throws Exception {
    try (InodeStore s = createTree()) {
      setGenerationStampV1(s, 1000);
      setGenerationStampV2(s, 2000);
      setGenerationStampV1Limit(s, 3000);
      setLastAllocatedBlockId(s, 1L << 30);
      setLastInodeId(s, 99999);
      setLastTxId(s, 123456789L);
    }
    try (InodeStore s = shm.reopen("r")) {
      Region r = s.region();
      assertEquals(1000, r.generationStampV1());
      assertEquals(2000, r.generationStampV2());
      assertEquals(3000, r.generationStampV1Limit());
      assertEquals(1L << 30, r.lastAllocatedBlockId());
      assertEquals(99999, r.lastInodeId());
      assertEquals(123456789L, r.lastTxId());
      long next = createInode(s, s.rootPage(), InodeAttrs.file("next"));
      assertEquals(100000, s.inode(next).id());
    }
  }

  @Test
  public void explicitInodeIdIsKeptAndRaisesLastInodeId() throws Exception {
    try (InodeStore s = createTree()) {
      long p = createInode(s, dir, InodeAttrs.file("x").id(50000));
      assertEquals(50000, s.inode(p).id());
      assertEquals(50000, s.region().lastInodeId());
    }
  }
}
