package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

/**
 * Escaping for the text dump, so that every line splits unambiguously at spaces and each field at
 * its separators: a character that could be mistaken for a separator is written as {@code \xHH}
 * (its code point in hex, two or more digits).
 */
final class TextEscape {
  private TextEscape() {}

  /** A path: control characters, space and backslash are escaped; '/' separates components. */
  static String path(String s) {
    return escape(s, " \\");
  }

  /**
   * A string value (owner, group, client): also '=', ':', ',', '@', and a leading '-' or '?', since
   * "-" means none and "?N" a string id without a page.
   */
  static String value(String s) {
    String e = escape(s, " \\=:,@");
    if (!e.isEmpty() && (e.charAt(0) == '-' || e.charAt(0) == '?')) {
      e = hex(e.charAt(0)) + e.substring(1);
    }
    return e;
  }

  private static String escape(String s, String special) {
    StringBuilder b = null;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      boolean esc = c < 0x20 || c == 0x7f || special.indexOf(c) >= 0;
      if (esc && b == null) {
        b = new StringBuilder(s.substring(0, i));
      }
      if (b != null) {
        b.append(esc ? hex(c) : String.valueOf(c));
      }
    }
    return b == null ? s : b.toString();
  }

  private static String hex(char c) {
    return String.format("\\x%02x", (int) c);
  }
}
