package org.nvmnn.workload.ha;

/** What the namespace says became of an operation in doubt, and what was seen. */
final class Resolution {
  final Outcome outcome;
  final String detail;

  Resolution(Outcome outcome, String detail) {
    this.outcome = outcome;
    this.detail = detail;
  }
}
