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

/** An HA configuration with NVM mode on is refused at start-up, before the namesystem loads. */
public class NvmHaRefusedTest {
  /** A NameNode that never becomes active (DataNodes cannot register) would otherwise hang waitActive. */
  @ClassRule
  public static final Timeout TIMEOUT = Timeout.seconds(120);

  @Test
  public void haConfigurationIsRefusedInNvmMode() throws Exception {
    Configuration conf = NvmCluster.nvmConf();
    int loads = NvmHooks.loadNamesystemCalls();
    MiniDFSCluster cluster = null;
    try {
      cluster = NvmCluster.builder(conf, 0).nnTopology(MiniDFSNNTopology.simpleHATopology()).build();
      fail("an HA MiniDFSCluster started in NVM mode");
    } catch (Exception e) {
      String m = messages(e);
      assertTrue("unexpected failure: " + m, m.contains("NVM NameNode: HA is not supported")
          && m.contains("dfs.namenode.nvm.enabled=true"));
    } finally {
      if (cluster != null) {
        cluster.shutdown();
      }
    }
    assertEquals("the first NameNode went through the hook and stopped there", loads + 1,
        NvmHooks.loadNamesystemCalls());
  }

  private static String messages(Throwable t) {
    StringBuilder s = new StringBuilder();
    for (Throwable c = t; c != null; c = c.getCause()) {
      s.append(c).append(" <- ");
    }
    return s.toString();
  }
}
