package org.nvmnn.it.core;

import static org.junit.Assert.assertTrue;

import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.server.namenode.NvmTestAccess;
import org.apache.hadoop.hdfs.server.namenode.nvm.Region;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionStats;
import org.junit.Test;
import org.nvmnn.it.NvmCluster;

/**
 * Measurement, not part of {@code make test} (an IT, run with {@code -Dtest=BatchBytesIT}): what
 * each client operation makes the NVM NameNode persist — batches (nvm_apply calls), their bytes,
 * undo-logged batches and persist barriers — counted by the region itself over {@code N} operations
 * of each kind on a MiniDFSCluster. These are counts, the same on every run; they are the input of
 * docs/ha.md's estimate of what shipping region deltas to a standby would cost.
 */
public class BatchBytesIT {
  private static final int N = 200;

  private interface Op {
    void run(int i) throws Exception;
  }

  @Test(timeout = 600_000)
  public void printBatchBytesPerOperation() throws Exception {
    Configuration conf = NvmCluster.nvmConf();
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, NamespaceOpsTestBase.baseDir(BatchBytesIT.class));
    MiniDFSCluster cluster = NvmCluster.buildOrSkipIfPlaceholder(NvmCluster.builder(conf, 1));
    try {
      final DistributedFileSystem fs = cluster.getFileSystem();
      Region region = NvmTestAccess.region(cluster.getNameNode());
      fs.mkdirs(new Path("/a"));
      fs.mkdirs(new Path("/b"));
      final byte[] block = new byte[1024];
      System.out.println(
          String.format(
              Locale.ROOT,
              "%-44s %9s %11s %9s %11s %9s",
              "operation (" + N + " each)",
              "persists",
              "bytes",
              "undo-log",
              "barriers",
              "bytes/op"));
      measure(region, "mkdirs /a/dI", i -> fs.mkdirs(new Path("/a/d" + i)));
      measure(region, "create + close, empty /a/fI", i -> fs.create(new Path("/a/f" + i)).close());
      measure(
          region,
          "create + write 1 KiB (1 block) + close /a/gI",
          i -> {
            try (FSDataOutputStream out = fs.create(new Path("/a/g" + i))) {
              out.write(block);
            }
          });
      measure(
          region, "setTimes (mtime) /a/fI", i -> fs.setTimes(new Path("/a/f" + i), 1000L + i, -1));
      measure(
          region,
          "setPermission /a/fI",
          i -> fs.setPermission(new Path("/a/f" + i), new FsPermission((short) 0600)));
      measure(
          region, "setReplication /a/gI", i -> fs.setReplication(new Path("/a/g" + i), (short) 2));
      measure(
          region,
          "rename in a directory /a/fI -> /a/hI",
          i -> fs.rename(new Path("/a/f" + i), new Path("/a/h" + i)));
      measure(
          region,
          "rename across directories /a/hI -> /b/hI",
          i -> fs.rename(new Path("/a/h" + i), new Path("/b/h" + i)));
      measure(region, "delete a file /b/hI", i -> fs.delete(new Path("/b/h" + i), false));
      measure(
          region, "delete a file with a block /a/gI", i -> fs.delete(new Path("/a/g" + i), false));
      measure(
          region, "delete an empty directory /a/dI", i -> fs.delete(new Path("/a/d" + i), true));
    } finally {
      cluster.shutdown();
    }
  }

  private static void measure(Region region, String what, Op op) throws Exception {
    RegionStats s = region.stats();
    long p = s.persists(),
        b = s.persistBytes(),
        u = s.undoLoggedPersists(),
        bar = region.barrierCount();
    for (int i = 0; i < N; i++) {
      op.run(i);
    }
    long dp = s.persists() - p, db = s.persistBytes() - b, du = s.undoLoggedPersists() - u;
    long dbar = region.barrierCount() - bar;
    assertTrue(what + ": every operation persisted something", dp >= N);
    System.out.println(
        String.format(
            Locale.ROOT,
            "%-44s %9.2f %11d %9.2f %11.2f %9.1f",
            what,
            (double) dp / N,
            db,
            (double) du / N,
            (double) dbar / N,
            (double) db / N));
  }
}
