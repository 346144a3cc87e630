package org.apache.hadoop.hdfs.server.namenode;

import org.apache.hadoop.hdfs.server.namenode.nvm.Region;

/**
 * Test access to package-private NVM NameNode state (the way upstream tests use
 * NameNodeAdapter): lives in the NameNode's package, on the test class path only.
 */
public final class NvmTestAccess {
  private NvmTestAccess() {
  }

  /** The region of a NameNode running in NVM mode in this JVM. */
  public static Region region(NameNode nn) {
    FSImage image = nn.getNamesystem().getFSImage();
    if (!(image instanceof NvmFSImage) || ((NvmFSImage) image).namespace() == null) {
      throw new IllegalStateException("NameNode is not in NVM mode: " + image.getClass().getName());
    }
    return ((NvmFSImage) image).namespace().store().region();
  }
}
