package org.apache.hadoop.hdfs.server.namenode;

import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The inode read cache (seed §3.4): materialized {@link INodeFile} objects by inode id, in
 * least-recently-used order, bounded by a number of files. A hit is a hash lookup — no
 * page read, no JNI call.
 *
 * <p>Rules that keep it from ever losing an update (the page is always the truth for an
 * object that is not in the cache):
 * <ul>
 * <li>Files under construction are <em>pinned</em>: kept outside the LRU part, never evicted,
 * not counted against the capacity, until they are closed.</li>
 * <li>Eviction happens only in {@link #trim}, which the namesystem calls when no thread
 * holds its write lock in the middle of an operation (at the end of a write operation, or
 * by a reader). A write operation changes its objects and persists them before it
 * releases the lock, so every object that can be evicted equals its page.</li>
 * </ul>
 * Readers share the cache under the namesystem read lock, so its methods synchronize.
 */
final class InodeCache {
  private final int capacity;
  private final LinkedHashMap<Long, INodeFile> lru = new LinkedHashMap<Long, INodeFile>(1024, 0.75f, true);
  private final HashMap<Long, INodeFile> pinned = new HashMap<Long, INodeFile>();
  private long hits;
  private long misses;
  private long evictions;

  InodeCache(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("inode cache capacity must be at least 1, not " + capacity);
    }
    this.capacity = capacity;
  }

  /** The cached object, counting a hit or a miss. */
  synchronized INodeFile get(long id) {
    INodeFile f = lookup(id);
    if (f != null) {
      hits++;
    } else {
      misses++;
    }
    return f;
  }

  /** The cached object without counting (for the block layer's questions). */
  synchronized INodeFile peek(long id) {
    return lookup(id);
  }

  private INodeFile lookup(long id) {
    Long key = id;
    INodeFile f = pinned.get(key);
    return f != null ? f : lru.get(key);
  }

  /**
   * Adds an object materialized after a miss; if another reader added one meanwhile, that
   * one is kept and returned, so there is one object per inode in the cache.
   */
  synchronized INodeFile addLoaded(INodeFile f) {
    INodeFile had = lookup(f.getId());
    if (had != null) {
      return had;
    }
    place(f);
    return f;
  }

  /** A new or changed object: pinned while under construction, otherwise in the LRU part. */
  synchronized void put(INodeFile f) {
    place(f);
  }

  private void place(INodeFile f) {
    Long key = f.getId();
    if (f.isUnderConstruction()) {
      lru.remove(key);
      pinned.put(key, f);
    } else {
      pinned.remove(key);
      lru.put(key, f);
    }
  }

  synchronized void remove(long id) {
    Long key = id;
    if (pinned.remove(key) == null) {
      lru.remove(key);
    }
  }

  synchronized void clear() {
    pinned.clear();
    lru.clear();
  }

  /** Evicts least recently used objects down to the capacity; returns how many. */
  synchronized int trim() {
    int n = 0;
    Iterator<Map.Entry<Long, INodeFile>> it = lru.entrySet().iterator();
    while (lru.size() > capacity && it.hasNext()) {
      it.next();
      it.remove();
      n++;
    }
    evictions += n;
    return n;
  }

  synchronized boolean overCapacity() {
    return lru.size() > capacity;
  }

  int capacity() {
    return capacity;
  }

  synchronized int size() {
    return lru.size() + pinned.size();
  }

  synchronized int pinnedCount() {
    return pinned.size();
  }

  synchronized long hits() {
    return hits;
  }

  synchronized long misses() {
    return misses;
  }

  synchronized long evictions() {
    return evictions;
  }
}
