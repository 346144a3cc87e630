package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import java.nio.charset.StandardCharsets;

/**
 * Reads the protobuf wire format from a byte array as protobuf-java 2.5.0 (Hadoop 2.7.3's {@code
 * CodedInputStream} and generated parsers) reads it; the tools load no Hadoop or protobuf class.
 * Tags, varints (at most 10 bytes; a 32-bit field keeps the low 32 bits), length-delimited fields,
 * nested messages, and the skipping of unknown fields: varints, fixed 64- and 32-bit values,
 * length-delimited bytes and groups. What protobuf's parser refuses, this reader refuses, with the
 * index of the byte where it does: a field cut short by the end of its message, a varint longer
 * than 10 bytes, a negative length, a tag of field number 0, a wire type of 6 or 7, an end-group
 * tag that closes no group (or another field's group), and groups and messages nested deeper than
 * 64.
 */
final class ProtoInput {
  static final int VARINT = 0;
  static final int FIXED64 = 1;
  static final int LENGTH_DELIMITED = 2;
  static final int START_GROUP = 3;
  static final int END_GROUP = 4;
  static final int FIXED32 = 5;

  /** CodedInputStream's default recursion limit: nested groups and messages. */
  static final int RECURSION_LIMIT = 64;

  /** A payload protobuf's parser would refuse, and the index of the byte where it does. */
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

  /** The end of the message being read (the payload's end, or a nested message's). */
  private int limit;

  private int depth;
  private int lastTag;
  private int lastTagAt;

  ProtoInput(byte[] b) {
    this.b = b;
    this.limit = b.length;
  }

  static int tag(int field, int wireType) {
    return field << 3 | wireType;
  }

  static int fieldNumber(int tag) {
    return tag >>> 3;
  }

  static int wireType(int tag) {
    return tag & 7;
  }

  /** The index of the next byte to read. */
  int position() {
    return pos;
  }

  /** The next tag, or 0 at the end of the message being read. */
  int readTag() throws Malformed {
    if (pos >= limit) {
      lastTag = 0;
      return 0;
    }
    lastTagAt = pos;
    lastTag = readVarint32("tag");
    if (fieldNumber(lastTag) == 0) {
      throw new Malformed(lastTagAt, "has a tag of field number 0 (" + lastTag + ")");
    }
    return lastTag;
  }

  private byte readByte(String what) throws Malformed {
    if (pos >= limit) {
      throw new Malformed(pos, "ends inside the " + what);
    }
    return b[pos++];
  }

  /** A varint of up to 10 bytes (readRawVarint64; int64, uint64 and skipped fields). */
  long readVarint64(String what) throws Malformed {
    int at = pos;
    long v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      byte x = readByte(what);
      v |= (long) (x & 0x7f) << shift;
      if (x >= 0) {
        return v;
      }
    }
    throw new Malformed(at, "has a " + what + " longer than 10 bytes");
  }

  /** readRawVarint32 (int32, uint32, bool, lengths, tags): up to 10 bytes, the low 32 bits. */
  int readVarint32(String what) throws Malformed {
    return (int) readVarint64(what);
  }

  /** readBool: a varint32, true unless 0. */
  boolean readBool(String what) throws Malformed {
    return readVarint32(what) != 0;
  }

  /** A length prefix: refused when negative or past the end of the message. */
  private int readLength(String what) throws Malformed {
    int at = pos;
    int len = readVarint32(what + " length");
    if (len < 0) {
      throw new Malformed(at, "has a " + what + " of negative length " + len);
    }
    if (len > limit - pos) {
      throw new Malformed(limit, "ends inside the " + what + " (" + len + " bytes)");
    }
    return len;
  }

  /** A string field (readBytes): malformed UTF-8 is replaced, as ByteString.toStringUtf8 does. */
  String readString(String what) throws Malformed {
    int len = readLength(what);
    String s = new String(b, pos, len, StandardCharsets.UTF_8);
    pos += len;
    return s;
  }

  /**
   * Enters a nested message field (readMessage): returns the enclosing limit, for {@link
   * #leaveMessage}.
   */
  int enterMessage(String what) throws Malformed {
    int at = pos;
    int len = readVarint32(what + " length");
    if (depth >= RECURSION_LIMIT) {
      throw new Malformed(at, "nests groups and messages deeper than " + RECURSION_LIMIT);
    }
    if (len < 0) {
      throw new Malformed(at, "has a " + what + " of negative length " + len);
    }
    if (len > limit - pos) {
      throw new Malformed(limit, "ends inside the " + what + " (" + len + " bytes)");
    }
    int outer = limit;
    limit = pos + len;
    depth++;
    return outer;
  }

  /** Leaves a nested message that {@link #readTag} ended (0 at its limit). */
  void leaveMessage(int outer) {
    depth--;
    limit = outer;
  }

  /**
   * Skips the field of {@code tag} (an unknown field, as UnknownFieldSet.mergeFieldFrom reads it);
   * throws on an end-group tag, which closes no group here (a message ends at its limit).
   */
  void skipField(int tag) throws Malformed {
    if (!skip(tag)) {
      throw new Malformed(
          lastTagAt, "has an end-group tag of field " + fieldNumber(tag) + " outside any group");
    }
  }

  /** False for an end-group tag (which ends the group or message being read). */
  private boolean skip(int tag) throws Malformed {
    int field = fieldNumber(tag);
    switch (wireType(tag)) {
      case VARINT:
        readVarint64("field " + field);
        return true;
      case FIXED64:
        skipBytes(8, "field " + field);
        return true;
      case LENGTH_DELIMITED:
        skipBytes(readLength("field " + field), "field " + field);
        return true;
      case START_GROUP:
        skipGroup(field);
        return true;
      case END_GROUP:
        return false;
      case FIXED32:
        skipBytes(4, "field " + field);
        return true;
      default:
        throw new Malformed(
            lastTagAt, "has field " + field + " of wire type " + wireType(tag) + ", which is none");
    }
  }

  private void skipBytes(int n, String what) throws Malformed {
    if (n > limit - pos) {
      throw new Malformed(limit, "ends inside the " + what);
    }
    pos += n;
  }

  /** readGroup into an UnknownFieldSet: fields up to the end-group tag of the same field. */
  private void skipGroup(int field) throws Malformed {
    if (depth >= RECURSION_LIMIT) {
      throw new Malformed(lastTagAt, "nests groups and messages deeper than " + RECURSION_LIMIT);
    }
    depth++;
    int tag;
    do {
      tag = readTag();
    } while (tag != 0 && skip(tag));
    if (tag == 0) {
      throw new Malformed(pos, "ends inside the group of field " + field);
    }
    if (tag != tag(field, END_GROUP)) {
      throw new Malformed(
          lastTagAt,
          "closes the group of field "
              + field
              + " with the end-group tag of field "
              + fieldNumber(tag));
    }
    depth--;
  }
}
