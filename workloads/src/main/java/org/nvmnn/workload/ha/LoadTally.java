package org.nvmnn.workload.ha;

import java.util.EnumMap;
import java.util.Map;

/** Counts of a load thread's outcomes, per operation kind for the acknowledged ones. */
final class LoadTally {
  long ackedCreates;
  long ackedRenames;
  final Map<Outcome, Long> resolved = new EnumMap<>(Outcome.class);

  void count(LoadOp op, Outcome o) {
    if (o == Outcome.ACK) {
      if (op.kind == LoadOp.Kind.CREATE) {
        ackedCreates++;
      } else {
        ackedRenames++;
      }
    } else {
      resolved.merge(o, 1L, Long::sum);
    }
  }

  long get(Outcome o) {
    return resolved.getOrDefault(o, 0L);
  }

  void add(LoadTally t) {
    ackedCreates += t.ackedCreates;
    ackedRenames += t.ackedRenames;
    t.resolved.forEach((o, n) -> resolved.merge(o, n, Long::sum));
  }

  @Override
  public String toString() {
    return String.format(
        "acknowledged %d creates, %d renames; in doubt %d (done %d, not done %d, partial %d,"
            + " inconsistent %d)",
        ackedCreates,
        ackedRenames,
        get(Outcome.INDOUBT),
        get(Outcome.DONE),
        get(Outcome.NOT_DONE),
        get(Outcome.PARTIAL),
        get(Outcome.INCONSISTENT));
  }
}
