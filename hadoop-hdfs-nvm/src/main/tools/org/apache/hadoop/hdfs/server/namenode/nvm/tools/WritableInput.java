package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import java.nio.charset.StandardCharsets;

/**
 * Reads Hadoop's Writable encodings from a byte array, as {@code WritableUtils} and {@code Text}
 * read them (the tools load no Hadoop class): a variable-length long (the first byte alone if it is
 * at least -112, else a length marker for the negative or positive big-endian value that follows,
 * one's complement for a negative one), a variable-length int (the same, within int range), and a
 * Text (a vint length, below {@code Text.DEFAULT_MAX_LEN}, then that many UTF-8 bytes).
 */
final class WritableInput {
  /** Text.DEFAULT_MAX_LEN: Text.readFields refuses a length at or above it. */
  static final int TEXT_MAX_LEN = 1024 * 1024;

  /** A payload Hadoop's reader would refuse, and the index of the byte where it does. */
  static final class Malformed extends Exception {
    private static final long serialVersionUID = 1L;
    final int at;

    Malformed(int at, String why) {
      super(why);
      this.at = at;
    }
  }

  private final byte[] b;
  private int pos;

  WritableInput(byte[] b) {
    this.b = b;
  }

  /** The index of the next byte to read. */
  int position() {
    return pos;
  }

  byte readByte(String what) throws Malformed {
    if (pos >= b.length) {
      throw new Malformed(pos, "ends before the " + what);
    }
    return b[pos++];
  }

  /** WritableUtils.readVLong. */
  long readVLong(String what) throws Malformed {
    byte first = readByte(what);
    if (first >= -112) {
      return first;
    }
    boolean negative = first < -120;
    int len = negative ? -120 - first : -112 - first; // bytes after the marker: 1..8
    long v = 0;
    for (int i = 0; i < len; i++) {
      v = v << 8 | (readByte(what) & 0xff);
    }
    return negative ? ~v : v;
  }

  /** WritableUtils.readVInt: a vlong within int range. */
  int readVInt(String what) throws Malformed {
    int at = pos;
    long v = readVLong(what);
    if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
      throw new Malformed(at, "has a " + what + " of " + v + ", too long to fit in an int");
    }
    return (int) v;
  }

  /** Text.readFields(in, DEFAULT_MAX_LEN); malformed UTF-8 is replaced, as Text.toString does. */
  String readText(String what) throws Malformed {
    int at = pos;
    int len = readVInt(what + " length");
    if (len < 0 || len >= TEXT_MAX_LEN) {
      throw new Malformed(at, "has a " + what + " length of " + len);
    }
    if (len > b.length - pos) {
      throw new Malformed(b.length, "ends inside the " + what + " (" + len + " bytes)");
    }
    String s = new String(b, pos, len, StandardCharsets.UTF_8);
    pos += len;
    return s;
  }
}
