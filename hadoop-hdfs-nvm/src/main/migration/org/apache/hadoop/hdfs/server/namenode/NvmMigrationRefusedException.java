package org.apache.hadoop.hdfs.server.namenode;

import java.io.IOException;

/**
 * The import or export cannot be done for a reason that lies in its input (a feature the region
 * cannot hold, a region in the way, a region too small, a verification that failed). Whatever the
 * tool had written is removed before this is thrown; the message says what to do.
 */
final class NvmMigrationRefusedException extends IOException {
  private static final long serialVersionUID = 1L;

  NvmMigrationRefusedException(String message) {
    super(message);
  }
}
