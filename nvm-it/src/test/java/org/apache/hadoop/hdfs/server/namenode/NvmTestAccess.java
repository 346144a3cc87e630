package org.apache.hadoop.hdfs.server.namenode;

import java.io.File;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.hadoop.hdfs.server.namenode.nvm.Region;

/**
 * Test access to package-private NVM NameNode state (the way upstream tests use NameNodeAdapter):
 * lives in the NameNode's package, on the test class path only.
 */
public final class NvmTestAccess {
  private NvmTestAccess() {}

  /** The region of a NameNode running in NVM mode in this JVM. */
  public static Region region(NameNode nn) {
    return writeThrough(nn).store().region();
  }

  private static NvmWriteThrough writeThrough(NameNode nn) {
    FSImage image = nn.getNamesystem().getFSImage();
    if (!(image instanceof NvmFSImage) || ((NvmFSImage) image).writeThrough() == null) {
      throw new IllegalStateException("NameNode is not in NVM mode: " + image.getClass().getName());
    }
    return ((NvmFSImage) image).writeThrough();
  }

  /** Counters of the slim namespace: files materialized from pages, and page reads. */
  public static long materialized(NameNode nn) {
    return writeThrough(nn).slim().materialized();
  }

  public static long pageReads(NameNode nn) {
    return writeThrough(nn).slim().pageReads();
  }

  /** Inode cache: objects held, evictions so far, capacity. */
  public static int cachedFiles(NameNode nn) {
    return (int) writeThrough(nn).slim().cache().size();
  }

  /**
   * Whether inode {@code id} has an object in the inode cache (looked at without materializing).
   */
  public static boolean isCached(NameNode nn, long id) {
    return writeThrough(nn).slim().cachedFile(id) != null;
  }

  public static long cacheEvictions(NameNode nn) {
    return writeThrough(nn).slim().cache().evictions();
  }

  /** True when the directory at {@code path} is a slim (indexed) directory. */
  public static boolean isSlimDirectory(NameNode nn, String path) throws java.io.IOException {
    return nn.getNamesystem().getFSDirectory().getINode(path) instanceof NvmINodeDirectory;
  }

  /** The class of the collection the BlocksMap holds for the file's first block. */
  public static Class<?> firstBlockCollectionClass(NameNode nn, String path)
      throws java.io.IOException {
    INodeFile f = nn.getNamesystem().getFSDirectory().getINode(path).asFile();
    return f.getBlocks()[0].getBlockCollection().getClass();
  }

  /** Whether {@code nn} runs in NVM mode (its image is the region's). */
  public static boolean isNvm(NameNode nn) {
    return nn.getNamesystem().getFSImage() instanceof NvmFSImage;
  }

  /** Transaction id of the fsimage {@code nn} loaded or saved last. */
  public static long mostRecentCheckpointTxId(NameNode nn) {
    return nn.getNamesystem().getFSImage().getStorage().getMostRecentCheckpointTxId();
  }

  /**
   * Frees the strings no inode refers to any more (kept for reuse), as a clean stop or a nearly
   * full region does: one batch, under the namesystem's write lock. Returns how many.
   */
  /** Holds the region's commits back until closed (InodeStore#pauseCommits). */
  public static AutoCloseable pauseCommits(NameNode nn) {
    return writeThrough(nn).store().pauseCommits();
  }

  public static int reclaimIdleStrings(NameNode nn) throws java.io.IOException {
    FSNamesystem fsn = nn.getNamesystem();
    fsn.writeLock();
    try {
      return writeThrough(nn).store().reclaimIdleStrings();
    } finally {
      fsn.writeUnlock();
    }
  }

  /** Runs {@code hook} on the region the import wrote, before it verifies it (null: none). */
  public static void beforeImportVerifies(Consumer<File> hook) {
    NvmImport.beforeVerify = hook;
  }

  /**
   * Puts retry cache entries for create calls ({@code clientId}, {@code callIds[i]}) that made
   * inode {@code inodeIds[i]} in progress and starts answering them, as a restart does with the
   * create entries of its retry log (NvmRetryAnswers). Returns the handle for {@link
   * #stopAnswering} and {@link #answersDone}.
   */
  public static Object answerCreatesInBackground(
      NameNode nn, byte[] clientId, int[] callIds, long[] inodeIds) {
    FSNamesystem fsn = nn.getNamesystem();
    java.util.List<NvmRetryLog.Entry> entries = new java.util.ArrayList<>();
    for (int i = 0; i < callIds.length; i++) {
      entries.add(
          new NvmRetryLog.Entry(
              i + 1,
              clientId,
              callIds[i],
              org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.RETRY_CREATE,
              inodeIds[i],
              System.currentTimeMillis()));
    }
    return NvmRetryAnswers.start(fsn, fsn.getRetryCache(), entries, TimeUnit.MINUTES.toNanos(10));
  }

  public static void stopAnswering(Object answers) {
    ((NvmRetryAnswers) answers).stop();
  }

  /** Whether every entry of {@code answers} is complete (answered or failed). */
  public static boolean answersDone(Object answers) {
    return ((NvmRetryAnswers) answers).isDone();
  }

  /** Whether the answers of the retry log's restored create/append entries are all computed. */
  public static boolean restoredAnswersDone(NameNode nn) {
    NvmRetryAnswers a = writeThrough(nn).retryLog().answers();
    return a == null || a.isDone();
  }
}
