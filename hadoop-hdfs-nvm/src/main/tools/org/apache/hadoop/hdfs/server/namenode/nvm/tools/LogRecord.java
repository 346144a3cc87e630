package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import org.apache.hadoop.hdfs.server.namenode.nvm.Crc32c;

/**
 * One valid record of a write-ahead log (region-format.md §12.1), as wal.c's valid_at accepts it:
 * at the position its LSN names, with the record magic, that LSN, a length of at least a header, a
 * multiple of 8 and at most the rest of the lap, a zero reserved word, a known type, and a CRC-32C
 * (seeded with the region id and the epoch, little-endian) over its header from WR_LSN on and its
 * payload (a pad record's payload is not covered) that matches.
 */
final class LogRecord {
  final long lsn;
  final int length;
  final int type;
  final long seq;
  final long count;

  /** The entries (empty for a pad record). */
  final byte[] payload;

  private LogRecord(long lsn, int length, int type, long seq, long count, byte[] payload) {
    this.lsn = lsn;
    this.length = length;
    this.type = type;
    this.seq = seq;
    this.count = count;
    this.payload = payload;
  }

  boolean isGroup() {
    return type == WR_TYPE_GROUP;
  }

  /** Bytes of the ring from {@code lsn} to the end of its lap. */
  static long lapLeft(long lsn, long capacity) {
    return capacity - Long.remainderUnsigned(lsn, capacity);
  }

  /** The file offset of the record at {@code lsn}. */
  static long fileOffset(long lsn, long capacity) {
    return WAL_HEADER_SIZE + Long.remainderUnsigned(lsn, capacity);
  }

  /**
   * The valid record at {@code lsn} of the log {@code log} (ring of {@code capacity} bytes; the
   * rest of the lap is at least a record header), or null: the position holds none of this epoch.
   */
  static LogRecord at(FileChannel log, long capacity, long regionId, int epoch, long lsn)
      throws IOException {
    long left = lapLeft(lsn, capacity);
    long at = fileOffset(lsn, capacity);
    byte[] h = read(log, at, WR_PAYLOAD);
    ByteBuffer b = ByteBuffer.wrap(h).order(ByteOrder.LITTLE_ENDIAN);
    long len = b.getInt(WR_LEN) & 0xffffffffL;
    int type = b.getInt(WR_TYPE);
    if (b.getInt(WR_MAGIC) != WAL_RECORD_MAGIC
        || b.getLong(WR_LSN) != lsn
        || len < WR_PAYLOAD
        || len % 8 != 0
        || len > left
        || b.getInt(WR_RESERVED) != 0
        || (type != WR_TYPE_GROUP && type != WR_TYPE_PAD)) {
      return null;
    }
    byte[] payload =
        type == WR_TYPE_GROUP ? read(log, at + WR_PAYLOAD, (int) (len - WR_PAYLOAD)) : new byte[0];
    if (b.getInt(WR_CRC) != crc(regionId, epoch, h, payload)) {
      return null;
    }
    return new LogRecord(
        lsn, (int) len, type, b.getLong(WR_SEQ), b.getInt(WR_COUNT) & 0xffffffffL, payload);
  }

  private static int crc(long regionId, int epoch, byte[] header, byte[] payload) {
    byte[] seed =
        ByteBuffer.allocate(12)
            .order(ByteOrder.LITTLE_ENDIAN)
            .putLong(regionId)
            .putInt(epoch)
            .array();
    int c = Crc32c.update(0, seed, 0, seed.length);
    c = Crc32c.update(c, header, WR_LSN, WR_PAYLOAD - WR_LSN);
    return Crc32c.update(c, payload, 0, payload.length);
  }

  /** {@code len} bytes at {@code off}; zeros past the end of the file (none of a valid log). */
  private static byte[] read(FileChannel log, long off, int len) throws IOException {
    byte[] out = new byte[len];
    ByteBuffer b = ByteBuffer.wrap(out);
    while (b.hasRemaining()) {
      if (log.read(b, off + b.position()) < 0) {
        break;
      }
    }
    return out;
  }
}
