package org.apache.hadoop.hdfs.server.namenode.nvm;

/**
 * What the NameNode's inode read cache (the LRU of materialized inodes in front of the region)
 * reports to the metrics source. The cache implements it and is handed to {@link
 * NvmNamespaceMetrics#setInodeCacheStats}; until then no cache metrics are published. Methods are
 * called from the metrics thread without the namesystem lock: they must be cheap and safe to call
 * concurrently with cache use (e.g. volatile or LongAdder-backed values).
 */
public interface InodeCacheStats {
  /** Inodes in the cache now. */
  long size();

  /** The most inodes the cache holds ({@code dfs.namenode.nvm.cache.inodes}). */
  long capacity();

  /** Lookups answered from the cache, since the NameNode started. */
  long hits();

  /** Lookups that had to materialize the inode from its page. */
  long misses();

  /** Inodes dropped to make room. */
  long evictions();
}
