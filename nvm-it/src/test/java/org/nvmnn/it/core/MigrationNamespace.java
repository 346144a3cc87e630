package org.nvmnn.it.core;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DFSTestUtil;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;

/**
 * The namespace the migration tests move between the stock and the NVM NameNode, built through a
 * client: nested directories, files of 0, 1, 6 (inline + a block-extension page) and 15 blocks (two
 * extension pages), a name longer than a page's inline part, a directory of 150 files (more than
 * one import batch), permissions and owners, times, replication, file and directory storage
 * policies, a namespace + space quota and a storage-type quota, and two files under construction:
 * one its writer keeps writing after the switch, one another client recovers.
 */
final class MigrationNamespace {
  static final int BLOCK = NamespaceOpsTestBase.BLOCK;
  static final Path ROOT = new Path("/mig");
  static final String LONG_NAME =
      "a-name-longer-than-the-48-bytes-an-inode-page-holds-inline-"
          + new String(new char[100]).replace((char) 0, (char) 120);

  private final Map<Path, byte[]> contents = new LinkedHashMap<>();
  private final Path writing = new Path(ROOT, "open/writing.log");
  private final Path abandoned = new Path(ROOT, "open/abandoned.log");
  private FSDataOutputStream writingOut;
  private FSDataOutputStream abandonedOut;
  private final ByteArrayOutputStream writingBytes = new ByteArrayOutputStream();
  private byte[] abandonedBytes;

  /** Builds the namespace through {@code fs} (the cluster's superuser client). */
  void build(DistributedFileSystem fs) throws IOException {
    fs.mkdirs(new Path(ROOT, "dirs/a/b/c"));
    Path perm = new Path(ROOT, "perm");
    fs.mkdirs(perm, new FsPermission((short) 0750));
    fs.setOwner(perm, "alice", "staff");
    write(fs, new Path(perm, "secret"), NamespaceOpsTestBase.data(321, 1));
    fs.setPermission(new Path(perm, "secret"), new FsPermission((short) 0600));
    fs.setOwner(new Path(perm, "secret"), "alice", "staff");

    Path files = new Path(ROOT, "files");
    write(fs, new Path(files, "empty"), new byte[0]);
    write(fs, new Path(files, "small"), NamespaceOpsTestBase.data(100, 2));
    write(fs, new Path(files, "six-blocks"), NamespaceOpsTestBase.data(BLOCK * 5 + 777, 3));
    write(fs, new Path(files, "fifteen-blocks"), NamespaceOpsTestBase.data(BLOCK * 14 + 1, 4));
    write(fs, new Path(files, LONG_NAME), NamespaceOpsTestBase.data(10, 5));
    fs.setReplication(new Path(files, "small"), (short) 1);
    // an old mtime; a recent atime, since a read (the snapshot's block listing) sets an atime older
    // than an hour
    fs.setTimes(new Path(files, "small"), 1500000000000L, System.currentTimeMillis() - 60000);
    fs.setStoragePolicy(new Path(files, "small"), "COLD");

    Path ssd = new Path(ROOT, "ssd");
    fs.mkdirs(ssd);
    fs.setStoragePolicy(ssd, "ONE_SSD");
    write(fs, new Path(ssd, "f"), NamespaceOpsTestBase.data(BLOCK + 3, 6));

    Path quota = new Path(ROOT, "quota");
    fs.mkdirs(quota);
    fs.setQuota(quota, 1000, 200L * BLOCK);
    fs.setQuotaByStorageType(quota, StorageType.SSD, 20L * BLOCK);
    write(fs, new Path(quota, "inside"), NamespaceOpsTestBase.data(BLOCK / 2, 7));

    Path many = new Path(ROOT, "many");
    for (int i = 0; i < 150; i++) {
      FSDataOutputStream o = fs.create(new Path(many, String.format("f%03d", i)));
      o.close();
    }

    byte[] w = NamespaceOpsTestBase.data(BLOCK + 1000, 8);
    writingOut = fs.create(writing);
    writingOut.write(w);
    writingOut.hflush();
    writingBytes.write(w);
    abandonedBytes = NamespaceOpsTestBase.data(2 * BLOCK + 10, 9);
    abandonedOut = fs.create(abandoned);
    abandonedOut.write(abandonedBytes);
    abandonedOut.hflush();
  }

  private void write(DistributedFileSystem fs, Path p, byte[] b) throws IOException {
    try (FSDataOutputStream out = fs.create(p, true)) {
      out.write(b);
    }
    contents.put(p, b);
  }

  /**
   * Every closed file reads back byte for byte through the DataNodes; both open files are still
   * open.
   */
  void assertContents(DistributedFileSystem fs) throws IOException {
    for (Map.Entry<Path, byte[]> e : contents.entrySet()) {
      assertArrayEquals(
          "content of " + e.getKey(), e.getValue(), DFSTestUtil.readFileBuffer(fs, e.getKey()));
    }
    assertTrue(fs.getClient().getLocatedBlocks(writing.toString(), 0).isUnderConstruction());
    assertTrue(fs.getClient().getLocatedBlocks(abandoned.toString(), 0).isUnderConstruction());
  }

  /**
   * The NameNode now running (after the switch) has the leases: the first file's writer goes on
   * writing and closes it, the second is taken over by another client; both read back.
   */
  void finishOpenFiles(MiniDFSCluster cluster, DistributedFileSystem fs) throws Exception {
    byte[] more = NamespaceOpsTestBase.data(BLOCK + 500, 10);
    writingOut.write(more);
    writingOut.close();
    writingBytes.write(more);
    assertArrayEquals(writingBytes.toByteArray(), DFSTestUtil.readFileBuffer(fs, writing));
    assertFalse(fs.getClient().getLocatedBlocks(writing.toString(), 0).isUnderConstruction());

    DistributedFileSystem other =
        (DistributedFileSystem)
            FileSystem.newInstance(cluster.getURI(0), cluster.getConfiguration(0));
    try {
      long deadline = System.currentTimeMillis() + 60000;
      while (!other.recoverLease(abandoned)) {
        assertTrue("lease recovery timed out", System.currentTimeMillis() < deadline);
        Thread.sleep(500);
      }
      assertArrayEquals(abandonedBytes, DFSTestUtil.readFileBuffer(fs, abandoned));
    } finally {
      other.close();
      try {
        abandonedOut.close();
      } catch (IOException expected) {
        // its lease was taken over
      }
    }
  }

  /** The largest block id in use, for "ids keep increasing after the switch". */
  static long maxBlockId(DistributedFileSystem fs, Path... files) throws IOException {
    long max = Long.MIN_VALUE;
    for (Path p : files) {
      for (LocatedBlock lb : fs.getClient().getLocatedBlocks(p.toString(), 0).getLocatedBlocks()) {
        max = Math.max(max, lb.getBlock().getBlockId());
      }
    }
    return max;
  }

  /** A new file after the switch gets a block id and generation stamp above every earlier one. */
  static void assertNewBlockAbove(DistributedFileSystem fs, long maxId) throws IOException {
    Path p = new Path(ROOT, "after-switch-" + System.nanoTime());
    try (FSDataOutputStream out = fs.create(p)) {
      out.write(NamespaceOpsTestBase.data(10, 11));
    }
    long id = fs.getClient().getLocatedBlocks(p.toString(), 0).get(0).getBlock().getBlockId();
    assertTrue("new block id " + id + " not above " + maxId, id > maxId);
    assertEquals(10, fs.getFileStatus(p).getLen());
  }

  Path[] closedFiles() {
    return contents.keySet().toArray(new Path[0]);
  }
}
