package org.nvmnn.workload;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The files that killed writers ({@link AbandonedWriter}) left open, and the rule every NameNode
 * restart is held to: each such file must be closed by the NameNode's own lease recovery — nobody
 * calls recoverLease on it — within {@code deadlineMs} after the restart, with exactly the bytes
 * its writer hflushed. A writer killed before kill {@code k} has its files due from epoch {@code k}
 * (the restart that follows kill k) on.
 *
 * <p>The deadline counts from the moment the restart is announced (the NameNode answers, has left
 * safe mode and sees the DataNode). A restart resets the lease clocks (the stock NameNode renews
 * every lease it loads; the NVM rebuild does the same), so a file still open when the NameNode is
 * killed again is due anew after the next restart; that is counted as an interrupted deadline, not
 * a failure. A file found closed at the first look after a restart was recovered before the kill
 * (its writer died early enough for the hard limit to pass while the NameNode still ran) or in the
 * moment between the end of safe mode and the look.
 *
 * <p>Pure state: the namespace is asked through {@link Namespace}, time and epochs are arguments,
 * so the rules are unit-tested ({@code AbandonedFilesTest}).
 */
final class AbandonedFiles {
  /** What the checker needs from the NameNode. */
  interface Namespace {
    /** Null if the path does not exist, else whether the file is closed. */
    Boolean closed(String path) throws IOException;

    /** Length and CRC32 of the file's bytes as read back through the DataNodes. */
    long[] lengthAndCrc(String path) throws IOException;
  }

  enum Verdict {
    PENDING,
    /** closed by lease recovery after a restart, within the deadline, the hflushed bytes */
    CLOSED_AFTER_RESTART,
    /**
     * already closed at the first look after the restart that made it due: lease recovery closed it
     * before the kill (its writer died a hard limit or more before it), or in the moment between
     * the end of safe mode and the look
     */
    CLOSED_AT_FIRST_LOOK,
    /** still open when the deadline passed, the NameNode up all the time */
    NOT_CLOSED_IN_TIME,
    WRONG_CONTENT,
    ABSENT,
    /** the check could not run (the NameNode did not come back before the run ended) */
    NOT_CHECKED
  }

  static final class Entry {
    final int writer;
    final String path;
    final long length;
    final long crc;
    Verdict verdict = Verdict.PENDING;

    /** Time from the announcement of the deciding restart to the look that found it closed. */
    long closedAfterMs = -1;

    int interruptedDeadlines;

    /** The epoch in which the verdict was reached. */
    long decidedEpoch = -1;

    String detail = "";
    private long lastEpoch = -1;
    private boolean lookedInEpoch;

    Entry(int writer, String path, long length, long crc) {
      this.writer = writer;
      this.path = path;
      this.length = length;
      this.crc = crc;
    }

    boolean failed() {
      return verdict == Verdict.NOT_CLOSED_IN_TIME
          || verdict == Verdict.WRONG_CONTENT
          || verdict == Verdict.ABSENT
          || verdict == Verdict.NOT_CHECKED;
    }

    @Override
    public String toString() {
      return "w" + writer + " " + path + " " + length + "B " + verdict + " " + detail;
    }
  }

  private final long deadlineMs;
  private final List<Entry> entries = new ArrayList<>();

  AbandonedFiles(long deadlineMs) {
    this.deadlineMs = deadlineMs;
  }

  long deadlineMs() {
    return deadlineMs;
  }

  /** A killed writer's manifest: lines "path TAB length TAB crc32". */
  void addManifest(int writer, List<String> lines) {
    for (String l : lines) {
      if (l.trim().isEmpty()) {
        continue;
      }
      String[] p = l.split("\t");
      entries.add(new Entry(writer, p[0], Long.parseLong(p[1]), Long.parseLong(p[2])));
    }
  }

  List<Entry> entries() {
    return Collections.unmodifiableList(entries);
  }

