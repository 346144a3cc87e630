package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;

/**
 * What the checks say about a page state word (magic &lt;&lt; 32 | kind &lt;&lt; 8 | state, see
 * region-format.md §5.1): which words recovery's scan accepts, and names for messages. The word
 * itself is composed and taken apart by {@link
 * org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout}'s helpers, as the store does.
 */
final class PageState {
  private PageState() {}

  /** What recovery's scan accepts: the page magic and a state of PENDING, LIVE or INVALID. */
  static boolean isWellFormed(long word) {
    return magicOf(word) == PAGE_MAGIC && stateOf(word) <= STATE_INVALID;
  }

  static boolean isKnownKind(int kind) {
    switch (kind) {
      case KIND_DIR:
      case KIND_FILE:
      case KIND_NAME_EXT:
      case KIND_BLOCK_EXT:
      case KIND_STRING:
      case KIND_STRING_EXT:
        return true;
      default:
        return false;
    }
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
      case KIND_STRING_EXT:
        return "STRING_EXT";
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
    return "a " + stateName(stateOf(word)) + " " + kindName(kindOf(word)) + " page";
  }

  static String hex(long word) {
    return String.format("0x%016x", word);
  }
}
