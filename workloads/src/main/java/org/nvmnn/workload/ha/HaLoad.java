package org.nvmnn.workload.ha;

import java.io.File;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.nvmnn.workload.Flags;

/**
 * The client of make ha-demo: threads that create and rename files through the cluster's
 * fs.defaultFS (hdfs://ha, the failover proxy provider: the client conf dir is on the class path)
 * while NameNodes are killed and fail over, logging every outcome with a wall-clock ms in one
 * append-only log ({@link AckLog}); {@link HaVerify} checks the namespace against it afterwards.
 * Stops when the stop file appears; exit 1 if a thread died or an outcome was neither done nor not
 * done.
 *
 * <p>Usage: HaLoad --log FILE --stop FILE [--threads 4] [--root /ha-load] [--min-bytes 1024]
 * [--max-bytes 8192] [--rename-every 3] [--seed N] [--pause-ms 0]
 *
 * <p>--pause-ms: each thread sleeps that long after every operation (a light load, which leaves the
 * machine to what is measured: the benchmark suite's HA timings).
 */
public final class HaLoad {
  private HaLoad() {}

  public static void main(String[] args) throws Exception {
    Flags f =
        Flags.parse(
            args,
            "--log",
            "--stop",
            "--threads",
            "--root",
            "--min-bytes",
            "--max-bytes",
            "--rename-every",
            "--seed",
            "--pause-ms");
    Path logFile = Paths.get(required(f, "--log"));
    File stop = new File(required(f, "--stop"));
    int threads = f.getInt("--threads", 4);
    String root = f.get("--root", "/ha-load");
    long seed = f.getLong("--seed", System.nanoTime());
    Configuration conf = new HdfsConfiguration();
    System.out.printf(
        "load: %d threads under %s of %s, seed %d%n",
        threads, root, conf.get("fs.defaultFS"), seed);

    List<LoadWorker> workers = new ArrayList<>();
    List<Thread> running = new ArrayList<>();
    try (AckLog log = new AckLog(logFile)) {
      for (int i = 0; i < threads; i++) {
        LoadWorker w =
            new LoadWorker(
                "t" + i,
                root + "/t" + i,
                (DistributedFileSystem) FileSystem.newInstance(conf),
                log,
                stop,
                seed * 31 + i,
                f.getInt("--min-bytes", 1024),
                f.getInt("--max-bytes", 8192),
                f.getInt("--rename-every", 3),
                f.getLong("--pause-ms", 0));
        Thread t = new Thread(w, "load-" + w.name);
        workers.add(w);
        running.add(t);
        t.start();
      }
      for (Thread t : running) {
        t.join();
      }
    }
    LoadTally total = new LoadTally();
    boolean died = false;
    for (LoadWorker w : workers) {
      System.out.println("  " + w.name + ": " + w.tally);
      total.add(w.tally);
      if (w.fatal != null) {
        died = true;
        System.out.println("  " + w.name + " died:");
        w.fatal.printStackTrace(System.out);
      }
    }
    System.out.println("load: " + total);
    System.exit(died || total.get(Outcome.INCONSISTENT) > 0 ? 1 : 0);
  }

  private static String required(Flags f, String name) {
    String v = f.get(name, null);
    if (v == null) {
      throw new IllegalArgumentException(name + " is required");
    }
    return v;
  }
}
