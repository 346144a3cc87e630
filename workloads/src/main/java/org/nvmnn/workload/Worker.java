package org.nvmnn.workload;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;

/**
 * One workload thread: operations on its own subtree, a model of that subtree, a log. After every
 * NameNode restart the driver announces (a new epoch) it first resolves the operation that was in
 * flight, then verifies the whole subtree against the model before it issues anything new. With
 * snapshots its root is made snapshottable at the start, and every verification also compares the
 * root's snapshots, each whole, with the model's copies.
 */
final class Worker implements Runnable {
  /** Longer than any gap between kills plus a restart; reaching it fails the run. */
  private static final long EPOCH_WAIT_MS = 600000;

  private static final int ATTEMPTS = 5;

  interface Call<T> {
    T call() throws IOException;
  }

  final String name;
  final WorkerTally tally = new WorkerTally();
  private final DistributedFileSystem fs;
  private final ControlDir control;
  private final OpLog log;
  private final OpChooser chooser;
  private final OpRunner runner;
  private final SubtreeReader reader;
  private final InDoubtResolver resolver;
  private final SubtreeModel model;

  /** The root is snapshottable and the chooser picks snapshot operations. */
  private final boolean snapshots;

  volatile long verifiedEpoch = -1;
  volatile boolean finished;
  volatile Throwable fatal;

  /** The namespace no longer matches the model (a loss was found): stop issuing operations. */
  private boolean diverged;

  Worker(
      String name,
      String root,
      DistributedFileSystem fs,
      ControlDir control,
      OpLog log,
      OpChooser chooser,
      boolean snapshots) {
    this.name = name;
    this.fs = fs;
    this.control = control;
    this.log = log;
    this.chooser = chooser;
    this.runner = new OpRunner(fs);
    this.reader = new SubtreeReader(fs);
    this.resolver = new InDoubtResolver(fs, reader);
    this.model = new SubtreeModel(root, name + "#0");
    this.snapshots = snapshots;
  }

  /** This worker's client (its own client name, so its own lease). */
  org.apache.hadoop.hdfs.DFSClient client() {
    return fs.getClient();
  }

  @Override
  public void run() {
    try {
      // before the driver's first kill (it waits for the first "verified")
      if (!fs.mkdirs(new Path(model.root()))) {
        throw new IOException("mkdirs " + model.root() + " answered false");
      }
      log.line(control.epoch(), "ACK", name + "#0 mkdirs " + model.root());
      tally.acknowledged++;
      if (snapshots) {
        fs.allowSnapshot(new Path(model.root())); // a superuser call: the NameNode's own user
        log.line(control.epoch(), "ACK", name + "#0 allowSnapshot " + model.root());
        tally.acknowledged++;
      }
      while (!control.stopRequested()) {
        long epoch = control.epoch();
        if (epoch > verifiedEpoch) {
          verify(epoch, "after restart");
        } else if (diverged) {
          Thread.sleep(200);
        } else {
          step(epoch);
        }
      }
      verify(control.epoch(), "final");
      finished = true;
    } catch (Throwable t) {
      fatal = t;
      log.line(control.epoch(), "FATAL", Unavailability.describe(t));
    }
  }

  /**
   * One operation. Its ACK line ends with the wall-clock ms its call started, so that the driver
   * can tell an operation that was in flight at a kill (with HA the client's failover proxy
   * re-sends it to the new active, which may acknowledge it).
   */
  private void step(long epoch) throws IOException {
    Op op = chooser.next(model);
    long started = System.currentTimeMillis();
    try {
      runner.run(op);
    } catch (IOException e) {
      inDoubt(op, e, epoch);
      return;
    }
    OpEffects.apply(model, op, op.length);
    tally.acknowledged++;
    tally.snapshotAcknowledged(op.kind);
    log.line(epoch, "ACK", op + " # started " + started);
  }

