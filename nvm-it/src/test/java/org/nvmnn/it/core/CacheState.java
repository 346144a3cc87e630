package org.nvmnn.it.core;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.CacheDirectiveEntry;
import org.apache.hadoop.hdfs.protocol.CacheDirectiveInfo;
import org.apache.hadoop.hdfs.protocol.CachePoolEntry;
import org.apache.hadoop.hdfs.protocol.CachePoolInfo;

/** A NameNode's cache pools and directives as lines, in listing order, to compare. */
final class CacheState {
  private CacheState() {}

  /**
   * One line per pool and directive. {@code withMaxRelativeExpiry}: a pool's maximum relative
   * expiry, which 2.7.3's fsimage does not keep. {@code withExpiry}: a directive's absolute expiry,
   * which depends on when a relative one was set.
   */
  static List<String> lines(
      DistributedFileSystem fs, boolean withMaxRelativeExpiry, boolean withExpiry)
      throws IOException {
    List<String> out = new ArrayList<>();
    RemoteIterator<CachePoolEntry> pools = fs.listCachePools();
    while (pools.hasNext()) {
      CachePoolInfo p = pools.next().getInfo();
      out.add(
          "pool "
              + p.getPoolName()
              + " owner="
              + p.getOwnerName()
              + " group="
              + p.getGroupName()
              + " mode="
              + p.getMode()
              + " limit="
              + p.getLimit()
              + (withMaxRelativeExpiry
                  ? " maxRelativeExpiryMs=" + p.getMaxRelativeExpiryMs()
                  : ""));
    }
    RemoteIterator<CacheDirectiveEntry> ds = fs.listCacheDirectives(null);
    while (ds.hasNext()) {
      CacheDirectiveInfo d = ds.next().getInfo();
      out.add(
          "directive "
              + d.getId()
              + " path="
              + d.getPath().toUri().getPath()
              + " replication="
              + d.getReplication()
              + " pool="
              + d.getPool()
              + (withExpiry ? " expiry=" + d.getExpiration() : ""));
    }
    return out;
  }
}
