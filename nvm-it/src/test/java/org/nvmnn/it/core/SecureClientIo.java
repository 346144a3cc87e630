package org.nvmnn.it.core;

import static org.junit.Assert.assertEquals;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.PrivilegedExceptionAction;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.security.token.delegation.DelegationTokenIdentifier;
import org.apache.hadoop.io.IOUtils;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.token.Token;

/** What the secure tests do as a client: act as an identity, write and read whole files. */
final class SecureClientIo {
  private SecureClientIo() {}

  static <T> T as(UserGroupInformation ugi, PrivilegedExceptionAction<T> a) throws Exception {
    return ugi.doAs(a);
  }

  /** A new FileSystem (not the cached one) for {@code uri}, opened as {@code ugi}. */
  static FileSystem fs(UserGroupInformation ugi, URI uri, Configuration conf) throws Exception {
    return as(ugi, () -> FileSystem.newInstance(uri, conf));
  }

  static void write(FileSystem fs, String path, byte[] data) throws IOException {
    try (FSDataOutputStream out = fs.create(new Path(path), false)) {
      out.write(data);
    }
  }

  /** The file's {@code length} bytes; fails if it holds more. */
  static byte[] read(FileSystem fs, String path, int length) throws IOException {
    byte[] b = new byte[length];
    try (FSDataInputStream in = fs.open(new Path(path))) {
      IOUtils.readFully(in, b, 0, length);
      assertEquals("end of " + path, -1, in.read());
    }
    return b;
  }

  static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /** The HDFS delegation token identifier inside {@code t} (whatever its kind says). */
  static DelegationTokenIdentifier identifier(Token<?> t) throws IOException {
    DelegationTokenIdentifier id = new DelegationTokenIdentifier();
    id.readFields(new DataInputStream(new ByteArrayInputStream(t.getIdentifier())));
    return id;
  }
}
