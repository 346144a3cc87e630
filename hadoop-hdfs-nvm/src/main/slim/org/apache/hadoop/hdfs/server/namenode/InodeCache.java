package org.apache.hadoop.hdfs.server.namenode;

import java.util.Arrays;
import java.util.concurrent.atomic.LongAdder;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeCacheStats;
import org.apache.hadoop.hdfs.server.namenode.nvm.LongLongMap;

/**
 * The inode read cache (seed §3.4): materialized {@link INodeFile} objects by inode id. Closed
 * files live in {@link ClockSets}, exactly {@code capacity} slots evicted in CLOCK order per set
 * (second chance: an approximation of least-recently-used that needs no reordering on a hit); the
 * rest — pinned, releasing, and a write operation's excess until the trim after it — in an {@link
 * InodeTable}. Neither has an object per entry. A hit is a lock-free probe — no page read, no JNI
 * call, no lock — so readers under the namesystem read lock do not serialize on the cache.
 *
 * <p>What is in it:
 *
 * <ul>
 *   <li>A closed file enters the CLOCK sets when a lookup misses and materializes it from its page
 *       ({@link #addLoaded}). That miss is what "read" means here: any operation that needed the
 *       object after the file was closed — a client's open, stat or listing, or a write operation
 *       on the file.
 *   <li>A file under construction is <em>pinned</em> from its create or append to its close: kept
 *       apart, never evicted, not counted against the capacity.
 *   <li>A file its writer closes does <em>not</em> join the sets: its object is marked releasing
 *       and dropped when the write operation that closed it ends ({@link #releaseClosed}); from
 *       then on its page is the truth, and its next lookup materializes it. Hits on a pinned object
 *       (the writer's own lookups, a reader's while the file is open) do not keep it. A file
 *       written once and never looked up again thus costs the cache nothing.
 * </ul>
 *
 * <p>Rules that keep it from ever losing an update (the page is the truth for a file without an
 * object here):
 *
 * <ul>
 *   <li>One object per inode: an object is added only when its id is in neither part; a reader
 *       whose materialization lost a race gets the object that won.
 *   <li>Pinned and releasing objects are never evicted.
 *   <li>Evictions happen only while no write operation is in flight: on a reader's miss (the thread
 *       holds the namesystem read lock and not the write lock: {@code evict} of {@link #addLoaded},
 *       which takes a slot of the file's own set), and in {@link #trim}, which moves a write
 *       operation's excess into the sets and runs under the read lock the namesystem takes before
 *       releasing the write lock ({@code NvmFSNamesystem.writeUnlock}), or between two edits on an
 *       HA standby. A write operation's miss never evicts: when the set is full, its object waits
 *       in the table. A write operation persists every change before it releases the write lock, so
 *       every object that can be evicted equals its page; an object evicted while a reader holds it
 *       stays valid for that reader, which only reads.
 *   <li>Every change except a reader's add — {@link #put}, {@link #remove}, {@link #releaseClosed},
 *       {@link #clear} — is made by a write operation under the namesystem write lock.
 * </ul>
 *
 * Inside, changes hold this cache's monitor for a few slot writes (an add and at most one eviction
 * in its set, or a trim's batch); an evicted object's ACL reference is given back outside it.
 */
final class InodeCache implements InodeCacheStats {
  private static final int TRIM_BATCH = 256;

  private final ClockSets sets;
  private final InodeTable others = new InodeTable(16);
  private final LongAdder hits = new LongAdder();
  private final LongAdder misses = new LongAdder();

  /** Files closed by the running write operation (only write operations touch it). */
  private long[] closed = new long[4];

  private int closedCount;

  /** Ids of files a created list holds ({@link #holdForSnapshot}). */
  private final LongLongMap snapshotHeld = new LongLongMap();

  /**
   * Ids of files whose object was put here with snapshot diffs (a superset of the files that have
   * them now: an id leaves when its file is removed). A file gets diffs only in a write operation
   * that persists it ({@link #put}), or at a restart, which puts it too.
   */
  private final LongLongMap withSnapshot = new LongLongMap();

