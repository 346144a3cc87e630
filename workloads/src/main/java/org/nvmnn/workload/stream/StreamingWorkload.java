package org.nvmnn.workload.stream;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.nvmnn.workload.Flags;

/**
 * Small-file streaming writes, standing in for the seed paper's Storm/HiBench case (state written
 * to HDFS by many clients): each client thread, with a DistributedFileSystem of its own, repeatedly
 * creates a file, writes a few hundred bytes, closes it, renames it to its final name and deletes
 * its file from --keep cycles before. Reports files per second over the measured window and the
 * latency percentiles of every NameNode RPC the client made (create, addBlock, complete, rename,
 * delete, ...) and of the whole cycle ("file").
 *
 * <p>Usage: StreamingWorkload [--threads 16] [--warmup-seconds 5] [--seconds 20] [--bytes 256]
 * [--keep 10] [--root /stream]; the NameNode comes from the configuration on the class path. Output
 * lines: "files N seconds S files_per_s X", then per op "op NAME count N p50_ms X p90_ms X p99_ms X
 * p999_ms X max_ms X mean_ms X". Exit 1 if a client failed.
 */
public final class StreamingWorkload {
  private StreamingWorkload() {}

  public static void main(String[] args) throws Exception {
    Flags f =
        Flags.parse(
            args, "--threads", "--warmup-seconds", "--seconds", "--bytes", "--keep", "--root");
    int threads = f.getInt("--threads", 16);
    int warmup = f.getInt("--warmup-seconds", 5);
    int seconds = f.getInt("--seconds", 20);
    int bytes = f.getInt("--bytes", 256);
    int keep = f.getInt("--keep", 10);
    String root = f.get("--root", "/stream");
    if (threads < 1 || seconds < 1 || warmup < 0 || bytes < 0 || keep < 1) {
      throw new IllegalArgumentException(
          "need threads >= 1, seconds >= 1, warmup >= 0, bytes >= 0, keep >= 1");
    }
    Result r = run(new HdfsConfiguration(), threads, warmup, seconds, bytes, keep, root);
    report(r);
    if (r.failure != null) {
      System.out.println("FAILED: " + r.failure);
      r.failure.printStackTrace();
      System.exit(1);
    }
    System.exit(r.files > 0 ? 0 : 1);
  }

  /**
   * What a run measured: files completed in the window, its length, per-op samples, a client
   * failure.
   */
  static final class Result {
    final long files;
    final double seconds;
    final Map<String, long[]> latencies;
    final Throwable failure;

    Result(long files, double seconds, Map<String, long[]> latencies, Throwable failure) {
      this.files = files;
      this.seconds = seconds;
      this.latencies = latencies;
      this.failure = failure;
    }
  }

  /**
   * Runs the workload against the NameNode of {@code conf}; stops every client before returning.
   */
  static Result run(
      Configuration conf, int threads, int warmup, int seconds, int bytes, int keep, String root)
      throws Exception {
    LatencyRecorder recorder = new LatencyRecorder();
    AtomicLong filesMeasured = new AtomicLong();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    byte[] payload = new byte[bytes];
    for (int i = 0; i < bytes; i++) {
      payload[i] = (byte) ('a' + i % 26);
    }
    List<Thread> workers = new ArrayList<>();
    List<DistributedFileSystem> clients = new ArrayList<>();
    AtomicBoolean stop = new AtomicBoolean();
    for (int t = 0; t < threads; t++) {
      DistributedFileSystem fs = TimedFileSystem.open(conf, recorder);
      clients.add(fs);
      Path dir = new Path(root + "/c" + t);
      int keepFiles = keep;
      Thread w =
          new Thread(
              () -> {
                try {
                  fs.mkdirs(dir);
                  for (long i = 0; !stop.get(); i++) {
                    long t0 = System.nanoTime();
                    Path tmp = new Path(dir, "tmp-" + i);
                    try (FSDataOutputStream out = fs.create(tmp, true)) {
                      out.write(payload);
                    }
                    if (!fs.rename(tmp, new Path(dir, "part-" + i))) {
                      throw new IllegalStateException("rename of " + tmp + " answered false");
                    }
                    if (i >= keepFiles
                        && !fs.delete(new Path(dir, "part-" + (i - keepFiles)), false)) {
                      throw new IllegalStateException(
                          "delete of part-" + (i - keepFiles) + " in " + dir + " answered false");
                    }
                    if (recorder.isRecording()) {
                      recorder.add("file", System.nanoTime() - t0);
                      filesMeasured.incrementAndGet();
                    }
                  }
                } catch (Throwable e) {
                  failure.compareAndSet(null, e);
                }
              },
              "stream-client-" + t);
      workers.add(w);
    }
    for (Thread w : workers) {
      w.start();
    }
    Thread.sleep(warmup * 1000L);
    recorder.start();
    long m0 = System.nanoTime();
    Thread.sleep(seconds * 1000L);
    recorder.stop();
    double measured = (System.nanoTime() - m0) / 1e9;
    stop.set(true);
    for (Thread w : workers) {
      w.join();
    }
    for (DistributedFileSystem fs : clients) {
      fs.close();
    }
    return new Result(filesMeasured.get(), measured, recorder.sorted(), failure.get());
  }

  private static void report(Result r) {
    System.out.printf(
        "files %d seconds %.3f files_per_s %.2f%n", r.files, r.seconds, r.files / r.seconds);
    for (Map.Entry<String, long[]> e : r.latencies.entrySet()) {
      long[] v = e.getValue();
      System.out.printf(
          "op %s count %d p50_ms %.3f p90_ms %.3f p99_ms %.3f p999_ms %.3f max_ms %.3f mean_ms %.3f%n",
          e.getKey(),
          v.length,
          ms(LatencyRecorder.percentile(v, 50)),
          ms(LatencyRecorder.percentile(v, 90)),
          ms(LatencyRecorder.percentile(v, 99)),
          ms(LatencyRecorder.percentile(v, 99.9)),
          ms(v[v.length - 1]),
          LatencyRecorder.mean(v) / 1e6);
    }
  }

  private static double ms(long nanos) {
    return nanos / 1e6;
  }
}
