package org.apache.hadoop.ipc;

/**
 * Puts an in-progress entry into a {@link RetryCache}, as {@code RetryCache.waitForCompletion} puts
 * one for a call being executed, but for ids that are not the current call's: a call retried with
 * those ids waits on the entry until {@link RetryCache#setState} completes it, and then gets its
 * payload (success) or executes again (failure). The NVM NameNode's restart uses it to serve the
 * retry cache's ids at once and compute the answers after the namespace is up (NvmRetryAnswers).
 * The entry's constructor is package-private in 2.7.3, hence this class's package.
 */
public final class RetryCacheInProgress {
  private RetryCacheInProgress() {}

  /**
   * The entry for ({@code clientId}, {@code callId}), in progress, expiring after {@code
   * expiryNanos}.
   */
  public static RetryCache.CacheEntryWithPayload add(
      RetryCache cache, byte[] clientId, int callId, long expiryNanos) {
    RetryCache.CacheEntryWithPayload e =
        new RetryCache.CacheEntryWithPayload(
            clientId, callId, null, System.nanoTime() + expiryNanos);
    cache.lock();
    try {
      cache.getCacheSet().put(e);
    } finally {
      cache.unlock();
    }
    // counted as addCacheEntryWithPayload counts an entry a replay adds (the metrics at /jmx);
    // the accessor is the only public way to the cache's metrics in 2.7.3
    cache.getMetricsForTests().incrCacheUpdated();
    return e;
  }
}
