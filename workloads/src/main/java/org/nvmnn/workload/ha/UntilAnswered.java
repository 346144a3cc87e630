package org.nvmnn.workload.ha;

import java.io.IOException;
import org.nvmnn.workload.Unavailability;

/**
 * Runs a call again while no NameNode answers it: the failover proxy gives up after its attempts
 * when a failover takes longer, and the call is then repeated until {@code timeoutMs} have passed.
 */
final class UntilAnswered {
  interface Call<T> {
    T call() throws IOException;
  }

  private UntilAnswered() {}

  static <T> T run(Call<T> call, long timeoutMs) throws IOException {
    long deadline = System.currentTimeMillis() + timeoutMs;
    while (true) {
      try {
        return call.call();
      } catch (IOException e) {
        if (!Unavailability.isNameNodeUnavailable(e) || System.currentTimeMillis() > deadline) {
          throw e;
        }
      }
      try {
        Thread.sleep(500);
      } catch (InterruptedException ie) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted", ie);
      }
    }
  }
}
