package org.nvmnn.workload.ha;

import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32;
import org.nvmnn.workload.FileContent;

/** The bytes of a file of the load, derived from the path it was created at. */
final class NamedContent {
  private NamedContent() {}

  static byte[] of(String createdPath, int length) {
    byte[] name = createdPath.getBytes(StandardCharsets.UTF_8);
    CRC32 crc = new CRC32();
    crc.update(name, 0, name.length);
    return FileContent.bytes(((long) createdPath.hashCode() << 32) ^ crc.getValue(), length);
  }
}
