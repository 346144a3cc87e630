package org.nvmnn.workload;

import java.io.BufferedWriter;
import java.io.Closeable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A worker's log, one line per event, flushed per line: "ms e<epoch> TAG text". ACK lines are the
 * acknowledged operations; INDOUBT-* lines the failed calls and how they were resolved; LOST /
 * NOT-ALL-OR-NOTHING / ERROR lines are failures of the test.
 */
final class OpLog implements Closeable {
  private final BufferedWriter out;

  OpLog(Path file) throws IOException {
    out = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
  }

  synchronized void line(long epoch, String tag, String text) {
    try {
      out.write(System.currentTimeMillis() + " e" + epoch + " " + tag + " " + text);
      out.newLine();
      out.flush();
    } catch (IOException e) {
      throw new IllegalStateException("cannot write the operation log", e);
    }
  }

  @Override
  public synchronized void close() throws IOException {
    out.close();
  }
}
