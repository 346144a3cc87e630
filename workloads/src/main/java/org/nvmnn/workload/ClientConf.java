package org.nvmnn.workload;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.HdfsConfiguration;

/**
 * Client configuration that makes a call to a dead NameNode fail at once instead of being retried
 * for minutes (2.7.3 defaults: 10 connect retries 1 s apart, 45 on timeouts, 20 s connect timeout).
 * With dfs.client.retry.policy.enabled=false (its default, set here to be explicit) a non-HA
 * ClientProtocol proxy uses TRY_ONCE_THEN_FAIL, so the only retries left are the connection
 * retries, set to zero. The cluster's own files (core-site.xml, hdfs-site.xml on the class path)
 * give the NameNode address.
 *
 * <p>With HA (fs.defaultFS names a nameservice) none of this changes the stock client: the failover
 * proxy provider sets the connection retries from dfs.client.failover.connection.retries (0), and
 * its retry policy (dfs.client.failover.max.attempts and sleep times, from the cluster's
 * hdfs-site.xml) fails over to the other NameNode and re-sends idempotent and at-most-once calls,
 * as every HA client does.
 */
final class ClientConf {
  private ClientConf() {}

  static Configuration failFast() {
    Configuration conf = new HdfsConfiguration();
    conf.setInt("ipc.client.connect.max.retries", 0);
    conf.setInt("ipc.client.connect.max.retries.on.timeouts", 0);
    conf.setInt("ipc.client.connect.timeout", 2000);
    conf.setBoolean("dfs.client.retry.policy.enabled", false);
    // a safety net only: a live NameNode that stops answering fails the call after 2 minutes
    conf.setInt("ipc.client.rpc-timeout.ms", 120000);
    return conf;
  }

  /** fs.defaultFS and, for a nameservice, its proxy provider and failover settings: one line. */
  static String describe(Configuration conf) {
    String fs = conf.get("fs.defaultFS");
    String ns = java.net.URI.create(fs).getHost();
    String provider = conf.get("dfs.client.failover.proxy.provider." + ns);
    if (provider == null) {
      return fs + " (one NameNode, no call re-sent)";
    }
    return fs
        + " (HA: "
        + provider.substring(provider.lastIndexOf('.') + 1)
        + ", failover attempts "
        + conf.get("dfs.client.failover.max.attempts", "15")
        + ", sleep "
        + conf.get("dfs.client.failover.sleep.base.millis", "500")
        + "-"
        + conf.get("dfs.client.failover.sleep.max.millis", "15000")
        + " ms)";
  }
}
