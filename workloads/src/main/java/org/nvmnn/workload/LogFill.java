package org.nvmnn.workload;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Fills a disk-mode NameNode's write-ahead log up to its checkpoint bound, for the benchmark
 * suite's worst-case restart (docs/benchmarks.md, "Restart recovery"): renames through RPC until
 * the log written since the last checkpoint (the NvmNamespace bean's LogUsedBytes, what a restart
 * replays) is at least {@code bound - margin} and still below {@code bound}, where bound is the
 * checkpoint size ({@code dfs.namenode.nvm.checkpoint.size}, 0 = a quarter of the log, at most half
 * of it: native/src/region.c): at {@code bound} the checkpointer would take a checkpoint and empty
 * the log. The caller then kills the NameNode with SIGKILL. Set {@code
 * dfs.namenode.nvm.checkpoint.period} long (the fill waits for quiet readings), and have the
 * NameNode's hdfs-site.xml on the class path.
 *
 * <p>First {@code --files} empty files are created under {@code --dir}; then each of {@code
 * --threads} threads renames its share of them back and forth ({@code f<i>} and {@code r<i>}), so
 * the namespace keeps its size. The bean's values are read only after the NameNode has been left
 * alone for {@code --quiet-ms} (default 11 s): 2.7.3's JMX serves a metrics source's values from a
 * cache refreshed at most every metrics period (10 s by default). A reading counts when two such
 * readings agree. The first chunk is at most {@code --files} renames; each later one aims at {@code
 * bound - margin / 2}, with the bytes per rename measured on the chunk before it (LogBytesWritten
 * over renames), so the fill converges in a few chunks; a chunk that crossed the bound (a
 * checkpoint: Checkpoints went up, the log restarted near empty) is reported and the fill goes on.
 *
 * <p>Prints "fill ..." lines and, at the end, "fill done used=U bound=B margin=M records=R
 * renames=N checkpoints=C", where records are the log records written since the NameNode started
 * (all of them replayed at the next start when C is 0). Exit 1 if the window is not reached within
 * {@code --max-chunks} chunks or a call fails.
 *
 * <p>Usage: LogFill [--dir /logfill] [--files 1000] [--threads 4] [--margin BYTES (default bound /
 * 100)] [--quiet-ms 11000] [--max-chunks 40]
 */
public final class LogFill {
  private LogFill() {}

  static final String BEAN = "Hadoop:service=NameNode,name=NvmNamespace";

  /** The checkpoint bound of the native library (region.c): configured, or capacity / 4; ≤ half. */
  static long bound(long capacity, long configured) {
    long b = configured > 0 ? configured : capacity / 4;
    return Math.min(b, capacity / 2);
  }

  /**
   * Renames for the next chunk: those that take the log from {@code used} to {@code bound - margin
   * / 2} at {@code bytesPerOp} each, 90% of it rounded down (a rename's record may be larger than
   * the average), at least 1; 0 when the log is already in [bound - margin, bound).
   */
  static long nextOps(long used, long bound, long margin, double bytesPerOp) {
    if (used >= bound - margin && used < bound) {
      return 0;
    }
    long aim = bound - margin / 2 - used;
    if (aim <= 0) {
      return 1; // above the bound: a checkpoint is due, and the next rename lets it run
    }
    return Math.max(1, (long) (aim / bytesPerOp * 0.9));
  }

  /** One numeric attribute of the bean's JSON, or -1. */
  static long attr(String json, String name) {
    Matcher m = Pattern.compile("\"" + Pattern.quote(name) + "\"\\s*:\\s*(-?\\d+)").matcher(json);
    return m.find() ? Long.parseLong(m.group(1)) : -1;
  }

  /** LogUsedBytes, LogBytesWritten, LogRecords, Checkpoints, LogCapacityBytes. */
  static final class Reading {
    final long used, written, records, checkpoints, capacity;

    Reading(String json) {
      used = attr(json, "LogUsedBytes");
      written = attr(json, "LogBytesWritten");
      records = attr(json, "LogRecords");
      checkpoints = attr(json, "Checkpoints");
      capacity = attr(json, "LogCapacityBytes");
    }

    boolean sameAs(Reading o) {
      return used == o.used && written == o.written && checkpoints == o.checkpoints;
    }

    @Override
    public String toString() {
      return "used=" + used + " records=" + records + " checkpoints=" + checkpoints;
    }
  }

