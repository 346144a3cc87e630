package org.nvmnn.workload;

import java.io.IOException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;

/**
 * Closes a file a kill left under construction: recoverLease, then wait until the NameNode reports
 * it closed (block recovery goes through the DataNode's heartbeat, a few seconds). recoverLease is
 * repeated every 20 s, as clients of HDFS do, in case a recovery attempt is lost.
 */
public final class LeaseRecovery {
  private LeaseRecovery() {}

  public static void ensureClosed(DistributedFileSystem fs, Path p, long timeoutMs)
      throws IOException {
    if (fs.isFileClosed(p)) {
      return;
    }
    long deadline = System.currentTimeMillis() + timeoutMs;
    long nextRecover = 0;
    while (true) {
      long now = System.currentTimeMillis();
      if (now >= nextRecover) {
        if (fs.recoverLease(p)) {
          return;
        }
        nextRecover = now + 20000;
      }
      sleep(500);
      if (fs.isFileClosed(p)) {
        return;
      }
      if (System.currentTimeMillis() > deadline) {
        throw new IOException("lease of " + p + " not recovered within " + timeoutMs + " ms");
      }
    }
  }

  private static void sleep(long ms) throws IOException {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }
}
