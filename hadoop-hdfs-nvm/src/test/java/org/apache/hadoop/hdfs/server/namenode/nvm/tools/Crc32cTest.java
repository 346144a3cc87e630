package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.junit.Assert.*;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Arrays;

import org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout;
import org.apache.hadoop.hdfs.server.namenode.nvm.ShmDir;
import org.junit.Rule;
import org.junit.Test;

/** The Java CRC-32C the refusal locator uses agrees with the standard and with the native header CRC. */
public class Crc32cTest {
  @Rule
  public ShmDir shm = new ShmDir();

  @Test
  public void standardCheckValue() {
    byte[] b = "123456789".getBytes(StandardCharsets.US_ASCII);
    assertEquals(0xE3069283, Crc32c.of(b, 0, b.length));
  }

  @Test
  public void matchesTheHeaderCrcTheNativeLibraryWrote() throws Exception {
    shm.create("r", 1L << 20).close();
    byte[] header = Arrays.copyOf(Files.readAllBytes(shm.file("r").toPath()), RegionLayout.HEADER_SIZE);
    int stored = ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN).getInt(RegionLayout.HDR_CRC);
    assertEquals(stored, Crc32c.of(header, 0, RegionLayout.HDR_CRC_COVERED));
  }
}
