package org.apache.hadoop.hdfs.server.namenode;

import java.io.File;
import java.util.function.Consumer;

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

  /** Whether {@code nn} runs in NVM mode (its image is the region's). */
  public static boolean isNvm(NameNode nn) {
    return nn.getNamesystem().getFSImage() instanceof NvmFSImage;
  }

  /** Transaction id of the fsimage {@code nn} loaded or saved last. */
  public static long mostRecentCheckpointTxId(NameNode nn) {
    return nn.getNamesystem().getFSImage().getStorage().getMostRecentCheckpointTxId();
  }

  /** Runs {@code hook} on the region the import wrote, before it verifies it (null: none). */
  public static void beforeImportVerifies(Consumer<File> hook) {
    NvmImport.beforeVerify = hook;
  }
}