  public static void main(String[] args) throws Exception {
    Flags f =
        Flags.parse(
            args, "--dir", "--files", "--threads", "--margin", "--quiet-ms", "--max-chunks");
    String dir = f.get("--dir", "/logfill");
    int files = f.getInt("--files", 1000);
    int threads = f.getInt("--threads", 4);
    long quietMs = f.getLong("--quiet-ms", 11000);
    int maxChunks = f.getInt("--max-chunks", 40);
    Configuration conf = ClientConf.failFast();
    String http = conf.getTrimmed("dfs.namenode.http-address");
    long configured = conf.getLongBytes("dfs.namenode.nvm.checkpoint.size", 0);
    FileSystem fs = FileSystem.newInstance(conf);

    Reading r = quiet(http, quietMs);
    if (r.capacity <= 0) {
      throw new IOException("no write-ahead log at http://" + http + " (not the disk mode?)");
    }
    long bound = bound(r.capacity, configured);
    long margin = f.getLong("--margin", bound / 100);
    System.out.printf(
        "fill start %s capacity=%d bound=%d margin=%d%n", r, r.capacity, bound, margin);

    fs.mkdirs(new Path(dir));
    for (int i = 0; i < files; i++) {
      fs.create(new Path(dir, "f" + i), false).close();
    }
    boolean[] renamed = new boolean[files];
    Reading before = r;
    r = quiet(http, quietMs);
    // the first estimate: the creates' bytes per file, until a chunk of renames measured theirs;
    // that first chunk is at most --files renames, well below any bound
    double perOp = (double) (r.written - before.written) / files;
    System.out.printf("fill created %d files %s%n", files, r);
    long renames = 0;
    for (int chunk = 1; ; chunk++) {
      long ops = nextOps(r.used, bound, margin, perOp);
      if (chunk == 1) {
        ops = Math.min(ops, files);
      }
      if (ops == 0) {
        break;
      }
      if (chunk > maxChunks) {
        System.out.printf(
            "fill failed: not in [%d, %d) after %d chunks%n", bound - margin, bound, maxChunks);
        System.exit(1);
      }
      renameChunk(fs, dir, renamed, ops, Math.min(threads, (int) Math.min(ops, files)));
      renames += ops;
      before = r;
      r = quiet(http, quietMs);
      perOp = (double) (r.written - before.written) / ops;
      System.out.printf(
          "fill chunk %d: %d renames, %.1f log bytes each, %s%s%n",
          chunk,
          ops,
          perOp,
          r,
          r.checkpoints > before.checkpoints ? " (crossed the bound: a checkpoint)" : "");
    }
    fs.close();
    System.out.printf(
        "fill done used=%d bound=%d margin=%d records=%d renames=%d checkpoints=%d%n",
        r.used, bound, margin, r.records, renames, r.checkpoints);
  }

  /** A reading after quietMs without calls, confirmed by one more quietMs later. */
  static Reading quiet(String http, long quietMs) throws Exception {
    Thread.sleep(quietMs);
    Reading a = new Reading(get(http));
    while (true) {
      Thread.sleep(quietMs);
      Reading b = new Reading(get(http));
      if (b.sameAs(a)) {
        return b;
      }
      a = b;
    }
  }

  static String get(String http) throws IOException {
    URL u = new URL("http://" + http + "/jmx?qry=" + BEAN);
    HttpURLConnection c = (HttpURLConnection) u.openConnection();
    c.setConnectTimeout(5000);
    c.setReadTimeout(30000);
    try (InputStream in = c.getInputStream()) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      byte[] buf = new byte[8192];
      for (int n; (n = in.read(buf)) > 0; ) {
        out.write(buf, 0, n);
      }
      return new String(out.toByteArray(), StandardCharsets.UTF_8);
    } finally {
      c.disconnect();
    }
  }

  /** {@code ops} renames spread over {@code threads} threads, each over its own files. */
  static void renameChunk(FileSystem fs, String dir, boolean[] renamed, long ops, int threads)
      throws Exception {
    AtomicReference<Exception> failed = new AtomicReference<>();
    List<Thread> running = new ArrayList<>();
    int files = renamed.length;
    for (int t = 0; t < threads; t++) {
      final int self = t;
      final long mine = ops / threads + (t < ops % threads ? 1 : 0);
      Thread th =
          new Thread(
              () -> {
                try {
                  // thread t owns the files i with i % threads == t; it walks them in turn
                  int share = (files - self + threads - 1) / threads;
                  for (long k = 0; k < mine; k++) {
                    int i = self + (int) (k % share) * threads;
                    String from = (renamed[i] ? "r" : "f") + i, to = (renamed[i] ? "f" : "r") + i;
                    if (!fs.rename(new Path(dir, from), new Path(dir, to))) {
                      throw new IOException("rename " + from + " -> " + to + " returned false");
                    }
                    renamed[i] = !renamed[i];
                  }
                } catch (Exception e) {
                  failed.compareAndSet(null, e);
                }
              });
      th.start();
      running.add(th);
    }
    for (Thread th : running) {
      th.join();
    }
    if (failed.get() != null) {
      throw failed.get();
    }
  }
}
