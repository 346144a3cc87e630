package org.nvmnn.workload;

import static org.junit.Assert.assertEquals;

import org.apache.hadoop.conf.Configuration;
import org.junit.Test;

public class ClientConfTest {
  @Test
  public void oneNameNodeIsNamedWithItsAddress() {
    Configuration conf = new Configuration(false);
    conf.set("fs.defaultFS", "hdfs://127.0.0.1:8020");
    assertEquals(
        "hdfs://127.0.0.1:8020 (one NameNode, no call re-sent)", ClientConf.describe(conf));
  }

  @Test
  public void aNameserviceIsNamedWithItsProviderAndFailoverSettings() {
    Configuration conf = new Configuration(false);
    conf.set("fs.defaultFS", "hdfs://ha");
    conf.set(
        "dfs.client.failover.proxy.provider.ha",
        "org.apache.hadoop.hdfs.server.namenode.ha.ConfiguredFailoverProxyProvider");
    conf.set("dfs.client.failover.max.attempts", "60");
    conf.set("dfs.client.failover.sleep.base.millis", "100");
    conf.set("dfs.client.failover.sleep.max.millis", "1000");
    assertEquals(
        "hdfs://ha (HA: ConfiguredFailoverProxyProvider, failover attempts 60, sleep 100-1000 ms)",
        ClientConf.describe(conf));
  }

  @Test
  public void unsetFailoverSettingsShowTheStockDefaults() {
    Configuration conf = new Configuration(false);
    conf.set("fs.defaultFS", "hdfs://ns");
    conf.set("dfs.client.failover.proxy.provider.ns", "a.b.SomeProvider");
    assertEquals(
        "hdfs://ns (HA: SomeProvider, failover attempts 15, sleep 500-15000 ms)",
        ClientConf.describe(conf));
  }
}
