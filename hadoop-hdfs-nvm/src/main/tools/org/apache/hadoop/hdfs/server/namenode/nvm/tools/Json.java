package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

/**
 * A minimal JSON object writer (RFC 8259 string escaping). The tools run with the drop-in jar
 * alone, which has no JSON library, so the few objects they print are written by hand.
 */
final class Json {
  private final StringBuilder b = new StringBuilder("{");
  private boolean first = true;

  private Json key(String k) {
    if (!first) {
      b.append(", ");
    }
    first = false;
    quote(b, k);
    return this;
  }

  Json put(String k, long v) {
    key(k).b.append(':').append(v);
    return this;
  }

  Json put(String k, double v) {
    key(k)
        .b
        .append(':')
        .append(Double.isNaN(v) || Double.isInfinite(v) ? "null" : String.format("%.6f", v));
    return this;
  }

  Json put(String k, boolean v) {
    key(k).b.append(':').append(v);
    return this;
  }

  /** A string, or null. */
  Json put(String k, String v) {
    key(k).b.append(':');
    if (v == null) {
      b.append("null");
    } else {
      quote(b, v);
    }
    return this;
  }

  /** A value that is already JSON (an object, an array, null). */
  Json putRaw(String k, String json) {
    key(k).b.append(':').append(json);
    return this;
  }

  @Override
  public String toString() {
    return b.toString() + "}";
  }

  static void quote(StringBuilder b, String s) {
    b.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"':
          b.append("\\\"");
          break;
        case '\\':
          b.append("\\\\");
          break;
        case '\n':
          b.append("\\n");
          break;
        case '\r':
          b.append("\\r");
          break;
        case '\t':
          b.append("\\t");
          break;
        default:
          if (c < 0x20) {
            b.append(String.format("\\u%04x", (int) c));
          } else {
            b.append(c);
          }
      }
    }
    b.append('"');
  }

  static String quote(String s) {
    StringBuilder b = new StringBuilder();
    quote(b, s);
    return b.toString();
  }
}
