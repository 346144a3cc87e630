package org.apache.hadoop.hdfs.server.namenode.nvm;

/**
 * Test access to the native crash hook for tests outside this package (the offline tools' crash
 * images).
 */
public final class CrashHook {
  private CrashHook() {}

  /**
   * Simulates a crash at the n-th persist barrier from now; writes prefix.lost and prefix.present.
   */
  public static void crashAt(Region region, long n, String snapshotPrefix) throws NvmException {
    region.debugCrashAt(n, snapshotPrefix);
  }
}
