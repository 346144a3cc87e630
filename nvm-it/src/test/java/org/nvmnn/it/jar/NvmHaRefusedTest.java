package org.nvmnn.it.jar;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.MiniDFSNNTopology;
import org.apache.hadoop.hdfs.server.namenode.NvmHooks;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.Timeout;
import org.nvmnn.it.NvmCluster;

/**
 * An HA configuration with NVM mode on is refused at start-up, before the namesystem loads: the
 * message says why and points at docs/ha.md, and no region is created.
 */
public class NvmHaRefusedTest {
  /**
   * A NameNode that never becomes active (DataNodes cannot register) would otherwise hang
   * waitActive.
   */
  @ClassRule public static final Timeout TIMEOUT = Timeout.seconds(120);

  @Test
  public void haConfigurationIsRefusedInNvmMode() throws Exception {
    Configuration conf = NvmCluster.nvmConf();
    java.io.File base =
        new java.io.File(
            System.getProperty("test.build.data", "target/test-dir"),
            "NvmHaRefusedTest-"
                + java.lang.management.ManagementFactory.getRuntimeMXBean()
                    .getName()
                    .replaceAll("[^0-9A-Za-z]", "_"));
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, base.getAbsolutePath());
    int loads = NvmHooks.loadNamesystemCalls();
    MiniDFSCluster cluster = null;
    try {
      cluster =
          NvmCluster.builder(conf, 0).nnTopology(MiniDFSNNTopology.simpleHATopology()).build();
      fail("an HA MiniDFSCluster started in NVM mode");
    } catch (Exception e) {
      String m = messages(e);
      assertTrue(
          "unexpected failure: " + m,
          m.contains("NVM NameNode: HA is not supported")
              && m.contains("dfs.namenode.nvm.enabled=true")
              && m.contains("docs/ha.md"));
    } finally {
      if (cluster != null) {
        cluster.shutdown();
      }
    }
    assertEquals(
        "the first NameNode went through the hook and stopped there",
        loads + 1,
        NvmHooks.loadNamesystemCalls());
    assertTrue(
        "the name directories were formatted",
        new java.io.File(base, "name1/current/VERSION").isFile());
    assertEquals("no region was created anywhere", 0, regions(base));
  }

  private static int regions(java.io.File f) {
    java.io.File[] kids = f.listFiles();
    int n = f.getName().endsWith(".region") ? 1 : 0;
    if (kids != null) {
      for (java.io.File k : kids) {
        n += regions(k);
      }
    }
    return n;
  }

  private static String messages(Throwable t) {
    StringBuilder s = new StringBuilder();
    for (Throwable c = t; c != null; c = c.getCause()) {
      s.append(c).append(" <- ");
    }
    return s.toString();
  }
}