  /**
   * One look at every file due in {@code epoch} and not decided yet, at time {@code now}; the epoch
   * was announced at {@code epochStart}. Returns the entries decided by this look. An IOException
   * (the NameNode went down meanwhile) leaves the rest pending: the caller waits for the next
   * epoch.
   */
  List<Entry> poll(long epoch, long epochStart, long now, Namespace ns) throws IOException {
    List<Entry> decided = new ArrayList<>();
    for (Entry e : entries) {
      if (e.verdict != Verdict.PENDING || e.writer > epoch) {
        continue;
      }
      if (e.lastEpoch != epoch) {
        if (e.lastEpoch >= 0) {
          e.interruptedDeadlines++; // killed again before the deadline: due anew
        }
        e.lastEpoch = epoch;
        e.lookedInEpoch = false;
      }
      boolean firstLook = !e.lookedInEpoch;
      Boolean closed = ns.closed(e.path);
      e.lookedInEpoch = true;
      if (closed == null) {
        e.verdict = Verdict.ABSENT;
        e.detail = "the file is gone";
      } else if (closed) {
        long[] lc = ns.lengthAndCrc(e.path);
        if (lc[0] != e.length || lc[1] != e.crc) {
          e.verdict = Verdict.WRONG_CONTENT;
          e.detail =
              "closed with "
                  + lc[0]
                  + " bytes (crc "
                  + lc[1]
                  + "), the writer hflushed "
                  + e.length;
        } else if (firstLook && e.interruptedDeadlines == 0) {
          e.verdict = Verdict.CLOSED_AT_FIRST_LOOK;
          e.detail = "closed at the first look after restart " + epoch;
        } else {
          e.verdict = Verdict.CLOSED_AFTER_RESTART;
          e.closedAfterMs = now - epochStart;
          e.detail = "closed " + e.closedAfterMs + " ms after restart " + epoch;
        }
      } else if (now - epochStart > deadlineMs) {
        e.verdict = Verdict.NOT_CLOSED_IN_TIME;
        e.detail = "still open " + (now - epochStart) + " ms after restart " + epoch;
      } else {
        continue;
      }
      e.decidedEpoch = epoch;
      decided.add(e);
    }
    return decided;
  }

  /** True if every file due by {@code epoch} is decided. */
  boolean settledThrough(long epoch) {
    for (Entry e : entries) {
      if (e.writer <= epoch && e.verdict == Verdict.PENDING) {
        return false;
      }
    }
    return true;
  }

  int count(Verdict v) {
    int n = 0;
    for (Entry e : entries) {
      n += e.verdict == v ? 1 : 0;
    }
    return n;
  }

  int failures() {
    int n = 0;
    for (Entry e : entries) {
      n += e.failed() ? 1 : 0;
    }
    return n;
  }

  int interruptedDeadlines() {
    int n = 0;
    for (Entry e : entries) {
      n += e.interruptedDeadlines;
    }
    return n;
  }

  /** The entries decided in {@code epoch}. */
  List<Entry> decidedIn(long epoch) {
    List<Entry> d = new ArrayList<>();
    for (Entry e : entries) {
      if (e.decidedEpoch == epoch) {
        d.add(e);
      }
    }
    return d;
  }

  /** Pending entries due by {@code epoch}, given up on (the NameNode did not come back). */
  int giveUp(long epoch, String why) {
    int n = 0;
    for (Entry e : entries) {
      if (e.writer <= epoch && e.verdict == Verdict.PENDING) {
        e.verdict = Verdict.NOT_CHECKED;
        e.detail = why;
        e.decidedEpoch = epoch;
        n++;
      }
    }
    return n;
  }

  /** Times (ms after the restart) of the files closed after a restart, sorted. */
  List<Long> closeTimes() {
    List<Long> t = new ArrayList<>();
    for (Entry e : entries) {
      if (e.verdict == Verdict.CLOSED_AFTER_RESTART) {
        t.add(e.closedAfterMs);
      }
    }
    Collections.sort(t);
    return t;
  }
}
