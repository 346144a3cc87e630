package org.apache.hadoop.hdfs.server.namenode;

import java.util.Iterator;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeCacheStats;

/**
 * The inode read cache (seed §3.4): materialized {@link INodeFile} objects by inode id, bounded by
 * a number of files, evicting in CLOCK order (second chance: an approximation of
 * least-recently-used that needs no list reordering on a hit). A hit is a lock-free hash lookup —
 * no page read, no JNI call, no lock — so readers under the namesystem read lock do not serialize
 * on the cache.
 *
 * <p>Rules that keep it from ever losing an update (the page is always the truth for an object that
 * is not in the cache):
 *
 * <ul>
 *   <li>Files under construction are <em>pinned</em>: kept apart, never evicted, not counted
 *       against the capacity, until they are closed.
 *   <li>Eviction happens only in {@link #trim}, which the namesystem calls when no thread holds its
 *       write lock in the middle of an operation (at the end of a write operation, or by a reader).
 *       A write operation changes its objects and persists them before it releases the lock, so
 *       every object that can be evicted equals its page.
 * </ul>
 *
 * Changes (put, remove, pin) happen under the namesystem write lock; readers only look up and add
 * objects they materialized after a miss.
 */
final class InodeCache implements InodeCacheStats {
  /** A cached closed file and its CLOCK reference bit. */
  private static final class Entry {
    final INodeFile file;
    volatile boolean referenced;

    Entry(INodeFile file) {
      this.file = file;
    }
  }

  private final int capacity;
  private final ConcurrentHashMap<Long, Entry> clock = new ConcurrentHashMap<Long, Entry>(1024);
  private final ConcurrentHashMap<Long, INodeFile> pinned =
      new ConcurrentHashMap<Long, INodeFile>();
  private final LongAdder hits = new LongAdder();
  private final LongAdder misses = new LongAdder();
  private final LongAdder evictions = new LongAdder();

  /** The CLOCK hand: a weakly consistent iterator over the entries, restarted when it runs out. */
  private Iterator<Entry> hand;

  InodeCache(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException(
          "inode cache capacity must be at least 1, not " + capacity);
    }
    this.capacity = capacity;
  }

  /** The cached object, counting a hit or a miss. */
  INodeFile get(long id) {
    INodeFile f = lookup(id);
    if (f != null) {
      hits.increment();
    } else {
      misses.increment();
    }
    return f;
  }

  /** The cached object without counting (for the block layer's questions). */
  INodeFile peek(long id) {
    return lookup(id);
  }

  private INodeFile lookup(long id) {
    Long key = id;
    Entry e = clock.get(key);
    if (e != null) {
      if (!e.referenced) {
        e.referenced = true;
      }
      return e.file;
    }
    return pinned.isEmpty() ? null : pinned.get(key);
  }

  /**
   * Adds an object materialized after a miss; if another reader added one meanwhile, that one is
   * kept and returned, so there is one object per inode in the cache.
   */
  INodeFile addLoaded(INodeFile f) {
    Long key = f.getId();
    if (f.isUnderConstruction()) {
      INodeFile had = pinned.putIfAbsent(key, f);
      return had != null ? had : f;
    }
    Entry had = clock.putIfAbsent(key, new Entry(f));
    if (had != null) {
      released(f); // the other reader's object is the inode's; this one is dropped
      return had.file;
    }
    return f;
  }

  /** A new or changed object: pinned while under construction, otherwise in the CLOCK part. */
  void put(INodeFile f) {
    Long key = f.getId();
    if (f.isUnderConstruction()) {
      clock.remove(key);
      pinned.put(key, f);
    } else {
      pinned.remove(key);
      Entry e = clock.get(key);
      if (e == null || e.file != f) {
        Entry old = clock.put(key, new Entry(f));
        if (old != null && old.file != f) {
          released(old.file);
        }
      }
    }
  }

  void remove(long id) {
    Long key = id;
    if (pinned.remove(key) == null) {
      clock.remove(key);
    }
  }

  synchronized void clear() {
    pinned.clear();
    clock.clear();
    hand = null;
  }

  /**
   * Evicts down to the capacity, sparing entries used since the hand last passed; returns how many.
   */
  synchronized int trim() {
    int n = 0;
    int spared = 0;
    while (clock.size() > capacity) {
      if (hand == null || !hand.hasNext()) {
        hand = clock.values().iterator();
        if (!hand.hasNext()) {
          break;
        }
      }
      Entry e = hand.next();
      if (e.referenced && spared < 2 * clock.size()) {
        e.referenced = false;
        spared++;
        continue;
      }
      if (clock.remove(e.file.getId(), e)) {
        released(e.file);
        n++;
      }
    }
    evictions.add(n);
    return n;
  }

  /**
   * An evicted (or replaced, or duplicate) file object gives back its reference to its ACL feature:
   * 2.7.3 shares equal ACL features through a global reference-counted map ({@link
   * AclStorage#addAclFeature}), which materializing a file with an ACL counts into; without this,
   * the features of files long evicted would stay in that map, and in the heap.
   */
  private static void released(INodeFile f) {
    AclFeature acl = f.getAclFeature();
    if (acl != null) {
      AclStorage.removeAclFeature(acl);
    }
  }

  boolean overCapacity() {
    return clock.size() > capacity;
  }

  @Override
  public long capacity() {
    return capacity;
  }

  @Override
  public long size() {
    return clock.size() + pinned.size();
  }

  int pinnedCount() {
    return pinned.size();
  }

  @Override
  public long hits() {
    return hits.sum();
  }

  @Override
  public long misses() {
    return misses.sum();
  }

  @Override
  public long evictions() {
    return evictions.sum();
  }
}
