package org.nvmnn.workload.fuzz;

import java.util.Random;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

/**
 * The generator's snapshot calls (docs/bad-input.md): creating, renaming and deleting snapshots of
 * a few names, diff reports between them and the current tree, and reads of paths under {@code
 * .snapshot}, which a path of the namespace gives by putting {@code .snapshot/<name>} after one of
 * its directories. Most go to /d, on which the generator allows snapshots after each fresh start;
 * snapshot names come from a small set so that calls meet the snapshots earlier calls made; no call
 * asks for a default name (2.7.3 makes it from its clock, which two NameNodes read at different
 * moments).
 */
final class SnapshotOps {
  private static final String[] NAMES = {"s1", "s2", "s3"};
  private static final String[] NAMES_OR_CURRENT = {"s1", "s2", "s3", ""};

  private final Random rnd;
  private final Supplier<String> dir;
  private final Supplier<String> path;
  private final IntSupplier caller;

  SnapshotOps(Random rnd, Supplier<String> dir, Supplier<String> path, IntSupplier caller) {
    this.rnd = rnd;
    this.dir = dir;
    this.path = path;
    this.caller = caller;
  }

  /** The snapshottable standing directory mostly (the generator allows snapshots on it). */
  private String root() {
    return rnd.nextInt(5) < 3 ? "/d" : dir.get();
  }

  private String name() {
    return NAMES[rnd.nextInt(NAMES.length)];
  }

  private String nameOrCurrent() {
    return NAMES_OR_CURRENT[rnd.nextInt(NAMES_OR_CURRENT.length)];
  }

  Op create() {
    return Op.of(Call.createSnapshot, root(), name()).as(caller.getAsInt());
  }

  Op rename() {
    return Op.of(Call.renameSnapshot, root(), name(), name()).as(caller.getAsInt());
  }

  Op delete() {
    return Op.of(Call.deleteSnapshot, root(), name()).as(caller.getAsInt());
  }

  Op diff() {
    return Op.of(Call.getSnapshotDiffReport, root(), nameOrCurrent(), nameOrCurrent())
        .as(caller.getAsInt());
  }

  /** A read of a path under a snapshot: status, listing, content summary or block locations. */
  Op read() {
    String p = underSnapshot();
    switch (rnd.nextInt(4)) {
      case 0:
        return Op.of(Call.getFileInfo, p).as(caller.getAsInt());
      case 1:
        return Op.of(Call.getListing, p, "", rnd.nextBoolean()).as(caller.getAsInt());
      case 2:
        return Op.of(Call.getContentSummary, p).as(caller.getAsInt());
      default:
        return Op.of(Call.getBlockLocations, p, 0L, 1L << 20).as(caller.getAsInt());
    }
  }

  /** A path with {@code .snapshot/<name>} after one of its directories (the root included). */
  private String underSnapshot() {
    String p = path.get();
    if (p == null || !p.startsWith("/")) {
      return "/.snapshot/" + name();
    }
    int cut = p.indexOf('/', 1 + rnd.nextInt(Math.max(1, p.length())));
    if (cut < 0) {
      cut = p.length();
    }
    String head = p.substring(0, cut);
    String tail = p.substring(cut);
    return (head.equals("/") ? "" : head) + "/.snapshot/" + name() + tail;
  }
}
