package org.nvmnn.it.core;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import java.util.EnumSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.crypto.CryptoProtocolVersion;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DFSTestUtil;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.protocol.DirectoryListing;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.apache.hadoop.hdfs.server.namenode.NvmTestAccess;
import org.apache.hadoop.hdfs.server.protocol.NamenodeProtocols;
import org.apache.hadoop.io.EnumSetWritable;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;
import org.nvmnn.it.NvmCluster;

/**
 * The slim in-memory namespace on a running NVM NameNode with a 16-file inode cache: names are
 * looked up in the directory index without reading pages, a 100,000-child directory pages through
 * getListing correctly before and after a restart, closed files' blocks point at a ref (not a full
 * inode), and directories created at run time become indexed directories.
 */
public class SlimNamespaceTest {
  private static MiniDFSCluster cluster;

  @BeforeClass
  public static void start() throws Exception {
    Configuration conf = NamespaceOpsTestBase.conf(true);
    conf.set(
        MiniDFSCluster.HDFS_MINIDFS_BASEDIR, NamespaceOpsTestBase.baseDir(SlimNamespaceTest.class));
    conf.setInt("dfs.namenode.fs-limits.max-directory-items", 200000);
    cluster = NvmCluster.builder(conf, 1).build();
    cluster.waitActive();
  }

  @AfterClass
  public static void stop() {
    if (cluster != null) {
      cluster.shutdown();
    }
  }

  private static NameNode nn() {
    return cluster.getNameNode();
  }

  /** Creates and closes an empty file; returns its inode id. */
  private static long createEmpty(NamenodeProtocols rpc, String path) throws Exception {
    HdfsFileStatus st = open(rpc, path);
    rpc.complete(path, "slim", null, st.getFileId());
    return st.getFileId();
  }

  private static HdfsFileStatus open(NamenodeProtocols rpc, String path) throws Exception {
    return rpc.create(
        path,
        FsPermission.getFileDefault(),
        "slim",
        new EnumSetWritable<CreateFlag>(EnumSet.of(CreateFlag.CREATE)),
        true,
        (short) 1,
        1 << 20,
        CryptoProtocolVersion.supported());
  }

  @Test
  public void lookupOfAMissingNameReadsNoPage() throws Exception {
    NamenodeProtocols rpc = cluster.getNameNodeRpc();
    rpc.mkdirs("/lookup", FsPermission.getDirDefault(), true);
    for (int i = 0; i < 2000; i++) {
      createEmpty(rpc, "/lookup/file" + i);
    }
    long reads = NvmTestAccess.pageReads(nn());
    long made = NvmTestAccess.materialized(nn());
    for (int i = 0; i < 2000; i++) {
      assertNull(rpc.getFileInfo("/lookup/missing" + i));
      assertNull(rpc.getFileInfo("/lookup/file" + i + "x"));
      assertNull(rpc.getFileInfo("/lookup/nodir/file" + i));
    }
    assertEquals(
        "page reads for 6,000 lookups of missing names", reads, NvmTestAccess.pageReads(nn()));
    assertEquals(made, NvmTestAccess.materialized(nn()));
    // the counters do move: an existing file without a cached object is read from its page
    assertTrue(rpc.getFileInfo("/lookup/file7") != null);
    assertTrue(NvmTestAccess.pageReads(nn()) > reads);
    assertEquals(made + 1, NvmTestAccess.materialized(nn()));
    // reading more files than the cache holds evicts, and the cache stays within its capacity
    long evicted = NvmTestAccess.cacheEvictions(nn());
    for (int i = 0; i < 3 * NvmCluster.TEST_CACHE_INODES; i++) {
      assertTrue(rpc.getFileInfo("/lookup/file" + (100 + i)) != null);
    }
    assertTrue(NvmTestAccess.cachedFiles(nn()) <= NvmCluster.TEST_CACHE_INODES);
    assertTrue(NvmTestAccess.cacheEvictions(nn()) > evicted);
  }

  /**
   * A rename computes the moved subtree's quota usage under the write lock, reading every file in
   * it: the write operation evicts nothing, and the trim after it brings the cache back within its
   * capacity before the call returns.
   */
  @Test
  public void aWriteOperationReadingManyFilesIsTrimmedAfterIt() throws Exception {
    NamenodeProtocols rpc = cluster.getNameNodeRpc();
    rpc.mkdirs("/many/d", FsPermission.getDirDefault(), true);
    int n = 3 * NvmCluster.TEST_CACHE_INODES;
    for (int i = 0; i < n; i++) {
      createEmpty(rpc, "/many/d/f" + i);
    }
    long made = NvmTestAccess.materialized(nn());
    long evicted = NvmTestAccess.cacheEvictions(nn());
    assertTrue(rpc.rename("/many/d", "/many/e"));
    assertTrue("the rename read every file", NvmTestAccess.materialized(nn()) - made >= n);
    assertTrue(NvmTestAccess.cachedFiles(nn()) <= NvmCluster.TEST_CACHE_INODES);
    assertTrue(NvmTestAccess.cacheEvictions(nn()) - evicted >= n - NvmCluster.TEST_CACHE_INODES);
  }

