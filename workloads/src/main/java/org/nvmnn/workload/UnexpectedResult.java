package org.nvmnn.workload;

import java.io.IOException;

/**
 * A call answered "false" (mkdir, rename, delete, setReplication) where the model said it must
 * succeed.
 */
final class UnexpectedResult extends IOException {
  UnexpectedResult(Op op) {
    super("the NameNode answered false to " + op);
  }
}
