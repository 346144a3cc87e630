package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;

import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.protocol.CacheDirectiveInfo;
import org.apache.hadoop.hdfs.protocol.CachePoolInfo;
import org.apache.hadoop.hdfs.protocolPB.PBHelper;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeStore;
import org.apache.hadoop.hdfs.server.namenode.nvm.NvmException;
import org.apache.hadoop.hdfs.server.namenode.nvm.ShmDir;
import org.apache.hadoop.hdfs.server.namenode.nvm.Txn;

/**
 * Cache records written through the store as NvmCacheWriteThrough writes them, one batch per edit:
 * pool "hot" (every field, as the cache manager's {@code getInfo(true)} gives it), directive 1 on
 * /user/alice/report.csv, which creates the RECORD_CACHE_IDS record (next id 2), and directive 2 on
 * a path of 312 bytes (its payload is chained: a RECORD_EXT page), which raises it to 3. Payloads
 * are serialised by Hadoop's own PBHelper and protobuf classes, so the tools' decoder is held to
 * the real format.
 */
final class CacheSample {
  static final String POOL = "hot";
  static final long LIMIT = 1L << 30;
  static final long MAX_RELATIVE_EXPIRY = 7 * 86400000L;
  static final long EXPIRY = 1800000000000L;
  static final String SHORT_PATH = "/user/alice/report.csv";
  static final String LONG_PATH = "/user/alice/" + SampleNamespace.LONG_NAME;

  long pool;
  long directive1;
  long directive2;
  long ids;

  /** The RECORD_EXT pages of directive 2. */
  long[] directive2Ext;

  private CacheSample() {}

  static CacheSample add(ShmDir shm) throws NvmException {
    try (InodeStore s = shm.reopen("r")) {
      return add(s);
    }
  }

  static CacheSample add(InodeStore s) throws NvmException {
    CacheSample c = new CacheSample();
    try (Txn t = s.begin()) {
      c.pool = t.createRecord(RECORD_CACHE_POOL, 0, 0, pool(POOL));
      t.commit();
    }
    try (Txn t = s.begin()) {
      c.directive1 =
          t.createRecord(
              RECORD_CACHE_DIRECTIVE, 1, 0, directive(1, SHORT_PATH, POOL, (short) 2, EXPIRY));
      c.ids = t.createRecord(RECORD_CACHE_IDS, 0, 2, new byte[0]);
      t.commit();
    }
    try (Txn t = s.begin()) {
      c.directive2 =
          t.createRecord(
              RECORD_CACHE_DIRECTIVE, 2, 0, directive(2, LONG_PATH, POOL, (short) 1, EXPIRY));
      t.setRecordValue(c.ids, 3);
      t.commit();
    }
    c.directive2Ext = s.record(c.directive2).extPages();
    return c;
  }

  /** A pool with every field, as a CachePoolInfoProto. */
  static byte[] pool(String name) {
    CachePoolInfo info =
        new CachePoolInfo(name)
            .setOwnerName("hdfs")
            .setGroupName("supergroup")
            .setMode(new FsPermission((short) 0755))
            .setLimit(LIMIT)
            .setMaxRelativeExpiryMs(MAX_RELATIVE_EXPIRY);
    return PBHelper.convert(info).toByteArray();
  }

  /** A directive with an absolute expiry, as a CacheDirectiveInfoProto. */
  static byte[] directive(long id, String path, String pool, short replication, long expiry) {
    CacheDirectiveInfo info =
        new CacheDirectiveInfo.Builder()
            .setId(id)
            .setPath(new Path(path))
            .setPool(pool)
            .setReplication(replication)
            .setExpiration(CacheDirectiveInfo.Expiration.newAbsolute(expiry))
            .build();
    return PBHelper.convert(info).toByteArray();
  }
}
