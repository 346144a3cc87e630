package org.apache.hadoop.hdfs.server.namenode;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.hadoop.util.ExitUtil;

/**
 * The failure policy of the write-through: a namespace change that cannot be persisted after the
 * namesystem changed memory cannot be undone, so the NameNode stops instead of acknowledging an
 * operation a restart would lose. Whatever a client can cause must be refused before memory changes
 * (at the RPC layer, {@link NvmRpcServer}); reaching this is a bug or a broken region.
 */
final class WriteThroughFailure {
  static final Log LOG = LogFactory.getLog(WriteThroughFailure.class);

  private WriteThroughFailure() {}

  /** Logs and stops the NameNode; {@code what} names the change that could not be persisted. */
  static void stop(String what, Throwable cause) {
    String msg =
        "NVM NameNode: could not persist "
            + what
            + " to the region; the in-memory namespace "
            + "already changed, so the NameNode stops instead of acknowledging an operation that would be lost"
            + (cause == null ? "" : ": " + cause);
    LOG.fatal(msg, cause);
    ExitUtil.terminate(1, msg);
    throw new IllegalStateException(msg, cause); // terminate may be disabled in tests
  }
}
