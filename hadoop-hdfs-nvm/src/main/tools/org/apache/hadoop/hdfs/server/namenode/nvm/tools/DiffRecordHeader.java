package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The head of a RECORD_INODE_DIFFS payload (region-format.md §13): a little-endian u32 count and
 * that many u64 ids of the inodes the diff list's deleted lists hold (inodes not in the current
 * tree), before the protobuf part only the NameNode parses.
 */
final class DiffRecordHeader {
  final long[] deleted;

  /** The bytes after the ids (the string table and the diffs). */
  final int rest;

  private DiffRecordHeader(long[] deleted, int rest) {
    this.deleted = deleted;
    this.rest = rest;
  }

  /** The header of {@code payload}, or null if the payload is shorter than its count says. */
  static DiffRecordHeader decode(byte[] payload) {
    if (payload == null || payload.length < 4) {
      return null;
    }
    ByteBuffer b = ByteBuffer.wrap(payload).order(ByteOrder.LITTLE_ENDIAN);
    long n = b.getInt() & 0xffffffffL;
    if (n > (payload.length - 4) / 8) {
      return null;
    }
    long[] ids = new long[(int) n];
    for (int i = 0; i < n; i++) {
      ids[i] = b.getLong();
    }
    return new DiffRecordHeader(ids, payload.length - 4 - 8 * (int) n);
  }
}
