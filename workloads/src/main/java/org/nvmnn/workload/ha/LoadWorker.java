package org.nvmnn.workload.ha;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Random;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.nvmnn.workload.Unavailability;

/**
 * One thread of the HA load, in its own directory with its own client (so its own lease): creates
 * files new/fNNNNNN with {@link NamedContent}, and every {@code renameEvery}-th operation moves the
 * oldest of them to moved/. An operation whose call fails is in doubt; before anything else the
 * thread looks at the namespace to resolve it, and logs what it found.
 */
final class LoadWorker implements Runnable {
  private static final long MKDIR_TIMEOUT_MS = 120000;

  final String name;
  final LoadTally tally = new LoadTally();
  volatile Throwable fatal;

  private final String root;
  private final DistributedFileSystem fs;
  private final AckLog log;
  private final File stopFile;
  private final OutcomeResolver resolver;
  private final Random random;
  private final int minBytes;
  private final int maxBytes;
  private final int renameEvery;
  private final long pauseMs;

  /** Files in new/ that took effect and were not moved yet, oldest first. */
  private final Deque<String> movable = new ArrayDeque<>();

  private int sequence;

  LoadWorker(
      String name,
      String root,
      DistributedFileSystem fs,
      AckLog log,
      File stopFile,
      long seed,
      int minBytes,
      int maxBytes,
      int renameEvery,
      long pauseMs) {
    this.name = name;
    this.root = root;
    this.fs = fs;
    this.log = log;
    this.stopFile = stopFile;
    this.resolver = new OutcomeResolver(fs);
    this.random = new Random(seed);
    this.minBytes = minBytes;
    this.maxBytes = maxBytes;
    this.renameEvery = renameEvery;
    this.pauseMs = pauseMs;
  }

  @Override
  public void run() {
    try {
      for (String d : new String[] {"/new", "/moved"}) {
        Path p = new Path(root + d);
        UntilAnswered.run(() -> fs.mkdirs(p), MKDIR_TIMEOUT_MS);
      }
      while (!stopFile.exists()) {
        step(next());
        if (pauseMs > 0) {
          Thread.sleep(pauseMs);
        }
      }
    } catch (Throwable t) {
      fatal = t;
    }
  }

  private LoadOp next() {
    sequence++;
    if (sequence % renameEvery == 0 && !movable.isEmpty()) {
      String source = movable.poll();
      return LoadOp.rename(
          source, root + "/moved/" + source.substring(source.lastIndexOf('/') + 1));
    }
    int length = minBytes + random.nextInt(maxBytes - minBytes + 1);
    return LoadOp.create(String.format("%s/new/f%06d", root, sequence), length);
  }

  private void step(LoadOp op) throws IOException {
    long started = System.currentTimeMillis();
    try {
      perform(op);
    } catch (IOException e) {
      log.write(name, Outcome.INDOUBT, op, Unavailability.describe(e));
      tally.count(op, Outcome.INDOUBT);
      Resolution r = resolver.resolve(op);
      log.write(name, r.outcome, op, r.detail);
      tally.count(op, r.outcome);
      settle(op, r.outcome.tookEffect());
      return;
    }
    log.write(name, Outcome.ACK, op, "started " + started);
    tally.count(op, Outcome.ACK);
    settle(op, true);
  }

  private void perform(LoadOp op) throws IOException {
    Path p = new Path(op.path);
    if (op.kind == LoadOp.Kind.CREATE) {
      try (OutputStream out = fs.create(p, false)) {
        out.write(NamedContent.of(op.path, op.length));
      }
    } else if (!fs.rename(p, new Path(op.target))) {
      throw new IOException("rename answered false");
    }
  }

  /** A created file becomes movable; a rename that did not happen leaves its file movable. */
  private void settle(LoadOp op, boolean tookEffect) {
    if (op.kind == LoadOp.Kind.CREATE && tookEffect) {
      movable.add(op.path);
    } else if (op.kind == LoadOp.Kind.RENAME && !tookEffect) {
      movable.addFirst(op.path);
    }
  }
}
