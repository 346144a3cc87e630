package org.nvmnn.it.core;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.fail;

import java.io.IOException;
import java.util.EnumSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.crypto.CryptoProtocolVersion;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;
import org.apache.hadoop.hdfs.protocol.NSQuotaExceededException;
import org.apache.hadoop.io.EnumSetWritable;
import org.apache.hadoop.ipc.RemoteException;
import org.junit.Test;
import org.nvmnn.it.NvmCluster;

/**
 * Two calls the differential RPC fuzzer found (docs/bad-input.md, "Stock restart bugs") after which
 * the stock 2.7.3 NameNode's restart does not bring back what it served, because its edit log does
 * not say what it did in memory. The NVM NameNode persists the state it serves, so its restart
 * brings back exactly that:
 *
 * <ul>
 *   <li>a create with OVERWRITE that removes the old file and is then refused (a namespace quota
 *       already exceeded): the old file is gone in memory, and stock logs nothing, so its restart
 *       brings the file back; the NVM NameNode commits the removal when the write lock is released
 *       ({@code NvmWriteThrough.endOfWriteOperation}), with the parent's mtime;
 *   <li>setOwner with an empty group: stock sets the group to "" in memory, but its edit-log replay
 *       reads an empty group as "unchanged".
 * </ul>
 *
 * Each test runs the calls on one NameNode, restarts it and compares what it serves. A third
 * finding was the NVM NameNode's alone: directories came back from the region with access time 0.
 */
public class RestartKeepsWhatWasServedTest {

  private static MiniDFSCluster start(boolean nvm) throws Exception {
    Configuration conf = NamespaceOpsTestBase.conf(nvm);
    conf.set(
        MiniDFSCluster.HDFS_MINIDFS_BASEDIR,
        NamespaceOpsTestBase.baseDir(RestartKeepsWhatWasServedTest.class) + "-" + nvm);
    MiniDFSCluster cluster = NvmCluster.builder(conf, 1).build();
    cluster.waitActive();
    return cluster;
  }

  /** /q holds a, b and f; its namespace quota (2) is below its use (4); create f with overwrite. */
  private static void failedOverwrite(DistributedFileSystem fs) throws Exception {
    fs.mkdirs(new Path("/q"));
    for (String n : new String[] {"a", "b", "f"}) {
      fs.create(new Path("/q/" + n)).close();
    }
    fs.setQuota(new Path("/q"), 2, HdfsConstants.QUOTA_DONT_SET);
    Thread.sleep(5); // the removal's mtime must differ from the creates'
    ClientProtocol nn = fs.getClient().getNamenode();
    try {
      nn.create(
          "/q/f",
          FsPermission.getFileDefault(),
          "overwriter",
          new EnumSetWritable<>(EnumSet.of(CreateFlag.CREATE, CreateFlag.OVERWRITE)),
          true,
          (short) 1,
          1 << 20,
          CryptoProtocolVersion.supported());
      fail("the create should be refused by the namespace quota");
    } catch (RemoteException e) {
      assertEquals(NSQuotaExceededException.class.getName(), e.getClassName());
    }
  }

  @Test(timeout = 300_000)
  public void nvmARemovalByAFailedOverwriteSurvivesTheRestart() throws Exception {
    MiniDFSCluster cluster = start(true);
    try {
      DistributedFileSystem fs = cluster.getFileSystem();
      failedOverwrite(fs);
      assertNull("the refused create removed the old file", fs.getClient().getFileInfo("/q/f"));
      NvmCluster.Snapshot before = NvmCluster.snapshot(fs, "/q");
      cluster.restartNameNode(true);
      fs = cluster.getFileSystem();
      assertNull("still removed after the restart", fs.getClient().getFileInfo("/q/f"));
      NvmCluster.assertSameNamespace(
          "/q (with the mtime the removal gave it)", before, NvmCluster.snapshot(fs, "/q"));
    } finally {
      cluster.shutdown();
    }
  }

  @Test(timeout = 300_000)
  public void stockBringsBackTheFileAFailedOverwriteRemoved() throws Exception {
    MiniDFSCluster cluster = start(false);
    try {
      DistributedFileSystem fs = cluster.getFileSystem();
      failedOverwrite(fs);
      assertNull(fs.getClient().getFileInfo("/q/f"));
      cluster.restartNameNode(true);
      assertNotNull(
          "stock 2.7.3 logs nothing for the removal",
          cluster.getFileSystem().getFileStatus(new Path("/q/f")));
    } finally {
      cluster.shutdown();
    }
  }

  private static String groupAfterEmptyGroupAndRestart(boolean nvm) throws Exception {
    MiniDFSCluster cluster = start(nvm);
    try {
      DistributedFileSystem fs = cluster.getFileSystem();
      fs.mkdirs(new Path("/g"));
      fs.getClient().getNamenode().setOwner("/g", "someone", "");
      assertEquals("", fs.getFileStatus(new Path("/g")).getGroup());
      cluster.restartNameNode(true);
      return cluster.getFileSystem().getFileStatus(new Path("/g")).getGroup();
    } finally {
      cluster.shutdown();
    }
  }

