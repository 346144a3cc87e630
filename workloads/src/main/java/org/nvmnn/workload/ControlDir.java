package org.nvmnn.workload;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Files shared with the driver script. The driver writes "epoch" (the number of NameNode restarts
 * so far, written once the restarted NameNode answers and has left safe mode) and "stop"; the
 * workload writes "verified" (the highest epoch every worker has verified). A daemon thread polls
 * the driver's files every 50 ms.
 */
final class ControlDir {
  private final Path dir;
  private volatile long epoch;
  private volatile boolean stop;

  ControlDir(Path dir) throws IOException {
    this.dir = dir;
    Files.createDirectories(dir);
    poll();
    Thread poller =
        new Thread(
            () -> {
              while (true) {
                try {
                  poll();
                  Thread.sleep(50);
                } catch (InterruptedException e) {
                  return;
                } catch (IOException | RuntimeException e) {
                  System.err.println(
                      "control dir: " + e); // a half-written file; the next poll sees it whole
                }
              }
            },
            "control-poller");
    poller.setDaemon(true);
    poller.start();
  }

  private void poll() throws IOException {
    Path e = dir.resolve("epoch");
    if (Files.exists(e)) {
      epoch = Long.parseLong(new String(Files.readAllBytes(e), StandardCharsets.US_ASCII).trim());
    }
    if (Files.exists(dir.resolve("stop"))) {
      stop = true;
    }
  }

  long epoch() {
    return epoch;
  }

  boolean stopRequested() {
    return stop;
  }

  /** Stops the workers without the driver (a worker died). */
  void stopLocally() {
    stop = true;
  }

  /** Until the driver announces a restart after epoch e, or asks to stop. */
  void awaitEpochAfter(long e, long timeoutMs) throws IOException {
    long deadline = System.currentTimeMillis() + timeoutMs;
    while (epoch <= e && !stop) {
      if (System.currentTimeMillis() > deadline) {
        throw new IOException(
            "no NameNode restart announced within " + timeoutMs + " ms after epoch " + e);
      }
      try {
        Thread.sleep(50);
      } catch (InterruptedException ie) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted", ie);
      }
    }
  }

  /** Write-then-rename, so the driver never reads a partial file. */
  void publish(String name, String content) throws IOException {
    Path tmp = dir.resolve(name + ".tmp");
    Files.write(tmp, (content + "\n").getBytes(StandardCharsets.US_ASCII));
    Files.move(
        tmp,
        dir.resolve(name),
        StandardCopyOption.ATOMIC_MOVE,
        StandardCopyOption.REPLACE_EXISTING);
  }
}
