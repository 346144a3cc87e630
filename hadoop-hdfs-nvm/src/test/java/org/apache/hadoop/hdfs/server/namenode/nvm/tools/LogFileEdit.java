package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;

import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hdfs.server.namenode.nvm.Crc32c;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionDamage;

/**
 * Test edits of a write-ahead log file (region-format.md §12.1): where its group records lie, and
 * how to change one so that it stays valid (its CRC recomputed) or is torn (its CRC left as it
 * was). The walk is the format's, written again here for the tests; it trusts the log it edits.
 */
final class LogFileEdit {
  private LogFileEdit() {}

  /** The file offsets of the group records from {@code region}'s checkpoint on, in LSN order. */
  static List<Long> groupRecords(File region, File log) throws IOException {
    long capacity = RegionDamage.getLong(log, WH_CAPACITY);
    long lsn = RegionDamage.getLong(region, SB_WAL_CHECKPOINT);
    int epoch = (int) RegionDamage.getLong(region, SB_WAL_EPOCH);
    long regionId = RegionDamage.getLong(region, HDR_CREATION_ID);
    List<Long> out = new ArrayList<Long>();
    for (long walked = 0; walked < capacity; ) {
      long left = capacity - lsn % capacity;
      if (left < WR_PAYLOAD) {
        lsn += left;
        walked += left;
        continue;
      }
      long off = WAL_HEADER_SIZE + lsn % capacity;
      if (RegionDamage.getLong(log, off + WR_LSN) != lsn
          || crc(log, off, regionId, epoch) != getInt(log, off + WR_CRC)) {
        break;
      }
      int len = getInt(log, off + WR_LEN);
      if (getInt(log, off + WR_TYPE) == WR_TYPE_GROUP) {
        out.add(off);
      }
      lsn += len;
      walked += len;
    }
    return out;
  }

  static int getInt(File log, long off) throws IOException {
    return ByteBuffer.wrap(RegionDamage.read(log, off, 4)).order(ByteOrder.LITTLE_ENDIAN).getInt();
  }

  static void putInt(File log, long off, int v) throws IOException {
    RegionDamage.rawWrite(
        log, off, ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(v).array());
  }

  /** The payload offsets of the entries of the record at {@code off}, in order. */
  static List<Long> entries(File log, long off) throws IOException {
    int count = getInt(log, off + WR_COUNT);
    List<Long> out = new ArrayList<Long>();
    long pos = off + WR_PAYLOAD;
    for (int i = 0; i < count; i++) {
      out.add(pos);
      long len = getInt(log, pos + 8) & 0xffffffffL;
      pos += UNDO_ENTRY_HEADER + ((len + 7) & ~7L);
    }
    return out;
  }

  /** Recomputes the CRC of the record at {@code off}: whatever it holds now is valid. */
  static void reseal(File region, File log, long off) throws IOException {
    int epoch = (int) RegionDamage.getLong(region, SB_WAL_EPOCH);
    long regionId = RegionDamage.getLong(region, HDR_CREATION_ID);
    putInt(log, off + WR_CRC, crc(log, off, regionId, epoch));
  }

  private static int crc(File log, long off, long regionId, int epoch) throws IOException {
    int len = getInt(log, off + WR_LEN);
    if (len < WR_PAYLOAD || len > 64 << 20) {
      return ~getInt(log, off + WR_CRC); // not a record: no CRC can match
    }
    boolean group = getInt(log, off + WR_TYPE) == WR_TYPE_GROUP;
    byte[] seed =
        ByteBuffer.allocate(12)
            .order(ByteOrder.LITTLE_ENDIAN)
            .putLong(regionId)
            .putInt(epoch)
            .array();
    byte[] covered = RegionDamage.read(log, off + WR_LSN, (group ? len : WR_PAYLOAD) - WR_LSN);
    return Crc32c.update(Crc32c.update(0, seed, 0, seed.length), covered, 0, covered.length);
  }

  /** Copies {@code region} and its log ({@code log}) to {@code to} and {@code to}.wal. */
  static File copyPair(File region, File log, File to) throws IOException {
    RegionDamage.copy(region, to);
    RegionDamage.copy(log, WriteAheadLog.defaultFile(to));
    return to;
  }
}
