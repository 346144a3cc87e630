package org.nvmnn.it.ha;

import java.io.File;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.qjournal.MiniQJMHACluster;
import org.apache.hadoop.hdfs.server.namenode.ha.HATestUtil;
import org.apache.hadoop.hdfs.server.namenode.nvm.NvmConfigKeys;
import org.junit.rules.ExternalResource;
import org.nvmnn.it.NvmCluster;

/**
 * Two NVM NameNodes as an HA pair over a real quorum journal (MiniQJMHACluster: three
 * JournalNodes), NameNode 0 made active; shut down after the test (a JUnit rule). {@link #conf}
 * first, optionally changed, then {@link #start}.
 */
final class HaPair extends ExternalResource {
  static final int BLOCK = 1024 * 1024;
  private final String name;
  private Configuration conf;
  private MiniQJMHACluster qjm;

  HaPair(String name) {
    this.name = name;
  }

  /** The pair's configuration: NVM mode, small blocks, ACLs on, a 1 s tail period. */
  Configuration conf() {
    if (conf == null) {
      conf = NvmCluster.nvmConf();
      conf.setLong(DFSConfigKeys.DFS_BLOCK_SIZE_KEY, BLOCK);
      conf.setLong(DFSConfigKeys.DFS_NAMENODE_MIN_BLOCK_SIZE_KEY, 0);
      conf.setInt(DFSConfigKeys.DFS_BYTES_PER_CHECKSUM_KEY, 512);
      conf.setInt(DFSConfigKeys.DFS_REPLICATION_KEY, 1);
      conf.setInt(DFSConfigKeys.DFS_HEARTBEAT_INTERVAL_KEY, 1);
      conf.setBoolean(DFSConfigKeys.DFS_NAMENODE_ACLS_ENABLED_KEY, true);
      // snapshots on the NVM NameNodes too (docs/snapshots.md, the preview)
      conf.setBoolean(NvmConfigKeys.NVM_SNAPSHOTS_PREVIEW_KEY, true);
      conf.setInt(DFSConfigKeys.DFS_NAMENODE_SAFEMODE_EXTENSION_KEY, 0);
      conf.setInt(DFSConfigKeys.DFS_HA_TAILEDITS_PERIOD_KEY, 1);
      conf.set(
          MiniDFSCluster.HDFS_MINIDFS_BASEDIR,
          new File(
                  System.getProperty("test.build.data", "target/test-dir"),
                  "HaPair-"
                      + java.lang.management.ManagementFactory.getRuntimeMXBean()
                          .getName()
                          .replaceAll("[^0-9A-Za-z]", "_")
                      + "/"
                      + name)
              .getAbsolutePath());
    }
    return conf;
  }

  /** Starts the journal and both NameNodes (and {@code dataNodes}); NameNode 0 becomes active. */
  MiniDFSCluster start(int dataNodes) throws Exception {
    MiniQJMHACluster.Builder b = new MiniQJMHACluster.Builder(conf());
    b.getDfsBuilder().numDataNodes(dataNodes);
    qjm = b.build();
    qjm.getDfsCluster().transitionToActive(0);
    return qjm.getDfsCluster();
  }

  MiniQJMHACluster qjm() {
    return qjm;
  }

  /** A client of the nameservice through the failover proxy provider. */
  DistributedFileSystem client() throws Exception {
    return (DistributedFileSystem) HATestUtil.configureFailoverFs(qjm.getDfsCluster(), conf());
  }

  static File nameDir(MiniDFSCluster c, int nn) {
    return new File(c.getNameDirs(nn).iterator().next());
  }

  /** NameNode {@code nn}'s region (the default place: its first name directory). */
  static File region(MiniDFSCluster c, int nn) {
    return new File(nameDir(c, nn), "current/nvm-namespace.region");
  }

  @Override
  protected void after() {
    if (qjm != null) {
      try {
        qjm.shutdown();
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    }
  }
}
