package org.nvmnn.workload;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DFSClient;
import org.apache.hadoop.hdfs.DistributedFileSystem;

/**
 * The client side of the process-crash test (scripts/test/process-crash-test.sh): several workers,
 * each with its own subtree /crash/t<i>, a model and a log, while the driver kills and restarts the
 * NameNode. Main publishes the highest epoch all workers have verified and, when the driver asks to
 * stop, prints the totals. Exit status 0 only if no acknowledged operation was lost, every in-doubt
 * operation was all-or-nothing, no call failed for another reason than the NameNode being down, and
 * every verification ran.
 *
 * <p>With {@code --abandoned-deadline-ms} above 0 a further thread ({@link AbandonedFileChecker})
 * checks after every restart that the files killed writers left open are closed by the NameNode's
 * lease recovery within that many ms; with {@code --renew-ms} above 0 every worker's lease is
 * renewed that often (the test shortens the NameNode's hard limit to seconds, while 2.7.3's client
 * renews every 30 s: a live client must keep its lease, as it does against the stock limits).
 *
 * <p>With {@code --max-snapshots} above 0 (3 by default) every worker's root is made snapshottable
 * and the workers create, rename and delete snapshots of it, at most that many at a time; every
 * verification compares each snapshot whole with the model's copy of the state it was created from.
 * 0: no snapshot operations (the NameNode need not accept them).
 *
 * <p>Usage: CrashWorkload --control DIR --logs DIR [--threads 4] [--seed N] [--root /crash]
 * [--max-entries 120] [--max-depth 4] [--metadata-threads threads/2 (the last ones; they create
 * empty files)] [--abandoned-deadline-ms 0] [--renew-ms 0] [--max-snapshots 3]
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
    long abandonedDeadlineMs = 0;
    long renewMs = 0;
    int maxSnapshots = 3;
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
        case "--abandoned-deadline-ms":
          abandonedDeadlineMs = Long.parseLong(v);
          break;
        case "--renew-ms":
          renewMs = Long.parseLong(v);
          break;
        case "--max-snapshots":
          maxSnapshots = Integer.parseInt(v);
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
            + " creating empty files), "
            + (maxSnapshots > 0
                ? "up to " + maxSnapshots + " snapshots of each thread's root"
                : "no snapshots")
            + ", seed "
            + seed
            + "; through "
            + ClientConf.describe(conf));

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
                  seed * 31 + i,
                  name,
                  maxEntries,
                  maxDepth,
                  i < threads - metadataThreads,
                  maxSnapshots),
              maxSnapshots > 0);
      Thread t = new Thread(w, "worker-" + name);
      workers.add(w);
      running.add(t);
      t.start();
    }
    AbandonedFileChecker checker = null;
    if (abandonedDeadlineMs > 0) {
      checker =
          new AbandonedFileChecker(
              control,
              Paths.get(controlDir),
              (DistributedFileSystem) FileSystem.newInstance(conf),
              new OpLog(logs.resolve("ops-abandoned.log")),
              abandonedDeadlineMs);
      Thread t = new Thread(checker, "abandoned-file-checker");
      running.add(t);
      t.start();
    }
    if (renewMs > 0) {
      final long every = renewMs;
      Thread keeper = new Thread(() -> renewLeases(workers, every), "lease-keeper");
      keeper.setDaemon(true);
      keeper.start();
    }
    boolean workerDied = coordinate(control, workers, checker);
    for (Thread t : running) {
      t.join();
    }
    System.exit(report(control, workers, checker, workerDied, maxSnapshots > 0) ? 0 : 1);
  }

  /**
   * Renews every worker's lease every {@code renewMs}: what 2.7.3's LeaseRenewer does every 30 s
   * against a one-hour hard limit, scaled to the test's hard limit of seconds. Failures (the
   * NameNode down or in safe mode) are ignored; the next round tries again.
   */
  private static void renewLeases(List<Worker> workers, long renewMs) {
    while (true) {
      for (Worker w : workers) {
        try {
          DFSClient c = w.client();
          c.getNamenode().renewLease(c.getClientName());
        } catch (IOException | RuntimeException e) {
          // down, restarting or in safe mode
        }
      }
      try {
        Thread.sleep(renewMs);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  /** Publishes "verified" until all workers are done; true if a worker died. */
  private static boolean coordinate(
      ControlDir control, List<Worker> workers, AbandonedFileChecker checker)
      throws IOException, InterruptedException {
    long published = -1;
    while (true) {
      long min = Long.MAX_VALUE;
      boolean allDone = checker == null || checker.finished;
      if (checker != null && checker.fatal != null) {
        System.err.println("the abandoned-file checker died:");
        checker.fatal.printStackTrace();
        control.stopLocally();
        return true;
      }
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

  private static boolean report(
      ControlDir control,
      List<Worker> workers,
      AbandonedFileChecker checker,
      boolean workerDied,
      boolean snapshots) {
    WorkerTally total = new WorkerTally();
    for (Worker w : workers) {
      WorkerTally t = w.tally;
      System.out.printf(
          "  %s: acknowledged %d (snapshot ops %d), in doubt %d (done %d, not done %d), lost %d,"
              + " verifications %d (snapshots compared %d)%n",
          w.name,
          t.acknowledged,
          t.snapshotOpsAcknowledged(),
          t.inDoubt,
          t.inDoubtDone,
          t.inDoubtNotDone,
          t.lostOps.size(),
          t.verifications,
          t.snapshotsVerified);
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
    if (snapshots) {
      System.out.printf(
          "snapshot ops acknowledged: %d (create %d, rename %d, delete %d), in doubt: %d (done %d,"
              + " not done %d); snapshots verified whole: %d (%d entries)%n",
          total.snapshotOpsAcknowledged(),
          total.snapshotsCreated,
          total.snapshotsRenamed,
          total.snapshotsDeleted,
          total.snapshotOpsInDoubt,
          total.snapshotOpsInDoubtDone,
          total.snapshotOpsInDoubtNotDone,
          total.snapshotsVerified,
          total.snapshotEntriesVerified);
    }
    if (!total.lostOps.isEmpty()) {
      List<String> first =
          new ArrayList<>(total.lostOps).subList(0, Math.min(20, total.lostOps.size()));
      System.out.println(
          "lost operations (first "
              + first.size()
              + "; all in the ops-t*.log LOST lines): "
              + first);
    }
    boolean abandonedOk = true;
    if (checker != null) {
      AbandonedFiles f = checker.files;
      List<Long> t = f.closeTimes();
      System.out.printf(
          "abandoned files (left open by killed writers): %d; closed by lease recovery after a"
              + " restart: %d%s; closed before it: %d; deadlines interrupted by a kill: %d;"
              + " not closed within %.1f s: %d; wrong content: %d; gone: %d; not checked: %d;"
              + " errors: %d%n",
          f.entries().size(),
          t.size(),
          t.isEmpty()
              ? ""
              : String.format(
                  " (%.1f / %.1f / %.1f s after the restart, min / median / max)",
                  t.get(0) / 1000.0, t.get(t.size() / 2) / 1000.0, t.get(t.size() - 1) / 1000.0),
          f.count(AbandonedFiles.Verdict.CLOSED_AT_FIRST_LOOK),
          f.interruptedDeadlines(),
          f.deadlineMs() / 1000.0,
          f.count(AbandonedFiles.Verdict.NOT_CLOSED_IN_TIME),
          f.count(AbandonedFiles.Verdict.WRONG_CONTENT),
          f.count(AbandonedFiles.Verdict.ABSENT),
          f.count(AbandonedFiles.Verdict.NOT_CHECKED) + f.count(AbandonedFiles.Verdict.PENDING),
          checker.errors);
      abandonedOk =
          f.failures() == 0
              && f.count(AbandonedFiles.Verdict.PENDING) == 0
              && checker.errors == 0
              && checker.fatal == null;
    }
    if (workerDied) {
      System.out.println("a worker died (see stderr); the run is not valid");
    }
    return total.clean() && abandonedOk && !workerDied;
  }
}
