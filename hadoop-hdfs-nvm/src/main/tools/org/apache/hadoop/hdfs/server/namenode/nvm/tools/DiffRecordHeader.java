package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The head of a RECORD_INODE_DIFFS payload (region-format.md §13): three lists, each a
 * little-endian u32 count and that many u64s — the inodes the diff list's deleted lists hold, the
 * inodes its references there (renamed inodes' old places) refer to, and its directory copies'
 * access times — before the protobuf part only the NameNode parses.
 */
final class DiffRecordHeader {
  final long[] deleted;
  final long[] referred;

  private DiffRecordHeader(long[] deleted, long[] referred) {
    this.deleted = deleted;
    this.referred = referred;
  }

  /** The head of {@code payload}, or null if the payload is shorter than its counts say. */
  static DiffRecordHeader decode(byte[] payload) {
    if (payload == null) {
      return null;
    }
    ByteBuffer b = ByteBuffer.wrap(payload).order(ByteOrder.LITTLE_ENDIAN);
    long[] deleted = list(b);
    long[] referred = deleted == null ? null : list(b);
    long[] accessTimes = referred == null ? null : list(b);
    return accessTimes == null ? null : new DiffRecordHeader(deleted, referred);
  }

  private static long[] list(ByteBuffer b) {
    if (b.remaining() < 4) {
      return null;
    }
    long n = b.getInt() & 0xffffffffL;
    if (n > b.remaining() / 8) {
      return null;
    }
    long[] ids = new long[(int) n];
    for (int i = 0; i < n; i++) {
      ids[i] = b.getLong();
    }
    return ids;
  }
}
