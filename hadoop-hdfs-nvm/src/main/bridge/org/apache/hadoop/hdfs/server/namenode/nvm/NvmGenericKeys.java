package org.apache.hadoop.hdfs.server.namenode.nvm;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DFSUtil;

/**
 * Resolves the NVM keys of one NameNode in a federated (or HA-configured) cluster, the way the
 * stock {@code NameNode.initializeGenericKeys} resolves its own NameNode-specific keys: for every
 * key of {@link NvmConfigKeys#NAMENODE_SPECIFIC_KEYS}, {@code <key>.<nameserviceId>.<namenodeId>}
 * if set, else {@code <key>.<nameserviceId>} if set, is copied to {@code <key>}. The stock list is
 * fixed in the upstream NameNode, so the NVM hooks call this before reading any NVM key.
 */
public final class NvmGenericKeys {
  private NvmGenericKeys() {}

  /**
   * Resolves the keys for the NameNode {@code conf} belongs to: its nameservice and NameNode ids
   * are the ones the NameNode's constructor put into {@code conf} ({@code dfs.nameservice.id},
   * {@code dfs.ha.namenode.id}). Without a nameservice id nothing changes. Idempotent.
   */
  public static void initialize(Configuration conf) {
    initialize(
        conf,
        conf.getTrimmed(DFSConfigKeys.DFS_NAMESERVICE_ID),
        conf.getTrimmed(DFSConfigKeys.DFS_HA_NAMENODE_ID_KEY));
  }

  /**
   * Resolves the keys for nameservice {@code nsId} and NameNode {@code nnId} (either may be null).
   */
  public static void initialize(Configuration conf, String nsId, String nnId) {
    if (nsId == null || nsId.isEmpty()) {
      return;
    }
    DFSUtil.setGenericConf(
        conf,
        nsId,
        nnId == null || nnId.isEmpty() ? null : nnId,
        NvmConfigKeys.NAMENODE_SPECIFIC_KEYS);
  }
}
