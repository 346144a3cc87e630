package org.nvmnn.workload.heap;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The live objects of a JVM by class, from `jcmd PID GC.class_histogram` (which runs a full
 * collection first, so only reachable objects are counted). Parses lines " num: instances bytes
 * class-name [(module)]" and the "Total instances bytes" line.
 */
final class ClassHistogram {
  private static final Pattern ROW = Pattern.compile("^\\s*\\d+:\\s+(\\d+)\\s+(\\d+)\\s+(\\S+).*$");
  private static final Pattern TOTAL = Pattern.compile("^Total\\s+(\\d+)\\s+(\\d+)\\s*$");

  final Map<String, long[]> byClass = new HashMap<>(); // class -> {instances, bytes}
  long totalInstances = -1;
  long totalBytes = -1;

  static ClassHistogram parse(String text) {
    ClassHistogram h = new ClassHistogram();
    for (String line : text.split("\n")) {
      Matcher m = ROW.matcher(line);
      if (m.matches()) {
        long[] v = h.byClass.computeIfAbsent(m.group(3), k -> new long[2]);
        v[0] += Long.parseLong(m.group(1));
        v[1] += Long.parseLong(m.group(2));
        continue;
      }
      Matcher t = TOTAL.matcher(line.trim());
      if (t.matches()) {
        h.totalInstances = Long.parseLong(t.group(1));
        h.totalBytes = Long.parseLong(t.group(2));
      }
    }
    if (h.totalBytes < 0 || h.byClass.isEmpty()) {
      throw new IllegalArgumentException(
          "not a class histogram (no rows or no Total line): "
              + text.substring(0, Math.min(200, text.length())));
    }
    return h;
  }

  /** Runs jcmd against {@code pid}; throws with jcmd's output if it fails. */
  static ClassHistogram take(String jcmd, long pid) throws IOException, InterruptedException {
    Process p =
        new ProcessBuilder(jcmd, Long.toString(pid), "GC.class_histogram")
            .redirectErrorStream(true)
            .start();
    String out;
    try (InputStream in = p.getInputStream()) {
      ByteArrayOutputStream buf = new ByteArrayOutputStream();
      byte[] b = new byte[1 << 16];
      for (int n; (n = in.read(b)) > 0; ) {
        buf.write(b, 0, n);
      }
      out = new String(buf.toByteArray(), StandardCharsets.UTF_8);
    }
    int rc = p.waitFor();
    if (rc != 0) {
      throw new IOException("jcmd " + pid + " GC.class_histogram exited " + rc + ": " + out);
    }
    return parse(out);
  }

  /** One class's change between two histograms. */
  static final class Delta {
    final String className;
    final long instances;
    final long bytes;

    Delta(String className, long instances, long bytes) {
      this.className = className;
      this.instances = instances;
      this.bytes = bytes;
    }
  }

  /** Per-class change from {@code before} to {@code after}, largest absolute byte change first. */
  static List<Delta> diff(ClassHistogram before, ClassHistogram after) {
    Set<String> names = new HashSet<>(before.byClass.keySet());
    names.addAll(after.byClass.keySet());
    List<Delta> out = new ArrayList<>();
    for (String n : names) {
      long[] b = before.byClass.getOrDefault(n, new long[2]);
      long[] a = after.byClass.getOrDefault(n, new long[2]);
      if (a[0] != b[0] || a[1] != b[1]) {
        out.add(new Delta(n, a[0] - b[0], a[1] - b[1]));
      }
    }
    out.sort(
        Comparator.comparingLong((Delta d) -> -Math.abs(d.bytes)).thenComparing(d -> d.className));
    return out;
  }
}