  private void inDoubt(Op op, IOException failure, long epoch) throws IOException {
    if (Unavailability.isNameNodeUnavailable(failure)) {
      log.line(epoch, "INDOUBT", op + " failed: " + Unavailability.describe(failure));
    } else {
      tally.unexpectedErrors++;
      log.line(epoch, "ERROR", op + " failed: " + Unavailability.describe(failure));
    }
    control.awaitEpochAfter(epoch, EPOCH_WAIT_MS); // the restart that follows the failure
    tally.inDoubt++;
    if (op.isSnapshotOp()) {
      tally.snapshotOpsInDoubt++;
    }
    InDoubtResolver.Resolution r;
    try {
      r = untilAnswered(() -> resolver.resolve(model, op));
    } catch (IOException e) {
      tally.verificationFailures++;
      diverged = true; // the model cannot follow an operation whose outcome is unknown
      log.line(control.epoch(), "RESOLVE-FAILED", op + ": " + Unavailability.describe(e));
      return;
    }
    long now = control.epoch();
    switch (r.outcome) {
      case DONE:
        OpEffects.apply(model, op, r.createdLength);
        tally.inDoubtDone++;
        if (op.isSnapshotOp()) {
          tally.snapshotOpsInDoubtDone++;
        }
        log.line(now, "INDOUBT-DONE", op + ": " + r.detail);
        break;
      case NOT_DONE:
        tally.inDoubtNotDone++;
        if (op.isSnapshotOp()) {
          tally.snapshotOpsInDoubtNotDone++;
        }
        log.line(now, "INDOUBT-NOT-DONE", op + ": " + r.detail);
        break;
      case ACKNOWLEDGED_STEP_LOST:
        tally.lostOps.add(op.id);
        diverged = true;
        log.line(now, "LOST", op + ": " + r.detail);
        break;
      default:
        tally.notAllOrNothing++;
        diverged = true;
        log.line(now, "NOT-ALL-OR-NOTHING", op + ": " + r.detail);
    }
  }

  private void verify(long epoch, String why) {
    Map<String, ObservedEntry> seen;
    Map<String, Map<String, ObservedEntry>> snapshotTrees = null;
    try {
      seen = untilAnswered(() -> reader.read(model.root()));
      if (snapshots) {
        snapshotTrees = untilAnswered(() -> reader.readSnapshots(model.root()));
      }
    } catch (IOException e) {
      tally.verificationFailures++;
      log.line(epoch, "VERIFY-FAILED", why + ": " + Unavailability.describe(e));
      verifiedEpoch = epoch;
      return;
    }
    tally.verifications++;
    List<Discrepancy> found = ModelChecker.check(model, seen);
    if (snapshots) {
      found.addAll(SnapshotChecker.check(model, snapshotTrees));
    }
    if (found.isEmpty()) {
      learnInodeIds(model, seen);
      String inSnapshots = "";
      if (snapshots) {
        for (Map.Entry<String, Map<String, ObservedEntry>> e : snapshotTrees.entrySet()) {
          learnInodeIds(model.snapshots().get(e.getKey()).tree, e.getValue());
        }
        long entries = SnapshotChecker.entries(snapshotTrees);
        tally.snapshotsVerified += snapshotTrees.size();
        tally.snapshotEntriesVerified += entries;
        inSnapshots =
            "; snapshots "
                + snapshotTrees.keySet()
                + " with "
                + entries
                + " entries match their copies";
      }
      log.line(
          epoch, "VERIFIED", why + ": " + seen.size() + " entries match the model" + inSnapshots);
    } else {
      for (Discrepancy d : found) {
        tally.lostOps.add(d.blamedOp);
        log.line(epoch, "LOST", d.toString());
      }
      diverged = true;
      log.line(epoch, "VERIFY-MISMATCH", why + ": " + found.size() + " differences");
    }
    verifiedEpoch = epoch;
  }

  /** Equal where known (checked), learned where not. */
  private static void learnInodeIds(SubtreeModel tree, Map<String, ObservedEntry> seen) {
    for (Map.Entry<String, ObservedEntry> e : seen.entrySet()) {
      tree.get(e.getKey()).inodeId = e.getValue().inodeId;
    }
  }

  /**
   * Runs a read-side call, waiting for the next announced restart if the NameNode is down
   * meanwhile.
   */
  private <T> T untilAnswered(Call<T> call) throws IOException {
    for (int attempt = 1; ; attempt++) {
      long epoch = control.epoch();
      try {
        return call.call();
      } catch (IOException e) {
        if (!Unavailability.isNameNodeUnavailable(e) || attempt == ATTEMPTS) {
          throw e;
        }
        log.line(
            epoch,
            "RETRY",
            "NameNode unavailable, waiting for the next restart: " + Unavailability.describe(e));
        control.awaitEpochAfter(epoch, EPOCH_WAIT_MS);
        sleepQuietly(200);
      }
    }
  }

  private static void sleepQuietly(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
