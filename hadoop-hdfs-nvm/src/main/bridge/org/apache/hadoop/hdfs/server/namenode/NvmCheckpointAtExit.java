package org.apache.hadoop.hdfs.server.namenode;

import java.io.File;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.hadoop.hdfs.server.namenode.nvm.NvmException;
import org.apache.hadoop.hdfs.server.namenode.nvm.Region;
import org.apache.hadoop.util.ShutdownHookManager;

/**
 * Disk mode: a checkpoint when the JVM shuts down. A NameNode stopped with SIGTERM (how {@code
 * hadoop-daemon.sh stop} stops it) exits through the JVM's shutdown hooks without closing its
 * namesystem, so its region is never closed and the next start would replay the whole log since the
 * last checkpoint (up to the checkpoint size). The checkpoint is an ordinary one, taken as the
 * checkpointer takes them while commits go on: what commits after it is in the log and replayed.
 * The hook and the region's close hold the same monitor, so it never runs on a closed region.
 */
final class NvmCheckpointAtExit implements Runnable {
  private static final Log LOG = LogFactory.getLog(NvmCheckpointAtExit.class);

  /** Before the file systems' hook (10): the region is a local file, it needs none of them. */
  static final int PRIORITY = 30;

  private final Object monitor;
  private final File file;
  private final Region region;

  private NvmCheckpointAtExit(Object monitor, File file, Region region) {
    this.monitor = monitor;
    this.file = file;
    this.region = region;
  }

  /** Registers the hook for a disk-mode region (none otherwise); null when none was registered. */
  static NvmCheckpointAtExit register(Object monitor, File file, Region region) {
    if (region.isReadOnly() || region.logStats() == null) {
      return null;
    }
    NvmCheckpointAtExit hook = new NvmCheckpointAtExit(monitor, file, region);
    ShutdownHookManager.get().addShutdownHook(hook, PRIORITY);
    return hook;
  }

  /** At the region's close (under the monitor): the close checkpoints itself. */
  void remove() {
    try {
      ShutdownHookManager.get().removeShutdownHook(this);
    } catch (IllegalStateException e) {
      // the JVM is shutting down: the hook runs (or ran) and finds the region closed
    }
  }

  @Override
  public void run() {
    synchronized (monitor) {
      if (region.isClosed()) {
        return;
      }
      try {
        region.checkpoint();
        LOG.info(
            "NVM region "
                + file
                + ": checkpoint at JVM shutdown (the next start replays only what commits after"
                + " it)");
      } catch (NvmException | RuntimeException e) {
        LOG.warn("NVM region " + file + ": no checkpoint at JVM shutdown: " + e.getMessage());
      }
    }
  }
}
