package org.apache.hadoop.hdfs.server.namenode.nvm;

/**
 * CRC-32C (Castagnoli), the checksum of the header, the redo records (and the undo record of older
 * regions), every LIVE page and (its low 16 bits) every superblock counter (region-format.md §2,
 * §4, §11). The library's own implementation, reached through JNI, is the only one in the project:
 * the offline tools compose the page and counter checks from the format's definition and call this
 * for the CRC itself.
 */
public final class Crc32c {
  private Crc32c() {}

  /** The CRC-32C of {@code data[off, off + len)}, continuing from {@code crc} (0 to start). */
  public static int update(int crc, byte[] data, int off, int len) {
    if (off < 0 || len < 0 || off > data.length - len) {
      throw new IndexOutOfBoundsException(
          "range [" + off + ", " + off + "+" + len + ") of a " + data.length + "-byte array");
    }
    return NvmNative.crc32c(crc, data, off, len);
  }
}
