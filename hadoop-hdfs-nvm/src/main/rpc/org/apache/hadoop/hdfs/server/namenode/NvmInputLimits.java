package org.apache.hadoop.hdfs.server.namenode;

import org.apache.hadoop.hdfs.server.namenode.nvm.InodeLimits;

/**
 * The region format's limits on values a client sends, checked at the RPC boundary before the
 * namesystem changes anything (docs/bad-input.md, "Limits of the region"). The write-through checks
 * the same limits ({@link InodeLimits}) but only after memory changed, where a refusal has to stop
 * the NameNode; every value that can reach it from a client is checked here first.
 */
final class NvmInputLimits {
  private NvmInputLimits() {}

  /** A preferred block size the file header's 48 bits hold. */
  static void checkBlockSize(String what, String path, long blockSize)
      throws NvmRegionLimitException {
    if (blockSize > InodeLimits.BLOCK_SIZE_MAX) {
      throw exceeded(
          what, path, "preferred block size " + blockSize, InodeLimits.BLOCK_SIZE_MAX, "48 bits");
    }
  }

  /** A replication factor the file header's 12 bits hold. */
  static void checkReplication(String what, String path, short replication)
      throws NvmRegionLimitException {
    if (replication > InodeLimits.REPLICATION_MAX) {
      throw exceeded(
          what, path, "replication " + replication, InodeLimits.REPLICATION_MAX, "12 bits");
    }
  }

  private static NvmRegionLimitException exceeded(
      String what, String path, String value, long limit, String field) {
    return new NvmRegionLimitException(
        "NVM NameNode: cannot "
            + what
            + " "
            + path
            + ": "
            + value
            + " exceeds the region's limit of "
            + limit
            + " ("
            + field
            + " of the file header); the namespace was not changed");
  }
}
