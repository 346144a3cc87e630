package org.nvmnn.workload.ha;

/**
 * The tag of a log line: what became of an operation. ACK: the call returned. INDOUBT: the call
 * failed, its outcome unknown; one of the others follows once the namespace was looked at: DONE (it
 * took effect), NOT_DONE (no trace of it), PARTIAL (a create whose file holds only part of its
 * bytes), INCONSISTENT (neither outcome: a failure of the NameNodes).
 */
enum Outcome {
  ACK,
  INDOUBT,
  DONE,
  NOT_DONE,
  PARTIAL,
  INCONSISTENT;

  /** Whether the operation is known to have taken effect. */
  boolean tookEffect() {
    return this == ACK || this == DONE;
  }
}
