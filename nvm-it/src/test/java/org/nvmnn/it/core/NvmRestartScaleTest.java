package org.nvmnn.it.core;

import static org.junit.Assert.assertEquals;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.junit.Test;
import org.nvmnn.it.NvmCluster;

/**
 * Restart of a larger namespace (20,000 empty files in 100 directories): the rebuilt namespace
 * equals the one before, also with the children indexed on several threads (NVM), and the time is
 * printed (NameNode restart as MiniDFSCluster sees it; the NameNode logs the region scan and
 * rebuild split).
 */
public class NvmRestartScaleTest {
  @Test
  public void twentyThousandFilesSurviveRestart() throws IOException {
    for (boolean nvm : new boolean[] {true, false}) {
      Configuration conf = NamespaceOpsTestBase.conf(nvm);
      conf.set(
          MiniDFSCluster.HDFS_MINIDFS_BASEDIR,
          NamespaceOpsTestBase.baseDir(NvmRestartScaleTest.class) + (nvm ? "/nvm" : "/stock"));
      MiniDFSCluster c = new MiniDFSCluster.Builder(conf).numDataNodes(0).build();
      try {
        DistributedFileSystem fs = c.getFileSystem();
        long t0 = System.nanoTime();
        for (int d = 0; d < 100; d++) {
          for (int f = 0; f < 200; f++) {
            fs.create(
                    new Path("/scale/d" + d + "/f" + f),
                    true,
                    4096,
                    (short) 1,
                    NamespaceOpsTestBase.BLOCK)
                .close();
          }
        }
        long createMs = (System.nanoTime() - t0) / 1000000;
        NvmCluster.Snapshot before = NvmCluster.snapshot(fs, "/scale").ignoring("atime");
        assertEquals(20101, before.size());
        long t1 = System.nanoTime();
        c.restartNameNode(true);
        long restartMs = (System.nanoTime() - t1) / 1000000;
        fs = c.getFileSystem();
        NvmCluster.assertSameNamespace(
            "20k files", before, NvmCluster.snapshot(fs, "/scale").ignoring("atime"));
        System.out.println(
            (nvm ? "NVM" : "stock")
                + ": 20,100 inodes created in "
                + createMs
                + " ms; NameNode restart "
                + restartMs
                + " ms");
        if (nvm) { // again with the children indexed on a pool of threads (by default only from
          // 100k files)
          c.getConfiguration(0).setInt("dfs.namenode.nvm.rebuild.threads", 3);
          c.restartNameNode(true);
          NvmCluster.assertSameNamespace(
              "20k files, 3 index threads",
              before,
              NvmCluster.snapshot(c.getFileSystem(), "/scale").ignoring("atime"));
        }
      } finally {
        c.shutdown();
      }
    }
  }
}
