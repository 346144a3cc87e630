package org.nvmnn.workload.fuzz;

/**
 * The string notation of operation files: Java-style quoted strings ({@code \\uXXXX} for every
 * character outside printable ASCII), with long runs of one character written as {@code
 * rep("x",10000)} and joined with {@code +}, so that a 10,000-character user name stays one short
 * line. {@link OpParser} reads it back.
 */
final class Text {
  private Text() {}

  /** Runs at least this long are written as rep(…). */
  static final int RUN = 12;

  static String quote(String s) {
    if (s == null) {
      return "null";
    }
    java.util.List<String> parts = new java.util.ArrayList<>();
    StringBuilder lit = new StringBuilder();
    int i = 0;
    while (i < s.length()) {
      char c = s.charAt(i);
      int j = i;
      while (j < s.length() && s.charAt(j) == c) {
        j++;
      }
      if (j - i >= RUN) {
        if (lit.length() > 0) {
          parts.add(literal(lit.toString()));
          lit.setLength(0);
        }
        parts.add("rep(" + literal(String.valueOf(c)) + "," + (j - i) + ")");
      } else {
        lit.append(s, i, j);
      }
      i = j;
    }
    if (lit.length() > 0 || parts.isEmpty()) {
      parts.add(literal(lit.toString()));
    }
    return String.join("+", parts);
  }

  static String literal(String s) {
    StringBuilder b = new StringBuilder(s.length() + 2).append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '"' || c == '\\') {
        b.append('\\').append(c);
      } else if (c >= 0x20 && c < 0x7f) {
        b.append(c);
      } else {
        b.append(String.format("\\u%04x", (int) c));
      }
    }
    return b.append('"').toString();
  }

  /** A short human form of a possibly long string, for reports. */
  static String brief(String s) {
    String q = quote(s);
    return q.length() <= 160 ? q : q.substring(0, 150) + "…(" + q.length() + " chars)";
  }

  static String repeat(char c, int n) {
    StringBuilder b = new StringBuilder(n);
    for (int i = 0; i < n; i++) {
      b.append(c);
    }
    return b.toString();
  }
}
