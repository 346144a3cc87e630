package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import java.io.File;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;

/** The result of {@link RegionCheck#run}: every finding, sorted by offset, and a summary. */
public final class CheckReport {
  /** Exit code: consistent, nothing for recovery to do. */
  public static final int EXIT_CLEAN = 0;

  /** Exit code: at least one ERROR, or the native open refused the file. */
  public static final int EXIT_ERROR = 1;

  /** Exit code: no ERROR, but the next read-write open will repair something. */
  public static final int EXIT_NEEDS_RECOVERY = 2;

  private static final Comparator<Finding> BY_OFFSET =
      new Comparator<Finding>() {
        @Override
        public int compare(Finding a, Finding b) {
          int c = Long.compare(a.offset(), b.offset());
          if (c == 0) {
            c = a.kind().compareTo(b.kind());
          }
          return c != 0 ? c : a.message().compareTo(b.message());
        }
      };

  private final File file;
  private final List<Finding> findings;
  private final String summary;

  CheckReport(File file, List<Finding> findings, String summary) {
    this.file = file;
    List<Finding> sorted = new ArrayList<Finding>(findings);
    Collections.sort(sorted, BY_OFFSET);
    this.findings = Collections.unmodifiableList(sorted);
    this.summary = summary;
  }

  public File file() {
    return file;
  }

  public List<Finding> findings() {
    return findings;
  }

  public int count(Finding.Severity severity) {
    int n = 0;
    for (Finding f : findings) {
      n += f.severity() == severity ? 1 : 0;
    }
    return n;
  }

  /** No ERROR (a refused file has one). */
  public boolean isConsistent() {
    return count(Finding.Severity.ERROR) == 0;
  }

  /** Any RECOVERABLE finding: the next read-write open will change the region. */
  public boolean needsRecovery() {
    return count(Finding.Severity.RECOVERABLE) > 0;
  }

  /** Whether the native open refused the file (then there is nothing else to report). */
  public boolean isRefused() {
    for (Finding f : findings) {
      if (f.kind() == Finding.Kind.REFUSED) {
        return true;
      }
    }
    return false;
  }

  public int exitCode() {
    if (!isConsistent()) {
      return EXIT_ERROR;
    }
    return needsRecovery() ? EXIT_NEEDS_RECOVERY : EXIT_CLEAN;
  }

  private String verdict() {
    switch (exitCode()) {
      case EXIT_CLEAN:
        return "consistent";
      case EXIT_NEEDS_RECOVERY:
        return "consistent, needs recovery";
      default:
        return isRefused() ? "refused" : "INCONSISTENT";
    }
  }

  /**
   * One line per finding, then "summary: ..." with the counts, the region's shape and the verdict.
   */
  public String format() {
    StringBuilder b = new StringBuilder();
    for (Finding f : findings) {
      b.append(f.format()).append('\n');
    }
    int e = count(Finding.Severity.ERROR);
    int r = count(Finding.Severity.RECOVERABLE);
    b.append("summary: ")
        .append(file)
        .append(": ")
        .append(e)
        .append(e == 1 ? " error, " : " errors, ")
        .append(r)
        .append(" recoverable; ");
    if (summary != null) {
      b.append(summary).append("; ");
    }
    b.append(verdict()).append(" (exit ").append(exitCode()).append(")\n");
    return b.toString();
  }

  @Override
  public String toString() {
    return format();
  }
}
