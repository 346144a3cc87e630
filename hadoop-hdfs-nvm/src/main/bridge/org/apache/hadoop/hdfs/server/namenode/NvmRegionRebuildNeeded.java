package org.apache.hadoop.hdfs.server.namenode;

import java.io.IOException;

/**
 * HA only: the NameNode has no region it may serve (none yet after -bootstrapStandby, or one set
 * aside as ahead of the journal quorum or too far behind it) and builds one from the newest fsimage
 * and the shared journal before it loads again ({@link NvmNamesystemLoader}, docs/ha.md).
 */
final class NvmRegionRebuildNeeded extends IOException {
  private static final long serialVersionUID = 1L;

  NvmRegionRebuildNeeded(String why) {
    super(why);
  }
}
