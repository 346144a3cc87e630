package org.nvmnn.workload.stream;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import java.util.Arrays;
import java.util.Collection;
import java.util.Map;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;
import org.nvmnn.it.NvmCluster;

/**
 * The benchmark suite's streaming driver against a MiniDFSCluster (stock and NVM NameNode, one
 * DataNode): it measures, every NameNode RPC it names is timed, and the namespace it leaves is the
 * one its cycle implies (per client: only the last --keep part files, each of --bytes bytes, no tmp
 * file).
 */
@RunWith(Parameterized.class)
public class StreamingWorkloadClusterTest {
  private static final int THREADS = 3;
  private static final int KEEP = 4;
  private static final int BYTES = 300;

  @Parameters(name = "nvm={0}")
  public static Collection<Object[]> modes() {
    return Arrays.asList(new Object[][] {{false}, {true}});
  }

  private final boolean nvm;

  public StreamingWorkloadClusterTest(boolean nvm) {
    this.nvm = nvm;
  }

  @Test
  public void measuresEveryRpcAndLeavesTheKeptFiles() throws Exception {
    Configuration conf = nvm ? NvmCluster.nvmConf() : new HdfsConfiguration();
    MiniDFSCluster cluster = NvmCluster.buildOrSkipIfPlaceholder(NvmCluster.builder(conf, 1));
    try {
      Configuration client = new Configuration(cluster.getConfiguration(0));
      FileSystem.setDefaultUri(client, cluster.getURI());
      StreamingWorkload.Result r =
          StreamingWorkload.run(client, THREADS, 1, 3, BYTES, KEEP, "/stream");
      assertNull(String.valueOf(r.failure), r.failure);
      assertTrue("no file completed in the window", r.files > 0);
      Map<String, long[]> lat = r.latencies;
      for (String op :
          new String[] {"create", "addBlock", "complete", "rename", "delete", "file"}) {
        assertTrue(
            op + " not timed: " + lat.keySet(), lat.containsKey(op) && lat.get(op).length > 0);
      }
      assertEquals(r.files, lat.get("file").length);
      assertTrue(lat.get("complete").length >= lat.get("addBlock").length);
      DistributedFileSystem fs = cluster.getFileSystem();
      for (int t = 0; t < THREADS; t++) {
        FileStatus[] st = fs.listStatus(new Path("/stream/c" + t));
        TreeSet<Long> parts = new TreeSet<>();
        for (FileStatus s : st) {
          String name = s.getPath().getName();
          assertFalse("left behind: " + s.getPath(), name.startsWith("tmp-"));
          assertEquals(s.getPath().toString(), BYTES, s.getLen());
          parts.add(Long.parseLong(name.substring("part-".length())));
        }
        assertTrue("client " + t + " kept " + parts, parts.size() == KEEP || parts.first() == 0);
        assertEquals(
            "client " + t + " parts not consecutive: " + parts,
            parts.size() - 1,
            parts.last() - parts.first());
      }
    } finally {
      cluster.shutdown();
    }
  }
}
