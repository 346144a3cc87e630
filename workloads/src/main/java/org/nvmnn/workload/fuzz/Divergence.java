package org.nvmnn.workload.fuzz;

import java.util.ArrayList;
import java.util.List;

/**
 * The two NameNodes disagreed, or one of them died. Kinds, worst first: {@code nvm-exit} / {@code
 * stock-exit} (the process ended during or right after a call), {@code restart-failed} (it did not
 * come back after SIGKILL), {@code hang} (no answer within the RPC timeout), {@code
 * namespace-before-restart} / {@code namespace-after-restart} (the full listings differ), {@code
 * exception} (different exception classes, or one threw and one did not), {@code result} (different
 * return values), {@code refusal-bypassed} (the NVM NameNode accepted a call the refusal list says
 * it refuses), {@code undocumented-refusal} (it refused one the list does not name).
 */
final class Divergence {
  final String kind;
  final String side;
  final long opIndex;
  final Op op;
  final String signature;
  final List<String> details = new ArrayList<>();
  String logTail;

  /** For namespace differences: the first path that differs (the shrinker follows it). */
  String path;

  Divergence(String kind, String side, long opIndex, Op op, String aspect) {
    this.kind = kind;
    this.side = side;
    this.opIndex = opIndex;
    this.op = op;
    this.signature = kind + ":" + side + ":" + (op == null ? "-" : op.call.name()) + ":" + aspect;
  }

  Divergence at(String p) {
    path = p;
    return this;
  }

  /** The first absolute path in a log line ("File is not under construction: /a/b"), or null. */
  static String pathIn(String line) {
    if (line == null) {
      return null;
    }
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile("(?<![\\w.:])(/[^\\s,;()\\[\\]]+)").matcher(line);
    while (m.find()) {
      String p = m.group(1);
      if (!p.startsWith("/dev/") && !p.startsWith("/tmp/") && !p.startsWith("/work/")) {
        return p.replaceAll("[.:'\"`]+$", "");
      }
    }
    return null;
  }

  Divergence detail(String d) {
    details.add(d);
    return this;
  }

  boolean fatal() {
    return kind.endsWith("-exit") || kind.equals("restart-failed") || kind.equals("hang");
  }

  String describe() {
    StringBuilder b = new StringBuilder();
    b.append(kind).append(" (").append(side).append(") at op ").append(opIndex);
    if (op != null) {
      b.append(": ").append(op.brief());
      if (op.caller != 0) {
        b.append("  [caller ").append(Callers.describe(op.caller)).append(']');
      }
    }
    for (String d : details) {
      b.append("\n    ").append(d);
    }
    if (logTail != null) {
      b.append("\n    log of the ").append(side).append(" NameNode (last lines):");
      for (String l : logTail.split("\n")) {
        b.append("\n      | ").append(l.length() > 400 ? l.substring(0, 400) + "…" : l);
      }
    }
    return b.toString();
  }

  /**
   * A log line reduced to what identifies the failure across runs: the last exception class named
   * in it, an NVM error code (NVM_E…) and the first words of its message, without numbers, paths
   * and long tokens (names, user names).
   */
  static String reason(String line) {
    if (line == null) {
      return "?";
    }
    String s = line.replace('\u0000', ' ');
    String cls = "";
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile("([A-Za-z0-9_$]+(Exception|Error))\\b").matcher(s);
    while (m.find()) {
      cls = m.group(1);
    }
    int code = s.indexOf("NVM_E");
    String rest =
        code >= 0 ? s.substring(code) : s.substring(Math.max(0, s.lastIndexOf("Exception") + 9));
    StringBuilder words = new StringBuilder();
    int n = 0;
    for (String w : rest.split("\\s+")) {
      if (w.isEmpty() || w.contains("/") || w.length() > 20) {
        continue;
      }
      words.append(' ').append(w.replaceAll("[0-9]+", "#"));
      if (++n == 14) {
        break;
      }
    }
    return (cls + words).trim();
  }
}
