package org.apache.hadoop.hdfs.server.namenode.nvm;

import static org.junit.Assert.*;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.junit.Test;

/**
 * Per-nameservice and per-NameNode NVM keys resolve as HDFS resolves its NameNode-specific keys.
 */
public class NvmGenericKeysTest {
  private static final String PATH = NvmConfigKeys.NVM_REGION_PATH_KEY;

  private static Configuration conf() {
    Configuration c = new Configuration(false);
    c.set(PATH, "/plain.region");
    c.set(PATH + ".ns1", "/ns1.region");
    c.set(PATH + ".ns1.nn2", "/ns1-nn2.region");
    c.set(NvmConfigKeys.NVM_ENABLED_KEY + ".ns2", "true");
    c.set(NvmConfigKeys.NVM_REGION_SIZE_KEY + ".ns2", "2g");
    return c;
  }

  @Test
  public void theMostSpecificKeyWins() {
    Configuration c = conf();
    NvmGenericKeys.initialize(c, "ns1", "nn2");
    assertEquals("/ns1-nn2.region", c.get(PATH));
    c = conf();
    NvmGenericKeys.initialize(c, "ns1", "nn1");
    assertEquals("no key for nn1: the nameservice's", "/ns1.region", c.get(PATH));
    c = conf();
    NvmGenericKeys.initialize(c, "ns1", null);
    assertEquals("/ns1.region", c.get(PATH));
    c = conf();
    NvmGenericKeys.initialize(c, "ns3", null);
    assertEquals("nothing for ns3: the plain key stays", "/plain.region", c.get(PATH));
  }

  @Test
  public void everyNvmKeyCanBeSetPerNameservice() {
    Configuration c = conf();
    NvmGenericKeys.initialize(c, "ns2", null);
    assertTrue(c.getBoolean(NvmConfigKeys.NVM_ENABLED_KEY, false));
    assertEquals(2L << 30, c.getLongBytes(NvmConfigKeys.NVM_REGION_SIZE_KEY, 0));
    assertEquals("/plain.region", c.get(PATH));
    for (String k : NvmConfigKeys.NAMENODE_SPECIFIC_KEYS) {
      Configuration d = new Configuration(false);
      d.set(k + ".nsX", "v");
      NvmGenericKeys.initialize(d, "nsX", null);
      assertEquals(k, "v", d.get(k));
    }
  }

  @Test
  public void readsTheIdsTheNameNodePutIntoItsConfiguration() {
    Configuration c = conf();
    NvmGenericKeys.initialize(c);
    assertEquals("no nameservice id: unchanged", "/plain.region", c.get(PATH));
    c.set(DFSConfigKeys.DFS_NAMESERVICE_ID, "ns1");
    c.set(DFSConfigKeys.DFS_HA_NAMENODE_ID_KEY, "nn2");
    NvmGenericKeys.initialize(c);
    assertEquals("/ns1-nn2.region", c.get(PATH));
    NvmGenericKeys.initialize(c);
    assertEquals("idempotent", "/ns1-nn2.region", c.get(PATH));
  }

  @Test
  public void coversEveryKeyOfNvmConfigKeys() throws Exception {
    java.util.Set<String> all = new java.util.TreeSet<>();
    for (java.lang.reflect.Field f : NvmConfigKeys.class.getFields()) {
      if (f.getName().endsWith("_KEY")) {
        all.add((String) f.get(null));
      }
    }
    assertEquals(
        all,
        new java.util.TreeSet<>(java.util.Arrays.asList(NvmConfigKeys.NAMENODE_SPECIFIC_KEYS)));
  }
}
