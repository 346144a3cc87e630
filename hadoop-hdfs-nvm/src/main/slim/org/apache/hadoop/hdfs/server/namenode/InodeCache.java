package org.apache.hadoop.hdfs.server.namenode;

import java.util.Arrays;
import java.util.concurrent.atomic.LongAdder;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeCacheStats;

/**
 * The inode read cache (seed §3.4): materialized {@link INodeFile} objects by inode id, bounded by
 * a number of closed files, evicting in CLOCK order (second chance: an approximation of
 * least-recently-used that needs no list reordering on a hit). The entries live in an {@link
 * InodeTable} (parallel arrays, no object per entry); a hit is a lock-free probe — no page read, no
 * JNI call, no lock — so readers under the namesystem read lock do not serialize on the cache.
 *
 * <p>What is in it:
 *
 * <ul>
 *   <li>A closed file enters the evictable (CLOCK) part when a lookup misses and materializes it
 *       from its page ({@link #addLoaded}). That miss is what "read" means here: any operation that
 *       needed the object after the file was closed — a client's open, stat or listing, or a write
 *       operation on the file.
 *   <li>A file under construction is <em>pinned</em> from its create or append to its close: kept
 *       apart, never evicted, not counted against the capacity.
 *   <li>A file its writer closes does <em>not</em> join the CLOCK part: its object is marked
 *       releasing and dropped when the write operation that closed it ends ({@link
 *       #releaseClosed}); from then on its page is the truth, and its next lookup materializes it.
 *       Hits on a pinned object (the writer's own lookups, a reader's while the file is open) do
 *       not keep it. A file written once and never looked up again thus costs the cache nothing.
 * </ul>
 *
 * <p>Rules that keep it from ever losing an update (the page is the truth for a file without an
 * object here):
 *
 * <ul>
 *   <li>One object per inode: an object is added only when its id is absent; a reader whose
 *       materialization lost a race gets the object that won.
 *   <li>Pinned and releasing objects are never evicted.
 *   <li>Evictions happen only while no write operation is in flight: on a reader's miss (the thread
 *       holds the namesystem read lock and not the write lock: {@code evict} of {@link
 *       #addLoaded}), in {@link #trim} run by the namesystem under the read lock it takes before
 *       releasing the write lock of an operation that left the CLOCK part over capacity ({@code
 *       NvmFSNamesystem.writeUnlock}), and by an HA standby between two edits. A write operation
 *       persists every change before it releases the write lock, so every object that can be
 *       evicted equals its page; an object evicted while a reader holds it stays valid for that
 *       reader, which only reads.
 *   <li>Every change except a reader's add — {@link #put}, {@link #remove}, {@link #releaseClosed},
 *       {@link #clear} — is made by a write operation under the namesystem write lock.
 * </ul>
 *
 * Inside, changes hold the table's monitor for a few slot writes (an add and at most two evictions
 * — one makes room for it, the second drains an excess — or a trim's batch); an evicted object's
 * ACL reference is given back outside it.
 */
final class InodeCache implements InodeCacheStats {
  private static final int TRIM_BATCH = 256;

  private final int capacity;
  private final InodeTable table;
  private final LongAdder hits = new LongAdder();
  private final LongAdder misses = new LongAdder();

  /** Guarded by the table's monitor. */
  private long evictions;

  /** Files closed by the running write operation (only write operations touch it). */
  private long[] closed = new long[4];

  private int closedCount;

