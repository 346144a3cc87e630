package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

/**
 * CRC-32C (Castagnoli, reflected polynomial 0x82F63B78), as the header and the undo record use
 * it. Java 8 has no CRC32C class, and the native one is not public; {@code Crc32cTest} in this
 * package pins it to the standard check value.
 */
final class Crc32c {
  private static final int[] TABLE = new int[256];

  static {
    for (int n = 0; n < 256; n++) {
      int c = n;
      for (int k = 0; k < 8; k++) {
        c = (c & 1) != 0 ? (c >>> 1) ^ 0x82F63B78 : c >>> 1;
      }
      TABLE[n] = c;
    }
  }

  private Crc32c() {
  }

  static int of(byte[] b, int off, int len) {
    int crc = ~0;
    for (int i = off; i < off + len; i++) {
      crc = (crc >>> 8) ^ TABLE[(crc ^ b[i]) & 0xff];
    }
    return ~crc;
  }
}
