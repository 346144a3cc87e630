package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;

import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import org.apache.hadoop.hdfs.server.namenode.nvm.NvmException;

/**
 * Where in the file the native open's refusal points: the open says what is wrong but not
 * where, so the same checks (region.c check_header/check_geometry, undo.c nvm_undo_check) are
 * redone here on the first 16 KiB, read with plain file I/O, in the same order, and the offset
 * of the first field that fails is returned; -1 if the refusal has no place in the file (a
 * lock, an I/O error) or the file changed in between.
 */
final class RefusalLocator {
  private final ByteBuffer head;
  private final long fileSize;

  private RefusalLocator(ByteBuffer head, long fileSize) {
    this.head = head;
    this.fileSize = fileSize;
  }

  static Finding refusal(File file, NvmException e) {
    return new Finding(Finding.Kind.REFUSED, locate(file, e.code()), "the native open refuses the region: "
        + e.getMessage());
  }

  static long locate(File file, NvmException.ErrorCode code) {
    switch (code) {
      case ENOTREGION:
        return HDR_MAGIC;
      case ETRUNCATED:
        return file.length(); // the first missing byte
      case EVERSION:
      case ECORRUPT:
        break;
      default:
        return -1;
    }
    try (RandomAccessFile raf = new RandomAccessFile(file, "r")) {
      byte[] b = new byte[(int) Math.min(raf.length(), DATA_OFFSET)];
      raf.readFully(b);
      RefusalLocator l = new RefusalLocator(ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN), raf.length());
      return code == NvmException.ErrorCode.EVERSION ? l.versionField() : l.corruptField();
    } catch (IOException | RuntimeException ex) {
      return -1;
    }
  }

  private long versionField() {
    if (head.getInt(HDR_VERSION) != FORMAT_VERSION) {
      return HDR_VERSION;
    }
    if (head.getInt(HDR_PAGE_SIZE) != PAGE_SIZE) {
      return HDR_PAGE_SIZE;
    }
    if (head.getInt(HDR_HEADER_SIZE) != HEADER_SIZE) {
      return HDR_HEADER_SIZE;
    }
    return head.getLong(HDR_DATA_OFFSET) != DATA_OFFSET ? HDR_DATA_OFFSET : -1;
  }

  private long corruptField() {
    if (Crc32c.of(head.array(), 0, HDR_CRC_COVERED) != head.getInt(HDR_CRC)) {
      return HDR_CRC;
    }
    long size = head.getLong(HDR_REGION_SIZE);
    if (size != fileSize || size < MIN_REGION_SIZE || size % PAGE_SIZE != 0) {
      return HDR_REGION_SIZE;
    }
    long pages = head.getLong(HDR_PAGE_COUNT);
    if (pages != (size - DATA_OFFSET) / PAGE_SIZE || pages > MAX_PAGE_COUNT) {
      return HDR_PAGE_COUNT;
    }
    if (head.getLong(SB_MAGIC) != SUPER_MAGIC) {
      return SB_MAGIC;
    }
    long limitWord = head.getLong(SB_SCAN_LIMIT);
    long limit = limitWord & 0xffffffffL;
    if (limitWord != ScanLimit.word(limit) || limit > pages) {
      return SB_SCAN_LIMIT;
    }
    return head.getLong(UNDO_STATE) == 0 ? -1 : undoField(size);
  }

  private long undoField(long size) {
    long count = head.getInt(UNDO_ENTRY_COUNT) & 0xffffffffL;
    long bytes = head.getInt(UNDO_PAYLOAD_BYTES) & 0xffffffffL;
    if (bytes > UNDO_PAYLOAD_MAX) {
      return UNDO_PAYLOAD_BYTES;
    }
    if (Crc32c.of(head.array(), UNDO_PAYLOAD, (int) bytes) != head.getInt(UNDO_CRC)) {
      return UNDO_CRC;
    }
    long pos = 0;
    for (long i = 0; i < count; i++) {
      if (pos + UNDO_ENTRY_HEADER > bytes) {
        return UNDO_ENTRY_COUNT;
      }
      long target = head.getLong((int) (UNDO_PAYLOAD + pos));
      long len = head.getInt((int) (UNDO_PAYLOAD + pos + 8)) & 0xffffffffL;
      long entry = UNDO_PAYLOAD + pos;
      pos += UNDO_ENTRY_HEADER + ((len + 7) & ~7L);
      if (pos > bytes || !targetOk(target, len, size)) {
        return entry;
      }
    }
    return pos != bytes ? UNDO_ENTRY_COUNT : -1;
  }

  /** undo.c entry_target_ok: a superblock counter range, or a range inside one data page. */
  private static boolean targetOk(long target, long len, long size) {
    if (len == 0 || (len == 8 && target % 8 != 0)) {
      return false;
    }
    boolean counters = target >= SB_LAST_INODE_ID && len <= SB_LAST_TXID + 8L - target;
    boolean inPage = target >= DATA_OFFSET && target < size
        && len <= PAGE_SIZE - (target - DATA_OFFSET) % PAGE_SIZE;
    return counters || inPage;
  }
}