  InodeCache(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException(
          "inode cache capacity must be at least 1, not " + capacity);
    }
    this.sets = new ClockSets(capacity);
  }

  /** The cached object, counting a hit or a miss. */
  INodeFile get(long id) {
    INodeFile f = peek(id);
    if (f != null) {
      hits.increment();
    } else {
      misses.increment();
    }
    return f;
  }

  /** The cached object without counting (for the block layer's questions). */
  INodeFile peek(long id) {
    INodeFile f = sets.get(id);
    return f != null ? f : others.get(id);
  }

  /** The object held for {@code id} (monitor held: exact). */
  private INodeFile held(long id) {
    int slot = sets.find(id);
    return slot >= 0 ? sets.at(slot) : others.held(id);
  }

  /**
   * Adds an object materialized after a miss; if another thread added one meanwhile, that one is
   * kept and returned, so there is one object per inode in the cache. With {@code evict} (allowed
   * only when no write operation is in flight) a full set gives up an entry for it; without, the
   * object waits in the table for the next trim.
   */
  INodeFile addLoaded(INodeFile f, boolean evict) {
    INodeFile had;
    INodeFile victim = null;
    synchronized (this) {
      had = held(f.getId());
      if (had == null) {
        if (pinned(f)) {
          others.addIfAbsent(f, InodeTable.PINNED);
        } else if (evict) {
          victim = sets.addEvicting(f, aclsInUse());
        } else if (!sets.addIfRoom(f)) {
          others.addIfAbsent(f, InodeTable.CLOCK);
        }
      }
    }
    if (victim != null) {
      released(victim);
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
   * stays where it is or, when absent, is added without evicting (the operation holds it: it must
   * be found until the operation ends).
   */
  void put(INodeFile f) {
    long id = f.getId();
    INodeFile replaced;
    synchronized (this) {
      if (f.isWithSnapshot()) {
        withSnapshot.put(id, 1);
      }
      int slot = sets.find(id);
      if (slot >= 0 && !pinned(f)) {
        replaced = sets.at(slot);
        sets.replace(slot, f);
      } else if (slot >= 0) { // an append to a cached file: it leaves the sets, pinned
        replaced = sets.remove(id);
        others.set(f, InodeTable.PINNED);
      } else {
        int was = others.kindOf(id);
        if (pinned(f)) {
          replaced = others.set(f, InodeTable.PINNED);
        } else if (was == InodeTable.PINNED || was == InodeTable.RELEASING) {
          replaced = others.set(f, InodeTable.RELEASING);
          if (was == InodeTable.PINNED) {
            noteClosed(id);
          }
        } else if (was == InodeTable.CLOCK) {
          replaced = others.set(f, InodeTable.CLOCK);
        } else {
          replaced = null;
          if (!sets.addIfRoom(f)) {
            others.addIfAbsent(f, InodeTable.CLOCK);
          }
        }
      }
    }
    if (replaced != null && replaced != f) {
      released(replaced);
    }
  }

  /**
   * A file stays in the heap while it is open, has snapshot diffs, is renamed out of a snapshot or
   * is in a snapshot diff's created list: the diffs live on its object (FileWithSnapshotFeature),
   * and a reference or a created list holds the object (2.7.3 checks that it is the child's), which
   * a materialization from the page would not be. (The first form of docs/snapshots.md §4: correct,
   * but every file changed or created under a snapshot stays.)
   */
  private boolean pinned(INodeFile f) {
    return f.isUnderConstruction()
        || f.isWithSnapshot()
        || f.getParentReference() != null
        || (snapshotHeld.size() > 0 && snapshotHeld.containsKey(f.getId()));
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
    INodeFile[] out = aclsInUse() ? new INodeFile[closedCount] : null;
    int k = 0;
    synchronized (this) {
      for (int i = 0; i < closedCount; i++) {
        if (others.kindOf(closed[i]) == InodeTable.RELEASING) {
          INodeFile f = others.remove(closed[i]);
          if (out != null) {
            out[k] = f;
          }
          k++;
        }
      }
      others.shrinkIfSparse();
    }
    closedCount = 0;
    if (closed.length > 64) {
      closed = new long[4];
    }
    for (int i = 0; out != null && i < k; i++) {
      released(out[i]);
    }
    return k;
  }

  /**
   * {@code f} is in a snapshot diff's created list: it stays (see {@link #pinned}) until it is
   * removed.
   */
  void holdForSnapshot(INodeFile f) {
    synchronized (this) {
      snapshotHeld.put(f.getId(), 1);
    }
    put(f);
  }

  /**
   * Whether file {@code id} may have snapshot diffs: false means it has none (a snapshot's deletion
   * skips it without looking it up).
   */
  synchronized boolean mayHaveSnapshotDiffs(long id) {
    return withSnapshot.size() > 0 && withSnapshot.containsKey(id);
  }

  void remove(long id) {
    synchronized (this) {
      snapshotHeld.remove(id);
      withSnapshot.remove(id);
      if (sets.remove(id) == null && others.remove(id) != null) {
        others.shrinkIfSparse(); // after a delete of many files a write operation had read
      }
    }
  }

  void clear() {
    synchronized (this) {
      sets.clear();
      others.clear();
      snapshotHeld.clear();
      withSnapshot.clear();
    }
    closedCount = 0;
  }

  /**
   * Moves the objects a write operation added while their sets were full into the sets, each set
   * giving up an entry (second chance) for each; returns how many entries were evicted. Only while
   * no write operation is in flight (see the class comment). The monitor is held per batch, so
   * readers' adds go on meanwhile.
   */
  int trim() {
    int n = 0;
    INodeFile[] batch = null;
    while (true) {
      int k = 0;
      boolean done = false;
      synchronized (this) {
        long before = sets.evictions();
        boolean acls = aclsInUse();
        for (int moved = 0; moved < TRIM_BATCH; moved++) {
          INodeFile f = others.takeClock();
          if (f == null) {
            done = true;
            break;
          }
          INodeFile victim = sets.addEvicting(f, acls);
          if (victim != null) {
            if (batch == null) {
              batch = new INodeFile[TRIM_BATCH];
            }
            batch[k++] = victim;
          }
        }
        n += (int) (sets.evictions() - before);
        if (done) {
          others.shrinkIfSparse(); // after a large excess (a write operation that read many files)
        }
      }
      for (int i = 0; i < k; i++) {
        released(batch[i]);
        batch[i] = null;
      }
      if (done) {
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
    if (f == null) {
      return;
    }
    AclFeature acl = f.getAclFeature();
    if (acl != null) {
      AclStorage.removeAclFeature(acl);
    }
  }

  /**
   * Whether any ACL feature is in 2.7.3's map. While none is, no object can hold one (an object's
   * feature was counted into the map before the object was cached, which this cache's monitor
   * orders before the caller), so an evicted object need not be read to give its reference back:
   * the object and its slot's line are cold. A racy read of the map's plain size field: it can be
   * stale only towards features added after the caller's object was, which are not its own.
   */
  private static boolean aclsInUse() {
    return AclStorage.getUniqueAclFeatures().getUniqueElementsSize() != 0;
  }

  /**
   * Whether a write operation left objects waiting for their sets (a trim is due). A plain read:
   * exact for a write operation (the namesystem write lock orders it after every change), a hint
   * otherwise.
   */
  boolean overCapacity() {
    return others.clockCount() > 0;
  }

  @Override
  public long capacity() {
    return sets.capacity();
  }

  @Override
  public synchronized long size() {
    return sets.count() + others.clockCount() + others.otherCount();
  }

  /** Pinned objects (and, within a write operation, those of files it closed). */
  synchronized int pinnedCount() {
    return others.otherCount();
  }

  /** The length of the table outside the sets, in slots (12 bytes each). */
  synchronized int tableLength() {
    return others.length();
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
  public synchronized long evictions() {
    return sets.evictions();
  }
}
