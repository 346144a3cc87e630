package org.nvmnn.workload.ha;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the namespace must hold after a load, replayed from its log: every file whose create took
 * effect (acknowledged, or in doubt and found done) at its final name, and every rename that took
 * effect.
 */
final class ExpectedNamespace {
  /** A file that must exist at {@code path}: created at {@code created} with that many bytes. */
  static final class File {
    final String path;
    final LogLine created;

    File(String path, LogLine created) {
      this.path = path;
      this.created = created;
    }
  }

  /** By final path, in the order of their creates. */
  final Map<String, File> files = new LinkedHashMap<>();

  final List<LogLine> renames = new ArrayList<>();
  final LoadTally tally = new LoadTally();

  static ExpectedNamespace replay(List<LogLine> log) {
    ExpectedNamespace e = new ExpectedNamespace();
    for (LogLine l : log) {
      e.tally.count(l.op, l.outcome);
      if (!l.outcome.tookEffect()) {
        continue;
      }
      if (l.op.kind == LoadOp.Kind.CREATE) {
        e.files.put(l.op.path, new File(l.op.path, l));
      } else {
        File moved = e.files.remove(l.op.path);
        if (moved == null) {
          throw new IllegalStateException("a rename of a file the log never created: " + l);
        }
        e.files.put(l.op.target, new File(l.op.target, moved.created));
        e.renames.add(l);
      }
    }
    return e;
  }
}
