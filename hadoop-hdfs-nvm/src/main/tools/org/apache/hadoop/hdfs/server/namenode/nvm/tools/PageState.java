package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;

/**
 * What the checks say about a page state word (region-format.md §5.1, §11: bits 63..32 the page
 * magic, or a LIVE page's checksum; bits 31..16 zero; kind in 15..8; state in 7..0): which words
 * recovery's scan accepts, and names for messages. The word itself is composed and taken apart by
 * {@link org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout}'s helpers, as the store does.
 */
final class PageState {
  private PageState() {}

  /** Bits 31..16 of a state word, zero in every word the library writes. */
  private static final long RESERVED_BITS = 0xffff0000L;

  /**
   * What recovery's scan accepts before it looks at a checksum: bits 31..16 zero, a state of
   * PENDING, LIVE or INVALID, and the page magic on top unless the page is LIVE (a LIVE page keeps
   * its checksum there, or the magic in a region without the feature; {@link SealCheck} judges
   * which).
   */
  static boolean isWellFormed(long word) {
    return (word & RESERVED_BITS) == 0
        && stateOf(word) <= STATE_INVALID
        && (stateOf(word) == STATE_LIVE || magicOf(word) == PAGE_MAGIC);
  }

  /**
   * A LIVE page of {@code kind}, judged by the low half of its word as recovery judges pages it
   * follows (nvm_is_live): the top half is the checksum, verified page by page by the scan.
   */
  static boolean isLive(long word, int kind) {
    return (word & 0xffffffffL) == (stateWord(kind, STATE_LIVE) & 0xffffffffL);
  }

  /**
   * A kind the format defines. (A RECORD page is refused all the same in a region without the
   * records feature, an ATTR_EXT page in one without the inode-attributes feature, a SYMLINK page
   * in one without the symlinks feature: {@link PageCensus}.)
   */
  static boolean isKnownKind(int kind) {
    switch (kind) {
      case KIND_DIR:
      case KIND_FILE:
      case KIND_NAME_EXT:
      case KIND_BLOCK_EXT:
      case KIND_STRING:
      case KIND_STRING_EXT:
      case KIND_RECORD:
      case KIND_RECORD_EXT:
      case KIND_ATTR_EXT:
      case KIND_SYMLINK:
      case KIND_REDO_CHAIN:
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
      case KIND_RECORD:
        return "RECORD";
      case KIND_RECORD_EXT:
        return "RECORD_EXT";
      case KIND_ATTR_EXT:
        return "ATTR_EXT";
      case KIND_SYMLINK:
        return "SYMLINK";
      case KIND_REDO_CHAIN:
        return "REDO_CHAIN";
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