  InodeCache(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException(
          "inode cache capacity must be at least 1, not " + capacity);
    }
    this.capacity = capacity;
    this.table = new InodeTable(capacity);
  }

  /** The cached object, counting a hit or a miss. */
  INodeFile get(long id) {
    INodeFile f = table.get(id);
    if (f != null) {
      hits.increment();
    } else {
      misses.increment();
    }
    return f;
  }

  /** The cached object without counting (for the block layer's questions). */
  INodeFile peek(long id) {
    return table.get(id);
  }

  /**
   * Adds an object materialized after a miss; if another thread added one meanwhile, that one is
   * kept and returned, so there is one object per inode in the cache. With {@code evict} (allowed
   * only when no write operation is in flight) it also evicts down to the capacity.
   */
  INodeFile addLoaded(INodeFile f, boolean evict) {
    INodeFile had;
    INodeFile first = null; // at most two victims, without an array per miss
    INodeFile second = null;
    synchronized (table) {
      had = table.addIfAbsent(f, f.isUnderConstruction() ? InodeTable.PINNED : InodeTable.CLOCK);
      if (had == null && evict && table.clockCount() > capacity) {
        first = table.evict(f.getId());
        evictions++;
        if (table.clockCount() > capacity) {
          second = table.evict(f.getId());
          evictions++;
        }
      }
    }
    if (first != null) {
      released(first);
    }
    if (second != null) {
      released(second);
    }
    if (had != null) {
      released(f); // the other thread's object is the inode's; this one is dropped
      return had;
    }
    return f;
  }

  /**
   * A new or changed object a write operation persisted: pinned while under construction; a file
   * being closed is marked releasing (dropped at the end of the operation); any other closed file
   * stays or, when absent, joins the CLOCK part (the operation holds it: it must be found until the
   * operation ends).
   */
  void put(INodeFile f) {
    long id = f.getId();
    INodeFile replaced;
    synchronized (table) {
      int was = table.kindOf(id);
      byte kind;
      if (f.isUnderConstruction()) {
        kind = InodeTable.PINNED;
      } else if (was == InodeTable.PINNED || was == InodeTable.RELEASING) {
        kind = InodeTable.RELEASING;
        if (was == InodeTable.PINNED) {
          noteClosed(id);
        }
      } else {
        kind = InodeTable.CLOCK;
      }
      replaced = table.set(f, kind);
    }
    if (replaced != null) {
      released(replaced);
    }
  }

  private void noteClosed(long id) {
    if (closedCount == closed.length) {
      closed = Arrays.copyOf(closed, closedCount * 2);
    }
    closed[closedCount++] = id;
  }

  /**
   * The write operation ends (namesystem write lock held): the objects of the files it closed leave
   * the cache, unless it opened them again. Returns how many left.
   */
  int releaseClosed() {
    if (closedCount == 0) {
      return 0;
    }
    INodeFile[] out = new INodeFile[closedCount];
    int k = 0;
    synchronized (table) {
      for (int i = 0; i < closedCount; i++) {
        if (table.kindOf(closed[i]) == InodeTable.RELEASING) {
          out[k++] = table.remove(closed[i]);
        }
      }
    }
    closedCount = 0;
    if (closed.length > 64) {
      closed = new long[4];
    }
    for (int i = 0; i < k; i++) {
      released(out[i]);
    }
    return k;
  }

  void remove(long id) {
    synchronized (table) {
      table.remove(id);
    }
  }

  void clear() {
    synchronized (table) {
      table.clear();
    }
    closedCount = 0;
  }

  /**
   * Evicts down to the capacity, sparing entries used since the hand last passed; returns how many.
   * Only while no write operation is in flight (see the class comment). The monitor is held per
   * batch, so readers' adds go on meanwhile.
   */
  int trim() {
    int n = 0;
    INodeFile[] batch = null;
    while (true) {
      int k = 0;
      synchronized (table) {
        while (table.clockCount() > capacity && k < TRIM_BATCH) {
          if (batch == null) {
            batch = new INodeFile[TRIM_BATCH];
          }
          batch[k++] = table.evict(0);
        }
        evictions += k;
        if (k < TRIM_BATCH) {
          table.shrinkIfSparse(); // after a large excess (a write operation that read many files)
        }
      }
      for (int i = 0; i < k; i++) {
        released(batch[i]);
        batch[i] = null;
      }
      n += k;
      if (k < TRIM_BATCH) {
        return n;
      }
    }
  }

  /**
   * An evicted (or replaced, or duplicate, or released) file object gives back its reference to its
   * ACL feature: 2.7.3 shares equal ACL features through a global reference-counted map ({@link
   * AclStorage#addAclFeature}), which materializing a file with an ACL counts into; without this,
   * the features of files long evicted would stay in that map, and in the heap.
   */
  private static void released(INodeFile f) {
    AclFeature acl = f.getAclFeature();
    if (acl != null) {
      AclStorage.removeAclFeature(acl);
    }
  }

  /**
   * Whether the CLOCK part holds more than the capacity. A plain read: exact for a write operation
   * (the namesystem write lock orders it after every change), a hint otherwise.
   */
  boolean overCapacity() {
    return table.clockCount() > capacity;
  }

  @Override
  public long capacity() {
    return capacity;
  }

  @Override
  public long size() {
    synchronized (table) {
      return table.clockCount() + table.otherCount();
    }
  }

  /** Pinned objects (and, within a write operation, those of files it closed). */
  int pinnedCount() {
    synchronized (table) {
      return table.otherCount();
    }
  }

  /** The table's length in slots (its heap is about 14 bytes a slot). */
  int tableLength() {
    synchronized (table) {
      return table.length();
    }
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
    synchronized (table) {
      return evictions;
    }
  }
}
