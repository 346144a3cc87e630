package org.nvmnn.workload.fuzz;

/**
 * Tokens of one operation line (see {@link Text} and {@link OpParser}): identifiers, integers
 * (optionally signed), quoted strings with Java escapes joined by {@code +} and {@code rep(…)}, and
 * the punctuation {@code ( ) [ ] , .}.
 */
final class Lexer {
  private final String s;
  private int pos;

  Lexer(String s) {
    this.s = s;
  }

  private void skip() {
    while (pos < s.length() && Character.isWhitespace(s.charAt(pos))) {
      pos++;
    }
  }

  boolean atEnd() {
    skip();
    return pos >= s.length();
  }

  char peek() {
    skip();
    return pos < s.length() ? s.charAt(pos) : '\0';
  }

  boolean eat(char c) {
    if (peek() == c) {
      pos++;
      return true;
    }
    return false;
  }

  void expect(char c) {
    if (!eat(c)) {
      throw error("expected '" + c + "'");
    }
  }

  boolean peekIdent(String word) {
    skip();
    if (!s.startsWith(word, pos)) {
      return false;
    }
    int end = pos + word.length();
    return end >= s.length() || !Character.isJavaIdentifierPart(s.charAt(end));
  }

  String ident() {
    skip();
    int start = pos;
    while (pos < s.length() && Character.isJavaIdentifierPart(s.charAt(pos))) {
      pos++;
    }
    if (start == pos) {
      throw error("expected a name");
    }
    return s.substring(start, pos);
  }

  long number() {
    skip();
    int start = pos;
    if (pos < s.length() && (s.charAt(pos) == '-' || s.charAt(pos) == '+')) {
      pos++;
    }
    while (pos < s.length() && Character.isDigit(s.charAt(pos))) {
      pos++;
    }
    try {
      return Long.parseLong(s.substring(start, pos).replace("+", ""));
    } catch (NumberFormatException e) {
      throw error("expected a number");
    }
  }

  /** An octal number written with a leading 0 (permissions). */
  int octal() {
    skip();
    int start = pos;
    while (pos < s.length() && s.charAt(pos) >= '0' && s.charAt(pos) <= '7') {
      pos++;
    }
    if (start == pos) {
      throw error("expected an octal number");
    }
    return Integer.parseInt(s.substring(start, pos), 8);
  }

  /** A string expression: null, or literals and rep("c",n) joined with '+'. */
  String string() {
    if (peekIdent("null")) {
      ident();
      return null;
    }
    StringBuilder b = new StringBuilder();
    do {
      if (peekIdent("rep")) {
        ident();
        expect('(');
        String unit = literal();
        expect(',');
        long n = number();
        expect(')');
        for (long i = 0; i < n; i++) {
          b.append(unit);
        }
      } else {
        b.append(literal());
      }
    } while (eat('+'));
    return b.toString();
  }

  private String literal() {
    expect('"');
    StringBuilder b = new StringBuilder();
    while (true) {
      if (pos >= s.length()) {
        throw error("unterminated string");
      }
      char c = s.charAt(pos++);
      if (c == '"') {
        return b.toString();
      }
      if (c != '\\') {
        b.append(c);
        continue;
      }
      char e = s.charAt(pos++);
      switch (e) {
        case 'u':
          b.append((char) Integer.parseInt(s.substring(pos, pos + 4), 16));
          pos += 4;
          break;
        case 'n':
          b.append('\n');
          break;
        case 't':
          b.append('\t');
          break;
        default:
          b.append(e);
      }
    }
  }

  IllegalArgumentException error(String what) {
    return new IllegalArgumentException(what + " at column " + (pos + 1) + " of: " + s);
  }
}
