package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.apache.hadoop.hdfs.server.namenode.nvm.Crc32c;

/**
 * The header of a write-ahead log file (region-format.md §12.1), judged as a read-write open judges
 * it before a replay (in the order of wal.c's nvm_wal_check_header): magic, version and CRC; the
 * region and epoch it belongs to; a capacity that is a multiple of 4096, at least WAL_MIN_CAPACITY,
 * and the file's length less the header.
 */
final class LogHeader {
  /** Bytes read: the fields and their CRC. */
  static final int BYTES = WH_CRC + 4;

  final long magic;
  final int version;
  final long regionId;
  final int epoch;
  final long capacity;
  final long startLsn;
  private final int storedCrc;
  private final int crc;

  private LogHeader(byte[] h) {
    ByteBuffer b = ByteBuffer.wrap(h).order(ByteOrder.LITTLE_ENDIAN);
    magic = b.getLong(WH_MAGIC);
    version = b.getInt(WH_VERSION);
    regionId = b.getLong(WH_REGION_ID);
    epoch = b.getInt(WH_EPOCH);
    capacity = b.getLong(WH_CAPACITY);
    startLsn = b.getLong(WH_START_LSN);
    storedCrc = b.getInt(WH_CRC);
    crc = Crc32c.update(0, h, 0, WH_CRC_COVERED);
  }

  /** The header in {@code h} (at least {@link #BYTES} bytes). */
  static LogHeader parse(byte[] h) {
    return new LogHeader(h);
  }

  /**
   * Why this is not the log of the region {@code regionId} in the epoch {@code epoch}, in a file of
   * {@code fileLength} bytes; null if it is.
   */
  String problem(long fileLength, long wantRegionId, int wantEpoch) {
    if (magic != WAL_MAGIC || version != WAL_VERSION || storedCrc != crc) {
      return "not a write-ahead log of this version (magic 0x"
          + Long.toHexString(magic)
          + ", version "
          + Integer.toUnsignedString(version)
          + ", header CRC "
          + (storedCrc == crc ? "matches" : "does not match")
          + ")";
    }
    if (regionId != wantRegionId || epoch != wantEpoch) {
      return "it belongs to region 0x"
          + hex16(regionId)
          + " epoch "
          + Integer.toUnsignedString(epoch)
          + ", not to this region (0x"
          + hex16(wantRegionId)
          + ") epoch "
          + Integer.toUnsignedString(wantEpoch);
    }
    if (Long.compareUnsigned(capacity, WAL_MIN_CAPACITY) < 0
        || capacity % 4096 != 0
        || fileLength != WAL_HEADER_SIZE + capacity) {
      return "capacity "
          + Long.toUnsignedString(capacity)
          + " does not match its size "
          + fileLength;
    }
    return null;
  }

  private static String hex16(long v) {
    String s = Long.toHexString(v);
    return "0000000000000000".substring(s.length()) + s;
  }
}
