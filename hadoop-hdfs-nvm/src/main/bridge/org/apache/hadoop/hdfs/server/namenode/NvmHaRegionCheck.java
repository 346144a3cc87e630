package org.apache.hadoop.hdfs.server.namenode;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Whether an HA NameNode's region may be served: it must hold exactly a prefix of the edits the
 * journal quorum committed (docs/ha.md, "A region ahead of the quorum"). Only the finalized
 * segments of the shared journal are read: 2.7.3's JournalNodes report a segment still in progress
 * with the highest transaction id each has written, which a quorum may not have accepted.
 */
final class NvmHaRegionCheck {
  enum Verdict {
    /** The region holds a prefix of the committed edits; the journal has every edit after it. */
    SERVABLE,
    /** The region holds edits the quorum did not commit: it must not be served. */
    AHEAD,
    /** The segment this NameNode wrote as active is not finalized yet: nobody recovered it. */
    UNDECIDED,
    /** The journal no longer has the edits needed to decide or to catch up (purged). */
    GAP
  }

  static final class Result {
    final Verdict verdict;
    final String detail;

    Result(Verdict verdict, String detail) {
      this.verdict = verdict;
      this.detail = detail;
    }

    @Override
    public String toString() {
      return verdict + ": " + detail;
    }
  }

  private NvmHaRegionCheck() {}

  /**
   * @param regionTxId the last transaction whose change the region holds
   * @param writerSegment the segment this NameNode was writing as active when it stopped ({@link
   *     NvmHaWriterMark}), -1 if it ended every segment it wrote
   */
  static Result check(FSEditLog journal, long regionTxId, long writerSegment) throws IOException {
    if (writerSegment >= 0) {
      List<EditLogInputStream> after = finalized(journal, writerSegment);
      if (after.isEmpty()) {
        return new Result(
            Verdict.UNDECIDED,
            "the segment starting at transaction "
                + writerSegment
                + ", which this NameNode wrote as active, is not finalized in the shared journal:"
                + " no NameNode became active since (its transition recovers the segment)");
      }
      EditLogInputStream first = after.get(0);
      if (first.getFirstTxId() != writerSegment) {
        return new Result(
            Verdict.GAP,
            "the shared journal no longer has the segment starting at transaction "
                + writerSegment
                + " (the oldest finalized one there starts at "
                + first.getFirstTxId()
                + ")");
      }
      long committed = first.getLastTxId();
      if (regionTxId > committed) {
        return new Result(
            Verdict.AHEAD,
            "the region holds transactions up to "
                + regionTxId
                + ", the quorum committed its segment "
                + writerSegment
                + " only up to "
                + committed
                + ": "
                + (regionTxId - committed)
                + " edit(s) were never acknowledged");
      }
    }
    List<EditLogInputStream> next = finalized(journal, regionTxId + 1);
    if (!next.isEmpty() && next.get(0).getFirstTxId() > regionTxId + 1) {
      return new Result(
          Verdict.GAP,
          "the region holds transactions up to "
              + regionTxId
              + ", the shared journal's oldest finalized segment after it starts at "
              + next.get(0).getFirstTxId()
              + " (the edits in between were purged)");
    }
    return new Result(Verdict.SERVABLE, "the region holds transactions up to " + regionTxId);
  }

  /** The finalized segments of the shared journal holding {@code fromTxId} or later, in order. */
  private static List<EditLogInputStream> finalized(FSEditLog journal, long fromTxId)
      throws IOException {
    List<EditLogInputStream> streams = new ArrayList<>();
    journal.selectInputStreams(streams, fromTxId, false);
    try {
      List<EditLogInputStream> copy = new ArrayList<>(streams);
      copy.sort((a, b) -> Long.compare(a.getFirstTxId(), b.getFirstTxId()));
      return copy;
    } finally {
      FSEditLog.closeAllStreams(streams);
    }
  }
}
