package org.nvmnn.workload.ha;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;

/** A whole file's bytes, as the DataNodes serve them. */
final class FileReader {
  private FileReader() {}

  static byte[] readAll(DistributedFileSystem fs, String path) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    byte[] buf = new byte[8192];
    try (InputStream in = fs.open(new Path(path))) {
      for (int n; (n = in.read(buf)) > 0; ) {
        bytes.write(buf, 0, n);
      }
    }
    return bytes.toByteArray();
  }
}
