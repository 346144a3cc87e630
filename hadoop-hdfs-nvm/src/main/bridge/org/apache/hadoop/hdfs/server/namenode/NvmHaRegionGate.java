package org.apache.hadoop.hdfs.server.namenode;

import java.io.File;
import java.io.IOException;
import org.apache.commons.logging.Log;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.server.namenode.nvm.NvmConfigKeys;
import org.apache.hadoop.hdfs.server.namenode.nvm.Region;

/**
 * HA at start-up (docs/ha.md): whether the region this NameNode kept may be served, decided against
 * the shared journal before the namesystem is built ({@link NvmFSImage#haPrecheck}).
 */
final class NvmHaRegionGate {
  private static final Log LOG = NvmFSImage.LOG; // its lines have always been the image's

  private NvmHaRegionGate() {}

  /**
   * HA: the region may be served only if it holds a prefix of what the journal quorum committed
   * ({@link NvmHaRegionCheck}). A region ahead of the quorum, or one the journal can no longer
   * bring forward, is closed, set aside ({@code <region>.set-aside}, replacing an older one) and
   * rebuilt ({@link NvmRegionRebuildNeeded}); while the segment this NameNode last wrote as active
   * is not finalized (no NameNode became active since), it waits {@link
   * NvmConfigKeys#NVM_HA_UNDECIDED_WAIT_KEY} for the other NameNode's transition to recover it,
   * then recovers it itself ({@link #recoverJournal}).
   */
  static void requireServable(
      Region region, File file, FSEditLog editLog, NNStorage storage, Configuration conf)
      throws IOException {
    long writer = NvmHaWriterMark.segment(storage);
    editLog.initSharedJournalsForRead();
    long waitMs =
        conf.getLong(
            NvmConfigKeys.NVM_HA_UNDECIDED_WAIT_KEY, NvmConfigKeys.NVM_HA_UNDECIDED_WAIT_DEFAULT);
    long start = System.nanoTime();
    long lastLog = 0;
    boolean recovered = false;
    while (true) {
      NvmHaRegionCheck.Result r = NvmHaRegionCheck.check(editLog, region.lastTxId(), writer);
      switch (r.verdict) {
        case SERVABLE:
          if (writer >= 0) {
            NvmHaWriterMark.segmentEnded(storage); // decided: the region is within the quorum
          }
          LOG.info("NVM region " + file + " is servable with HA: " + r.detail);
          return;
        case AHEAD:
        case GAP:
          region.close();
          File aside = new File(file.getPath() + ".set-aside");
          java.nio.file.Files.move(
              file.toPath(), aside.toPath(), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
          NvmHaWriterMark.segmentEnded(storage);
          throw new NvmRegionRebuildNeeded(
              "region " + file + " not servable (" + r + "); set aside as " + aside);
        case UNDECIDED:
        default:
          long waited = (System.nanoTime() - start) / 1_000_000;
          if (waited > waitMs && !recovered) {
            recoverJournal(editLog, r);
            recovered = true;
            continue;
          }
          if (waited - lastLog >= 10_000 || lastLog == 0) {
            LOG.info("NVM NameNode: waiting for the shared journal to decide: " + r.detail);
            lastLog = Math.max(waited, 1);
          }
          try {
            Thread.sleep(1000);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("waiting for the shared journal");
          }
      }
    }
  }

  /**
   * Nobody recovered the segment this NameNode was writing as active (the other NameNode is down,
   * or not made active): this NameNode runs the journal's recovery itself, the one a transition to
   * active runs first (a new writer epoch, then the unfinalized segment ended where a quorum has
   * it). The epoch keeps it safe if the other NameNode's transition runs at the same time: the
   * journal accepts only the newest writer, and a transition fenced here is retried by its ZKFC.
   */
  private static void recoverJournal(FSEditLog editLog, NvmHaRegionCheck.Result r)
      throws IOException {
    LOG.info(
        "NVM NameNode: no NameNode recovered the shared journal's last segment ("
            + r.detail
            + "); recovering it, as a transition to active does");
    editLog.close();
    editLog.initJournalsForWrite();
    editLog.recoverUnclosedStreams();
    editLog.close();
    editLog.initSharedJournalsForRead();
  }
}
