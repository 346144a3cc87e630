package org.apache.hadoop.hdfs.server.namenode;

import java.io.IOException;

import org.apache.hadoop.conf.Configuration;

/**
 * Builds the FSNamesystem of a NameNode in NVM mode (called by {@link NvmHooks}).
 * Placeholder until the NVM namesystem lands: refuses to start.
 */
final class NvmNamesystemLoader {
  private NvmNamesystemLoader() {
  }

  static FSNamesystem load(NameNode nn, Configuration conf) throws IOException {
    throw new IOException("NVM mode (dfs.namenode.nvm.enabled=true) is not available in this build yet");
  }
}
