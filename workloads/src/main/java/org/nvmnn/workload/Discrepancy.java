package org.nvmnn.workload;

/**
 * A difference between the model and the namespace, blamed on the operation whose effect is
 * missing.
 */
final class Discrepancy {
  final String path;
  final String problem;

  /** An op id, or "unexplained:<path>" for a path no operation accounts for. */
  final String blamedOp;

  Discrepancy(String path, String problem, String blamedOp) {
    this.path = path;
    this.problem = problem;
    this.blamedOp = blamedOp;
  }

  @Override
  public String toString() {
    return path + ": " + problem + " (blamed on " + blamedOp + ")";
  }
}