  private static long dirAtimeAfterRestart(boolean nvm, long atime) throws Exception {
    MiniDFSCluster cluster = start(nvm);
    try {
      DistributedFileSystem fs = cluster.getFileSystem();
      fs.mkdirs(new Path("/t/sub"));
      fs.setTimes(new Path("/t"), -1, atime);
      fs.setTimes(new Path("/"), -1, atime + 1);
      assertEquals(atime, fs.getFileStatus(new Path("/t")).getAccessTime());
      cluster.restartNameNode(true);
      fs = cluster.getFileSystem();
      assertEquals(
          "the root's access time", atime + 1, fs.getFileStatus(new Path("/")).getAccessTime());
      return fs.getFileStatus(new Path("/t")).getAccessTime();
    } finally {
      cluster.shutdown();
    }
  }

  /** Found by the fuzzer: the rebuild made directories (and the root) with access time 0. */
  @Test(timeout = 300_000)
  public void aDirectorysAccessTimeSurvivesTheRestartInBothModes() throws Exception {
    long atime = 1_234_567_890_123L;
    assertEquals("stock (edit-log replay)", atime, dirAtimeAfterRestart(false, atime));
    assertEquals("nvm (the directory's page)", atime, dirAtimeAfterRestart(true, atime));
  }

  /** [file length, last block complete ? 1 : 0] of /c/f, before and after a restart. */
  private static long[] lastBlockAcrossRestart(boolean nvm) throws Exception {
    MiniDFSCluster cluster = start(nvm);
    FSDataOutputStream out = null;
    try {
      DistributedFileSystem fs = cluster.getFileSystem();
      Path f = new Path("/c/f");
      try (FSDataOutputStream o = fs.create(f)) {
        o.write(new byte[100]);
      }
      // open for append without a new block yet: under construction, last block complete
      out = fs.append(f, EnumSet.of(CreateFlag.APPEND, CreateFlag.NEW_BLOCK), 4096, null);
      LocatedBlocks before = fs.getClient().getLocatedBlocks("/c/f", 0);
      cluster.restartNameNode(true);
      LocatedBlocks after = cluster.getFileSystem().getClient().getLocatedBlocks("/c/f", 0);
      return new long[] {
        before.getFileLength(),
        before.isLastBlockComplete() ? 1 : 0,
        after.getFileLength(),
        after.isLastBlockComplete() ? 1 : 0
      };
    } finally {
      if (out != null) {
        try {
          out.close();
        } catch (IOException e) {
          // the test is over
        }
      }
      cluster.shutdown();
    }
  }

  /**
   * Found by the fuzzer: a file under construction whose last block is complete (append with
   * NEW_BLOCK) came back from the region with that block under construction, so its length and the
   * quota counts of its directories differed from the stock NameNode's.
   */
  @Test(timeout = 300_000)
  public void aCompleteLastBlockOfAnOpenFileStaysCompleteInBothModes() throws Exception {
    long[] want = {100, 1, 100, 1};
    assertArrayEquals("stock (edit-log replay)", want, lastBlockAcrossRestart(false));
    assertArrayEquals("nvm (FI_UC bit 31)", want, lastBlockAcrossRestart(true));
  }

  /**
   * Whether a 1 MiB block still fits into /b (DISK quota 1.5 MiB, empty) after a restart, with a 1
   * MiB file in /a, which a restart's quota walk meets before /b.
   */
  private static boolean blockFitsUnderTypeQuotaAfterRestart(boolean nvm) throws Exception {
    MiniDFSCluster cluster = start(nvm);
    try {
      DistributedFileSystem fs = cluster.getFileSystem();
      fs.setStoragePolicy(new Path("/"), "HOT"); // type space is counted under a set policy only
      try (FSDataOutputStream o = fs.create(new Path("/a/f"), true, 4096, (short) 1, 1 << 20)) {
        o.write(new byte[1 << 20]);
      }
      fs.mkdirs(new Path("/b"));
      fs.setQuotaByStorageType(new Path("/b"), StorageType.DISK, 3 << 19);
      cluster.restartNameNode(true);
      fs = cluster.getFileSystem();
      try (FSDataOutputStream o = fs.create(new Path("/b/g"), true, 4096, (short) 1, 1 << 20)) {
        o.write(new byte[100]);
      } catch (IOException e) {
        if (String.valueOf(e.getMessage()).contains("Quota by storage type")) {
          return false;
        }
        throw e;
      }
      return true;
    } finally {
      cluster.shutdown();
    }
  }

  /**
   * The fuzzer's open storage-type quota divergence, narrowed: 2.7.3's restart stores the quota
   * walk's running storage-type total in each quota directory
   * (FSImage.updateCountForQuotaRecursively), so /b's cached DISK usage includes /a's file and the
   * stock NameNode refuses a block that fits; the NVM rebuild stores /b's own usage (0) and accepts
   * it.
   */
  @Test(timeout = 300_000)
  public void typeQuotaUsageAfterRestartStockOvercountsNvmDoesNot() throws Exception {
    assertEquals("stock", false, blockFitsUnderTypeQuotaAfterRestart(false));
    assertEquals("nvm", true, blockFitsUnderTypeQuotaAfterRestart(true));
  }

  @Test(timeout = 300_000)
  public void nvmAnEmptyGroupSurvivesTheRestart() throws Exception {
    assertEquals("", groupAfterEmptyGroupAndRestart(true));
  }

  @Test(timeout = 300_000)
  public void stockForgetsAnEmptyGroupAtItsRestart() throws Exception {
    assertEquals("supergroup", groupAfterEmptyGroupAndRestart(false));
  }
}
