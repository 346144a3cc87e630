package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;

/** Decoding of a page state word (magic &lt;&lt; 32 | kind &lt;&lt; 8 | state), see region-format.md §5.1. */
final class PageState {
  private PageState() {
  }

  static long word(int kind, int state) {
    return (PAGE_MAGIC << PAGE_MAGIC_SHIFT) | ((long) kind << KIND_SHIFT) | state;
  }

  static int state(long word) {
    return (int) (word & STATE_MASK);
  }

  static int kind(long word) {
    return (int) ((word >>> KIND_SHIFT) & 0xff);
  }

  static long magic(long word) {
    return word >>> PAGE_MAGIC_SHIFT;
  }

  /** What recovery's scan accepts: the page magic and a state of PENDING, LIVE or INVALID. */
  static boolean isWellFormed(long word) {
    return magic(word) == PAGE_MAGIC && state(word) <= STATE_INVALID;
  }

  static boolean isKnownKind(int kind) {
    return kind >= KIND_DIR && kind <= KIND_STRING;
  }

  static String kindName(int kind) {
    switch (kind) {
      case KIND_DIR:
        return "DIR";
      case KIND_FILE:
        return "FILE";
      case KIND_NAME_EXT:
        return "NAME_EXT";
      case KIND_BLOCK_EXT:
        return "BLOCK_EXT";
      case KIND_STRING:
        return "STRING";
      default:
        return "kind " + kind;
    }
  }

  static String stateName(int state) {
    switch (state) {
      case STATE_PENDING:
        return "PENDING";
      case STATE_LIVE:
        return "LIVE";
      case STATE_INVALID:
        return "INVALID";
      default:
        return "state " + state;
    }
  }

  /** "LIVE DIR", "INVALID FILE", "never used", or the raw word if it is malformed. */
  static String describe(long word) {
    if (word == 0) {
      return "a never-used page";
    }
    if (!isWellFormed(word)) {
      return "a page with the malformed state word " + hex(word);
    }
    return "a " + stateName(state(word)) + " " + kindName(kind(word)) + " page";
  }

  static String hex(long word) {
    return String.format("0x%016x", word);
  }
}
