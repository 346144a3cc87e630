package org.nvmnn.workload.ha;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** A line of the {@link AckLog}, read back. */
final class LogLine {
  final long millis;
  final String thread;
  final Outcome outcome;
  final LoadOp op;
  final String text;

  private LogLine(String text) {
    String[] f = text.split(" ");
    this.millis = Long.parseLong(f[0]);
    this.thread = f[1];
    this.outcome = Outcome.valueOf(f[2]);
    this.op = LoadOp.parse(f, 3);
    this.text = text;
  }

  static LogLine parse(String text) {
    return new LogLine(text);
  }

  static List<LogLine> readAll(Path file) throws IOException {
    List<LogLine> out = new ArrayList<>();
    for (String s : Files.readAllLines(file, StandardCharsets.UTF_8)) {
      if (!s.isEmpty()) {
        out.add(parse(s));
      }
    }
    return out;
  }

  @Override
  public String toString() {
    return text;
  }
}
