package org.apache.hadoop.hdfs.server.namenode.nvm;

import static org.junit.Assert.*;

import java.util.Random;
import org.apache.hadoop.util.PureJavaCrc32C;
import org.junit.Rule;
import org.junit.Test;

/**
 * The native CRC-32C (the only one in the project: the offline tools have no copy of their own)
 * against the standard check value, Hadoop's PureJavaCrc32C and the header CRC the library wrote.
 */
public class Crc32cTest {
  @Rule public ShmDir shm = new ShmDir();

  private static long hadoop(byte[] b, int off, int len) {
    PureJavaCrc32C c = new PureJavaCrc32C();
    c.update(b, off, len);
    return c.getValue();
  }

  @Test
  public void nativeCrc32cEqualsPureJavaCrc32C() {
    assertEquals(0xe3069283L, NvmNative.crc32c(0, "123456789".getBytes(), 0, 9) & 0xffffffffL);
    Random rnd = new Random(42);
    for (int len : new int[] {0, 1, 7, 8, 63, 64, 255, 4096, 10001}) {
      byte[] b = new byte[len + 3];
      rnd.nextBytes(b);
      assertEquals("len " + len, hadoop(b, 3, len), NvmNative.crc32c(0, b, 3, len) & 0xffffffffL);
    }
  }

  @Test
  public void headerCrcIsPureJavaCrc32COfTheCoveredBytes() throws Exception {
    try (Region r = shm.create("r", ShmDir.SMALL)) {
      byte[] hdr = r.getBytes(0, RegionLayout.HDR_CRC_COVERED);
      assertEquals(hadoop(hdr, 0, hdr.length), r.getInt(RegionLayout.HDR_CRC) & 0xffffffffL);
      assertEquals(r.getInt(RegionLayout.HDR_CRC), NvmNative.crc32c(0, hdr, 0, hdr.length));
    }
  }
}
