package org.nvmnn.workload.ha;

import java.io.BufferedWriter;
import java.io.Closeable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The load's append-only log, shared by its threads, one flushed line per event: "ms thread OUTCOME
 * operation [# detail]". The wall-clock ms is taken under the lock, so the lines are in time order.
 */
final class AckLog implements Closeable {
  private final BufferedWriter out;

  AckLog(Path file) throws IOException {
    out =
        Files.newBufferedWriter(
            file, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
  }

  synchronized void write(String thread, Outcome outcome, LoadOp op, String detail) {
    try {
      out.write(System.currentTimeMillis() + " " + thread + " " + outcome + " " + op);
      if (detail != null) {
        out.write(" # " + detail.replace('\n', ' '));
      }
      out.newLine();
      out.flush();
    } catch (IOException e) {
      throw new IllegalStateException("cannot write the load's log", e);
    }
  }

  @Override
  public synchronized void close() throws IOException {
    out.close();
  }
}
