package org.nvmnn.workload.fuzz;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The calls the NVM NameNode refuses by design, read from the "## Refused" table of
 * docs/unsupported-operations.md: the back-quoted names in each row's first cell, {@code
 * rollingUpgrade(PREPARE)} restricting a call to some first arguments. A row whose first cell says
 * "**only while**" is conditional: the refusal applies only in some configurations, so the NVM
 * NameNode may also answer like the stock one. Such a refusal, an {@code
 * NvmUnsupportedOperationException} for a listed call, is counted, not reported as a divergence;
 * the call then does not go to the stock NameNode, so both namespaces stay equal.
 */
final class RefusalList {
  private static final Pattern NAME = Pattern.compile("`([A-Za-z]+)(?:\\(([A-Z_]+)\\))?`");

  private final Map<String, Set<String>> calls = new HashMap<>();
  private final Set<String> conditional = new HashSet<>();

  static RefusalList read(Path doc) throws IOException {
    return parse(Files.readAllLines(doc, StandardCharsets.UTF_8));
  }

  static RefusalList parse(List<String> lines) {
    RefusalList r = new RefusalList();
    boolean in = false;
    for (String l : lines) {
      if (l.startsWith("## ")) {
        in = l.trim().equals("## Refused");
        continue;
      }
      if (!in || !l.startsWith("|")) {
        continue;
      }
      String[] cells = l.split("\\|");
      if (cells.length < 2) {
        continue;
      }
      String first = cells[1];
      Matcher m = NAME.matcher(first);
      while (m.find()) {
        String call = m.group(1);
        Set<String> args = r.calls.computeIfAbsent(call, k -> new HashSet<>());
        if (m.group(2) != null) {
          args.add(m.group(2));
        } else {
          args.add("*");
        }
        if (first.contains("**only")) {
          r.conditional.add(call);
        }
      }
    }
    return r;
  }

  int size() {
    return calls.size();
  }

  Set<String> calls() {
    return calls.keySet();
  }

  /** Whether the NVM NameNode refuses this call by design. */
  boolean listed(Op op) {
    Set<String> args = calls.get(op.call.name());
    if (args == null) {
      return false;
    }
    if (args.contains("*")) {
      return true;
    }
    return op.args.length > 0 && op.args[0] != null && args.contains(op.args[0].toString());
  }

  /** Whether the refusal holds only in some configurations. */
  boolean conditional(Op op) {
    return conditional.contains(op.call.name());
  }
}
