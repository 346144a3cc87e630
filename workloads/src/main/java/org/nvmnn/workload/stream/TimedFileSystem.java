package org.nvmnn.workload.stream;

import java.io.IOException;
import java.lang.reflect.Field;
import java.net.URI;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DFSClient;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.NameNodeProxies;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;

/**
 * A DistributedFileSystem whose DFSClient talks to the NameNode through a {@link
 * TimedClientProtocol}. DistributedFileSystem builds its DFSClient itself in initialize(); the
 * timed client replaces it in the (package-private) field {@code dfs}, the only way to observe each
 * RPC without changing the client. DFSClient accepts a ready ClientProtocol only with a null URI
 * (its testing constructor), which it then uses just as the lease renewer's key.
 */
final class TimedFileSystem {
  private TimedFileSystem() {}

  static DistributedFileSystem open(Configuration conf, LatencyRecorder recorder)
      throws IOException {
    URI uri = FileSystem.getDefaultUri(conf);
    DistributedFileSystem fs = new DistributedFileSystem();
    fs.initialize(uri, conf);
    ClientProtocol rpc = NameNodeProxies.createProxy(conf, uri, ClientProtocol.class).getProxy();
    DFSClient timed = new DFSClient(null, TimedClientProtocol.wrap(rpc, recorder), conf, null);
    try {
      Field f = DistributedFileSystem.class.getDeclaredField("dfs");
      f.setAccessible(true);
      DFSClient original = (DFSClient) f.get(fs);
      f.set(fs, timed);
      original.close();
    } catch (ReflectiveOperationException e) {
      timed.close();
      fs.close();
      throw new IOException(
          "cannot install the timed DFSClient into DistributedFileSystem (not Hadoop 2.7.x?)", e);
    }
    return fs;
  }
}
