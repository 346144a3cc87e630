package org.nvmnn.workload;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DistributedFileSystem;

/**
 * The client side of the process-crash test (scripts/test/process-crash-test.sh): several workers,
 * each with its own subtree /crash/t<i>, a model and a log, while the driver kills and restarts the
 * NameNode. Main publishes the highest epoch all workers have verified and, when the driver asks to
 * stop, prints the totals. Exit status 0 only if no acknowledged operation was lost, every in-doubt
 * operation was all-or-nothing, no call failed for another reason than the NameNode being down, and
 * every verification ran.
 *
 * <p>Usage: CrashWorkload --control DIR --logs DIR [--threads 4] [--seed N] [--root /crash]
 * [--max-entries 120] [--max-depth 4] [--metadata-threads threads/2 (the last ones; they create
 * empty files)]
 */
public final class CrashWorkload {
  private CrashWorkload() {}

  public static void main(String[] args) throws Exception {
    String controlDir = null;
    String logDir = null;
    String root = "/crash";
    int threads = 4;
    long seed = System.nanoTime();
    int maxEntries = 120;
    int maxDepth = 4;
    int metadataThreads = -1;
    for (int i = 0; i < args.length; i += 2) {
      String v = args[i + 1];
      switch (args[i]) {
        case "--control":
          controlDir = v;
          break;
        case "--logs":
          logDir = v;
          break;
        case "--root":
          root = v;
          break;
        case "--threads":
          threads = Integer.parseInt(v);
          break;
        case "--seed":
          seed = Long.parseLong(v);
          break;
        case "--max-entries":
          maxEntries = Integer.parseInt(v);
          break;
        case "--max-depth":
          maxDepth = Integer.parseInt(v);
          break;
        case "--metadata-threads":
          metadataThreads = Integer.parseInt(v);
          break;
        default:
          throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    if (metadataThreads < 0) {
      metadataThreads = threads / 2;
    }
    if (controlDir == null || logDir == null) {
      throw new IllegalArgumentException("--control and --logs are required");
    }
    ControlDir control = new ControlDir(Paths.get(controlDir));
    Path logs = Files.createDirectories(Paths.get(logDir));
    Configuration conf = ClientConf.failFast();
    System.out.println(
        "workload: "
            + threads
            + " threads under "
            + root
            + " ("
            + (threads - metadataThreads)
            + " writing a few hundred bytes per file, "
            + metadataThreads
            + " creating empty files), seed "
            + seed);

    List<Worker> workers = new ArrayList<>();
    List<Thread> running = new ArrayList<>();
    for (int i = 0; i < threads; i++) {
      String name = "t" + i;
      DistributedFileSystem fs = (DistributedFileSystem) FileSystem.newInstance(conf);
      OpLog log = new OpLog(logs.resolve("ops-" + name + ".log"));
      Worker w =
          new Worker(
              name,
              root + "/" + name,
              fs,
              control,
              log,
              new OpChooser(
                  seed * 31 + i, name, maxEntries, maxDepth, i < threads - metadataThreads));
      Thread t = new Thread(w, "worker-" + name);
      workers.add(w);
      running.add(t);
      t.start();
    }
    boolean workerDied = coordinate(control, workers);
    for (Thread t : running) {
      t.join();
    }
    System.exit(report(control, workers, workerDied) ? 0 : 1);
  }

  /** Publishes "verified" until all workers are done; true if a worker died. */
  private static boolean coordinate(ControlDir control, List<Worker> workers)
      throws IOException, InterruptedException {
    long published = -1;
    while (true) {
      long min = Long.MAX_VALUE;
      boolean allDone = true;
      for (Worker w : workers) {
        if (w.fatal != null) {
          System.err.println("worker " + w.name + " died:");
          w.fatal.printStackTrace();
          control.stopLocally();
          return true;
        }
        min = Math.min(min, w.verifiedEpoch);
        allDone &= w.finished;
      }
      if (min > published) {
        control.publish("verified", Long.toString(min));
        published = min;
      }
      if (allDone) {
        return false;
      }
      Thread.sleep(100);
    }
  }

  private static boolean report(ControlDir control, List<Worker> workers, boolean workerDied) {
    WorkerTally total = new WorkerTally();
    for (Worker w : workers) {
      WorkerTally t = w.tally;
      System.out.printf(
          "  %s: acknowledged %d, in doubt %d (done %d, not done %d), lost %d, verifications %d%n",
          w.name,
          t.acknowledged,
          t.inDoubt,
          t.inDoubtDone,
          t.inDoubtNotDone,
          t.lostOps.size(),
          t.verifications);
      total.add(t);
    }
    System.out.printf(
        "kills: %d, operations acknowledged: %d, in doubt: %d, lost: %d%n",
        control.epoch(), total.acknowledged, total.inDoubt, total.lostOps.size());
    System.out.printf(
        "in doubt resolved: done %d, not done %d; not all-or-nothing: %d; unexpected errors: %d;"
            + " verifications: %d, could not run: %d%n",
        total.inDoubtDone,
        total.inDoubtNotDone,
        total.notAllOrNothing,
        total.unexpectedErrors,
        total.verifications,
        total.verificationFailures);
    if (!total.lostOps.isEmpty()) {
      List<String> first =
          new ArrayList<>(total.lostOps).subList(0, Math.min(20, total.lostOps.size()));
      System.out.println(
          "lost operations (first "
              + first.size()
              + "; all in the ops-t*.log LOST lines): "
              + first);
    }
    if (workerDied) {
      System.out.println("a worker died (see stderr); the run is not valid");
    }
    return total.clean() && !workerDied;
  }
}