  /**
   * A file its writer creates and closes leaves the inode cache when the closing operation ends (it
   * is pinned while open); the first lookup after the close materializes it from its page into the
   * cache, and the next one is a hit.
   */
  @Test
  public void aFileClosedWithoutBeingReadHoldsNoCacheEntry() throws Exception {
    NamenodeProtocols rpc = cluster.getNameNodeRpc();
    rpc.mkdirs("/closed", FsPermission.getDirDefault(), true);
    long open = open(rpc, "/closed/open").getFileId();
    long[] ids = new long[5];
    for (int i = 0; i < ids.length; i++) {
      ids[i] = createEmpty(rpc, "/closed/f" + i);
    }
    assertTrue("an open file is pinned", NvmTestAccess.isCached(nn(), open));
    for (long id : ids) {
      assertTrue("closed without being read: " + id, !NvmTestAccess.isCached(nn(), id));
    }
    long made = NvmTestAccess.materialized(nn());
    assertTrue(rpc.getFileInfo("/closed/f3") != null);
    assertEquals(made + 1, NvmTestAccess.materialized(nn()));
    assertTrue(NvmTestAccess.isCached(nn(), ids[3]));
    assertTrue(rpc.getFileInfo("/closed/f3") != null);
    assertEquals("a hit", made + 1, NvmTestAccess.materialized(nn()));
    rpc.complete("/closed/open", "slim", null, open);
    assertTrue(!NvmTestAccess.isCached(nn(), open));
  }

  private static int listAll(NamenodeProtocols rpc, String dir, int expected) throws Exception {
    int n = 0;
    byte[] after = HdfsFileStatus.EMPTY_NAME;
    String previous = null;
    DirectoryListing l;
    int pages = 0;
    do {
      l = rpc.getListing(dir, after, false);
      pages++;
      for (HdfsFileStatus s : l.getPartialListing()) {
        String name = s.getLocalName();
        // zero-padded names: the listing order is the numeric order
        assertEquals(String.format("c%06d", n), name);
        assertTrue(previous == null || previous.compareTo(name) < 0);
        previous = name;
        n++;
      }
      after = l.getLastName();
    } while (l.hasMore());
    assertEquals(expected, n);
    return pages;
  }

  @Test
  public void hundredThousandChildrenPageThroughListingAcrossARestart() throws Exception {
    NamenodeProtocols rpc = cluster.getNameNodeRpc();
    rpc.mkdirs("/wide", FsPermission.getDirDefault(), true);
    int n = 100000;
    // created in a scrambled order, so the index takes inserts everywhere, not only appends
    for (int i = 0; i < n; i++) {
      int k = (int) ((i * 7919L) % n);
      createEmpty(rpc, String.format("/wide/c%06d", k));
    }
    int pages = listAll(rpc, "/wide", n);
    assertTrue("paged: " + pages, pages >= n / 1000);
    // a cursor in the middle, and one after a name that does not exist
    DirectoryListing mid = rpc.getListing("/wide", "c050000".getBytes("UTF-8"), false);
    assertEquals("c050001", mid.getPartialListing()[0].getLocalName());
    DirectoryListing between = rpc.getListing("/wide", "c050000a".getBytes("UTF-8"), false);
    assertEquals("c050001", between.getPartialListing()[0].getLocalName());
    cluster.restartNameNode(true);
    rpc = cluster.getNameNodeRpc();
    listAll(rpc, "/wide", n);
    assertEquals(n, cluster.getFileSystem().getContentSummary(new Path("/wide")).getFileCount());
  }

  @Test
  public void closedFilesBlocksPointAtARefAndNewDirectoriesAreIndexed() throws Exception {
    DistributedFileSystem fs = cluster.getFileSystem();
    Path dir = new Path("/refs/a/b");
    assertTrue(fs.mkdirs(dir));
    Path f = new Path(dir, "data");
    FSDataOutputStream out = fs.create(f, (short) 1);
    out.write(new byte[3000]);
    out.hflush();
    // open: the INodeFile itself is the blocks' collection, and it is pinned
    assertEquals(
        "INodeFile", NvmTestAccess.firstBlockCollectionClass(nn(), f.toString()).getSimpleName());
    for (int i = 0; i < 200; i++) {
      createEmpty(cluster.getNameNodeRpc(), "/refs/evict" + i);
      // read after its close, so it enters the 16-file cache: floods it while the file is open
      assertTrue(cluster.getNameNodeRpc().getFileInfo("/refs/evict" + i) != null);
    }
    out.write(new byte[100]);
    out.close();
    assertEquals(
        "NvmFileRef", NvmTestAccess.firstBlockCollectionClass(nn(), f.toString()).getSimpleName());
    for (String d : new String[] {"/", "/refs", "/refs/a", "/refs/a/b"}) {
      assertTrue(d, NvmTestAccess.isSlimDirectory(nn(), d));
    }
    assertEquals(3100, DFSTestUtil.readFileBuffer(fs, f).length);
    // fsck by block id casts the collection to an INode; it must name the file
    String blockId =
        fs.getClient().getLocatedBlocks(f.toString(), 0).get(0).getBlock().getBlockName();
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    int rc =
        org.apache.hadoop.util.ToolRunner.run(
            new org.apache.hadoop.hdfs.tools.DFSck(
                cluster.getConfiguration(0), new java.io.PrintStream(bytes, true, "UTF-8")),
            new String[] {"/", "-blockId", blockId});
    String report = bytes.toString("UTF-8");
    assertEquals(report, 0, rc);
    assertTrue(report, report.contains("Block belongs to: " + f.toString()));
    cluster.restartNameNode(true);
    assertEquals(
        "NvmFileRef",
        NvmTestAccess.firstBlockCollectionClass(cluster.getNameNode(), f.toString())
            .getSimpleName());
    assertEquals(3100, DFSTestUtil.readFileBuffer(cluster.getFileSystem(), f).length);
  }
}
