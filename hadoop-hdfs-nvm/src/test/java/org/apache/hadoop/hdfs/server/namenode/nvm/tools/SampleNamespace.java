package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.StoreOps.*;

import java.io.File;
import java.io.IOException;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeAttrs;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeStore;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeView;
import org.apache.hadoop.hdfs.server.namenode.nvm.NvmException;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionDamage;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout;
import org.apache.hadoop.hdfs.server.namenode.nvm.ShmDir;
import org.apache.hadoop.hdfs.server.namenode.nvm.Txn;

/**
 * A small real region written through InodeStore, with every kind of page: directories with quotas
 * and a storage policy, a one-block file, a 23-block file (three BLOCK_EXT pages), a file with a
 * 300-byte name (two NAME_EXT pages), an under-construction file, seven strings. The page offsets
 * and values are kept for the corruptions and the expected dump.
 */
final class SampleNamespace {
  static final long REGION_SIZE = 4L << 20;

  /** HDFS's first sequential block id is above 2^30. */
  static final long BLOCK_BASE = 1L << 30;

  static final int BIG_BLOCKS = 23;
  static final String LONG_NAME;

  static {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < 30; i++) {
      b.append("abcdefghij");
    }
    LONG_NAME = b.toString();
  }

  final File file;
  long root;
  long user;
  long alice;
  long small;
  long big;
  long longName;
  long writing;
  long tmp;

  /** Triples (id, numBytes, genstamp) of big.bin. */
  final long[] bigBlocks = new long[3 * BIG_BLOCKS];

  long[] bigExtPages;
  long[] longNameExtPages;

  private SampleNamespace(File file) {
    this.file = file;
  }

  static SampleNamespace create(ShmDir shm, String name) throws NvmException {
    SampleNamespace n = new SampleNamespace(shm.file(name));
    try (InodeStore s = shm.createStore(name, REGION_SIZE)) {
      n.build(s);
    }
    return n;
  }

  /** The sample written through {@code s}, a store of the formatted region at {@code file}. */
  static SampleNamespace writeInto(File file, InodeStore s) throws NvmException {
    SampleNamespace n = new SampleNamespace(file);
    n.build(s);
    return n;
  }

  private void build(InodeStore s) throws NvmException {
    root = s.rootPage();
    user =
        createInode(
            s,
            root,
            InodeAttrs.directory("user")
                .times(2000, 2001)
                .mode(0755)
                .owner("hdfs", "supergroup")
                .quota(100, 1L << 30)
                .typeQuota(1, 5000)
                .storagePolicy(7));
    alice =
        createInode(
            s,
            user,
            InodeAttrs.directory("alice").times(3000, 3001).mode(0700).owner("alice", "staff"));
    small =
        createInode(
            s,
            alice,
            InodeAttrs.file("small.txt")
                .times(4000, 4001)
                .mode(0644)
                .owner("alice", "staff")
                .replication(3)
                .preferredBlockSize(128L << 20));
    addBlock(s, small, BLOCK_BASE + 1, 1001);
    updateBlock(s, small, 0, 1234, 1001);
    big =
        createInode(
            s,
            alice,
            InodeAttrs.file("big.bin")
                .times(5000, 5001)
                .mode(0640)
                .owner("alice", "staff")
                .replication(2)
                .preferredBlockSize(64L << 20)
                .storagePolicy(5));
    for (int i = 0; i < BIG_BLOCKS; i++) {
      bigBlocks[3 * i] = BLOCK_BASE + 10 + i;
      bigBlocks[3 * i + 1] = i < BIG_BLOCKS - 1 ? 64L << 20 : 777;
      bigBlocks[3 * i + 2] = 1002;
    }
    try (Txn t = s.begin()) {
      t.setBlocks(big, bigBlocks, BIG_BLOCKS);
      t.commit();
    }
    longName =
        createInode(
            s,
            alice,
            InodeAttrs.file(LONG_NAME)
                .times(6000, 6001)
                .mode(0600)
                .owner("alice", "staff")
                .replication(1)
                .preferredBlockSize(1L << 20));
    writing =
        createInode(
            s,
            alice,
            InodeAttrs.file("writing.log")
                .times(7000, 7001)
                .mode(0644)
                .owner("bob", "staff")
                .replication(3)
                .preferredBlockSize(128L << 20)
                .underConstruction("DFSClient_NONMAPREDUCE_1", "10.0.0.7"));
    addBlock(s, writing, BLOCK_BASE + 40, 1050);
    addBlock(s, writing, BLOCK_BASE + 41, 1100, 128L << 20);
    tmp =
        createInode(
            s,
            root,
            InodeAttrs.directory("tmp").times(8000, 8001).mode(01777).owner("hdfs", "supergroup"));
    // Creating a child sets the parent's mtime; put the directories' times back.
    setTimes(s, root, 1000, 1001);
    setTimes(s, user, 2000, 2001);
    setTimes(s, alice, 3000, 3001);
    setGenerationStampV1(s, 1000);
    setGenerationStampV1Limit(s, 1000);
    setGenerationStampV2(s, 1100);
    setLastAllocatedBlockId(s, BLOCK_BASE + 41);
    setLastTxId(s, 42);
    InodeView b = s.inode(big);
    bigExtPages = b.blockExtPages();
    longNameExtPages = s.inode(longName).nameExtPages();
  }

  /** The inode id on {@code page}, read from the file. */
  long id(long page) throws IOException {
    return RegionDamage.getLong(file, page + RegionLayout.IN_ID);
  }
}
