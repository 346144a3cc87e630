package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;

/**
 * The fields of one record page (region-format.md §5.5), read through a {@link RegionImage} with no
 * validation: a type, a unique id (the owner id of its RECORD_EXT pages), a key within the type,
 * one mutable value, and a payload whose bytes past RECORD_INLINE_MAX are in its RECORD_EXT chain.
 */
final class RecordPage {
  final RegionImage image;
  final long page;

  /** The RECORD_EXT chain, walked on first use. */
  private ExtChain chain;

  RecordPage(RegionImage image, long page) {
    this.image = image;
    this.page = page;
  }

  long type() {
    return image.getLong(page + RC_TYPE);
  }

  long id() {
    return image.getLong(page + RC_ID);
  }

  long key() {
    return image.getLong(page + RC_KEY);
  }

  long value() {
    return image.getLong(page + RC_VALUE);
  }

  /** RC_LEN, a u64. */
  long length() {
    return image.getLong(page + RC_LEN);
  }

  boolean isToken() {
    return type() == RECORD_DELEGATION_TOKEN;
  }

  boolean isMasterKey() {
    return type() == RECORD_MASTER_KEY;
  }

  boolean isRetryLog() {
    return type() == RECORD_RETRY_LOG;
  }

  boolean isCachePool() {
    return type() == RECORD_CACHE_POOL;
  }

  boolean isCacheDirective() {
    return type() == RECORD_CACHE_DIRECTIVE;
  }

  boolean isCacheIds() {
    return type() == RECORD_CACHE_IDS;
  }

  boolean isTruncateBlock() {
    return type() == RECORD_TRUNCATE_BLOCK;
  }

  boolean isSnapshot() {
    return type() == RECORD_SNAPSHOT;
  }

  boolean isSnapshotIds() {
    return type() == RECORD_SNAPSHOT_IDS;
  }

  boolean isInodeDiffs() {
    return type() == RECORD_INODE_DIFFS;
  }

  boolean isInodeRef() {
    return type() == RECORD_INODE_REF;
  }

  boolean isDiffEntry() {
    return type() == RECORD_DIFF_ENTRY;
  }

  boolean isDiff() {
    return type() == RECORD_DIFF;
  }

  /**
   * "delegation token", "master key", "retry log", "cache pool", "cache directive", "cache ids",
   * "truncate block", "snapshot", "snapshot ids", "inode diffs", "inode reference", "diff entry",
   * "diff" or "type N", for messages.
   */
  String typeName() {
    long t = type();
    if (t == RECORD_DELEGATION_TOKEN) {
      return "delegation token";
    } else if (t == RECORD_MASTER_KEY) {
      return "master key";
    } else if (t == RECORD_RETRY_LOG) {
      return "retry log";
    } else if (t == RECORD_CACHE_POOL) {
      return "cache pool";
    } else if (t == RECORD_CACHE_DIRECTIVE) {
      return "cache directive";
    } else if (t == RECORD_CACHE_IDS) {
      return "cache ids";
    } else if (t == RECORD_TRUNCATE_BLOCK) {
      return "truncate block";
    } else if (t == RECORD_SNAPSHOT) {
      return "snapshot";
    } else if (t == RECORD_SNAPSHOT_IDS) {
      return "snapshot ids";
    } else if (t == RECORD_INODE_DIFFS) {
      return "inode diffs";
    } else if (t == RECORD_INODE_REF) {
      return "inode reference";
    } else if (t == RECORD_DIFF_ENTRY) {
      return "diff entry";
    } else if (t == RECORD_DIFF) {
      return "diff";
    }
    return "type " + t;
  }

  /** "record id 3 (delegation token, RECORD page 18432)", for messages. */
  String describe() {
    return "record id " + id() + " (" + typeName() + ", RECORD page " + page + ")";
  }

  ExtChain chain() {
    if (chain == null) {
      chain = ExtChain.record(image, page, null);
    }
    return chain;
  }

  /**
   * The payload, the inline part and the chain joined; null if the chain is broken (the checker
   * reports it) or the length is more than the tools read.
   */
  byte[] payload() {
    long len = length();
    if (chain().problem() != null || Long.compareUnsigned(len, ExtChain.READ_MAX) > 0) {
      return null;
    }
    byte[] b = new byte[(int) len];
    int inline = (int) Math.min(len, RECORD_INLINE_MAX);
    System.arraycopy(image.getBytes(page + RC_PAYLOAD, inline), 0, b, 0, inline);
    chain().copyPayloads(image, b, inline);
    return b;
  }

  /** The region offset of payload byte {@code index} (of a record whose chain is sound). */
  long payloadOffset(long index) {
    if (index < RECORD_INLINE_MAX) {
      return page + RC_PAYLOAD + index;
    }
    long at = index - RECORD_INLINE_MAX;
    for (int i = 0; i < chain().size(); i++) {
      if (at < chain().count(i)) {
        return chain().page(i) + EXT_PAYLOAD + at;
      }
      at -= chain().count(i);
    }
    return page + RC_LEN; // past the payload: the length is what is short
  }
}
