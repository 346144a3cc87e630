package org.nvmnn.workload;

import java.util.Set;
import java.util.TreeSet;

/** What one worker counted. Written by its thread only; read by main after the thread ended. */
final class WorkerTally {
  long acknowledged;
  long inDoubt;
  long inDoubtDone;
  long inDoubtNotDone;
  long notAllOrNothing;
  long unexpectedErrors;
  long verifications;
  long verificationFailures;

  /** Ids of acknowledged operations whose effect was found missing or changed. */
  final Set<String> lostOps = new TreeSet<>();

  void add(WorkerTally o) {
    acknowledged += o.acknowledged;
    inDoubt += o.inDoubt;
    inDoubtDone += o.inDoubtDone;
    inDoubtNotDone += o.inDoubtNotDone;
    notAllOrNothing += o.notAllOrNothing;
    unexpectedErrors += o.unexpectedErrors;
    verifications += o.verifications;
    verificationFailures += o.verificationFailures;
    lostOps.addAll(o.lostOps);
  }

  boolean clean() {
    return lostOps.isEmpty()
        && notAllOrNothing == 0
        && unexpectedErrors == 0
        && verificationFailures == 0;
  }
}
