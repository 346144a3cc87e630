package org.nvmnn.workload;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.zip.CRC32;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;

/**
 * A thread of the crash workload: after every restart, checks that the files killed writers left
 * open are closed by the NameNode's lease recovery within the deadline ({@link AbandonedFiles}). It
 * only looks (getFileInfo, isFileClosed, and a read once a file is closed): it never calls
 * recoverLease, so a file can only be closed by the NameNode's lease monitor.
 *
 * <p>Control files: the driver renames a killed writer's manifest to {@code killed-writer-<k>}
 * before kill {@code k}; this thread publishes {@code abandoned-checked} (the highest epoch all of
 * whose due files are decided) and {@code abandoned-<e>} (one line about the files decided in epoch
 * e). Its log lines go to the workload's {@code ops-abandoned.log}.
 */
final class AbandonedFileChecker implements Runnable {
  private static final long POLL_MS = 200;

  /** Longer than any gap between kills plus a restart. */
  private static final long EPOCH_WAIT_MS = 600000;

  final AbandonedFiles files;
  private final ControlDir control;
  private final java.nio.file.Path controlDir;
  private final DistributedFileSystem fs;
  private final OpLog log;
  private final Set<String> loaded = new HashSet<>();

  /** Calls that failed for another reason than an unavailable NameNode. */
  volatile int errors;

  volatile boolean finished;
  volatile Throwable fatal;

  AbandonedFileChecker(
      ControlDir control,
      java.nio.file.Path controlDir,
      DistributedFileSystem fs,
      OpLog log,
      long deadlineMs) {
    this.control = control;
    this.controlDir = controlDir;
    this.fs = fs;
    this.log = log;
    this.files = new AbandonedFiles(deadlineMs);
  }

  @Override
  public void run() {
    try {
      loop();
    } catch (Throwable t) {
      fatal = t;
      log.line(control.epoch(), "FATAL", Unavailability.describe(t));
    } finally {
      finished = true;
    }
  }

  private void loop() throws IOException, InterruptedException {
    AbandonedFiles.Namespace ns = new HdfsNamespace(fs);
    long epoch = -1;
    long epochStart = 0;
    long published = -1;
    while (true) {
      long e = control.epoch();
      if (e != epoch) {
        epoch = e;
        epochStart = System.currentTimeMillis();
      }
      loadManifests();
      try {
        for (AbandonedFiles.Entry d :
            files.poll(epoch, epochStart, System.currentTimeMillis(), ns)) {
          log.line(epoch, d.failed() ? "ABANDONED-FAILED" : "ABANDONED-CLOSED", d.toString());
        }
      } catch (IOException ex) {
        if (!Unavailability.isNameNodeUnavailable(ex)) {
          errors++;
          log.line(epoch, "ABANDONED-ERROR", Unavailability.describe(ex));
        } else if (control.stopRequested()) {
          int n = files.giveUp(epoch, "the NameNode was down when the run ended");
          log.line(epoch, "ABANDONED-FAILED", n + " files not checked: the NameNode is down");
        } else {
          // killed meanwhile: the files are due anew after the next restart
          control.awaitEpochAfter(epoch, EPOCH_WAIT_MS);
          continue;
        }
      }
      if (files.settledThrough(epoch) && epoch > published) {
        control.publish("abandoned-" + epoch, summary(epoch));
        control.publish("abandoned-checked", Long.toString(epoch));
        published = epoch;
      }
      if (control.stopRequested() && files.settledThrough(epoch)) {
        return;
      }
      Thread.sleep(POLL_MS);
    }
  }

  private void loadManifests() throws IOException {
    try (DirectoryStream<java.nio.file.Path> ds =
        Files.newDirectoryStream(controlDir, "killed-writer-*")) {
      for (java.nio.file.Path p : ds) {
        String name = p.getFileName().toString();
        if (loaded.add(name)) {
          int writer = Integer.parseInt(name.substring("killed-writer-".length()));
          List<String> lines = Files.readAllLines(p, StandardCharsets.UTF_8);
          files.addManifest(writer, lines);
          log.line(
              control.epoch(),
              "ABANDONED",
              "writer " + writer + " killed: " + lines.size() + " files open");
        }
      }
    }
  }

  /** One line about the files decided in {@code epoch}, for the driver's per-kill line. */
  String summary(long epoch) {
    List<AbandonedFiles.Entry> d = files.decidedIn(epoch);
    if (d.isEmpty()) {
      return "no abandoned file due";
    }
    int after = 0;
    int first = 0;
    int failed = 0;
    int interrupted = 0;
    long min = Long.MAX_VALUE;
    long max = 0;
    for (AbandonedFiles.Entry e : d) {
      interrupted += e.interruptedDeadlines;
      if (e.failed()) {
        failed++;
      } else if (e.verdict == AbandonedFiles.Verdict.CLOSED_AFTER_RESTART) {
        after++;
        min = Math.min(min, e.closedAfterMs);
        max = Math.max(max, e.closedAfterMs);
      } else {
        first++;
      }
    }
    StringBuilder s = new StringBuilder();
    s.append(d.size()).append(" abandoned files: ");
    if (after > 0) {
      s.append(after)
          .append(" closed ")
          .append(String.format("%.1f-%.1f", min / 1000.0, max / 1000.0))
          .append(" s after it");
    }
    if (first > 0) {
      s.append(after > 0 ? ", " : "").append(first).append(" closed before it");
    }
    if (failed > 0) {
      s.append(after + first > 0 ? ", " : "").append(failed).append(" FAILED");
    }
    if (interrupted > 0) {
      s.append(" (").append(interrupted).append(" deadlines interrupted by a kill)");
    }
    return s.toString();
  }

  /** The NameNode as the checker sees it: file info, isFileClosed, the bytes read back. */
  static final class HdfsNamespace implements AbandonedFiles.Namespace {
    private final DistributedFileSystem fs;

    HdfsNamespace(DistributedFileSystem fs) {
      this.fs = fs;
    }

    @Override
    public Boolean closed(String path) throws IOException {
      HdfsFileStatus st = fs.getClient().getFileInfo(path);
      if (st == null || st.isDir()) {
        return null;
      }
      return fs.isFileClosed(new Path(path));
    }

    @Override
    public long[] lengthAndCrc(String path) throws IOException {
      CRC32 crc = new CRC32();
      long n = 0;
      byte[] buf = new byte[8192];
      try (InputStream in = fs.open(new Path(path))) {
        for (int r; (r = in.read(buf)) > 0; ) {
          crc.update(buf, 0, r);
          n += r;
        }
      }
      return new long[] {n, crc.getValue()};
    }
  }
}
