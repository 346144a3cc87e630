package org.nvmnn.workload;

import java.util.Random;
import java.util.zip.CRC32;

/** The bytes a CREATE writes, derived from its seed, so any prefix can be checked later. */
public final class FileContent {
  private FileContent() {}

  public static byte[] bytes(long seed, int length) {
    byte[] b = new byte[length];
    new Random(seed).nextBytes(b);
    return b;
  }

  static long crc(byte[] b, int length) {
    CRC32 c = new CRC32();
    c.update(b, 0, length);
    return c.getValue();
  }

  static long crc(long seed, int length) {
    return crc(bytes(seed, length), length);
  }
}
