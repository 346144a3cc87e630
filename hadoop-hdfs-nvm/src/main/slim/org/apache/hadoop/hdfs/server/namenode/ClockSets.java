package org.apache.hadoop.hdfs.server.namenode;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The evictable part of the inode cache: a set-associative CLOCK over exactly {@code capacity}
 * slots. An inode id belongs to the set {@code id mod sets} (sets a power of two, 8 to 16 slots
 * each); each set runs its own CLOCK hand (second chance). A slot is a long word (the id and a
 * reference bit) and an object reference: 12 bytes per cached file, no object per entry, never a
 * resize, and no eviction is more than one set's scan.
 *
 * <p>Why sets indexed by the id itself: HDFS hands out inode ids in order, so files created
 * together — one directory's, one job's — have neighbouring ids and are often read together;
 * neighbouring ids fall in neighbouring sets, so a run of lookups walks memory in order, and a scan
 * in id order of more files than the cache holds keeps the last ones (exactly, when the capacity is
 * a multiple of the number of sets). The price of associativity: ids that are all equal modulo
 * {@code sets} compete for one set's 8–16 slots, whatever room the others have.
 *
 * <p>Concurrency, as in {@link InodeTable}: {@link #get} takes no lock; every other method must be
 * called holding the monitor of the cache that owns this. A slot is written object first (a plain
 * array store), then word (a release store); a lookup reads the word (an acquire load) before the
 * object, so an object it finds under a word it matched was fully built for it, and it checks the
 * object's own (final) id, so a racing lookup misses or finds the right object (perhaps one being
 * evicted), never another inode's. Its reference bit is set by a compare-and-set of the exact word
 * it read. (The objects are a plain array, not an {@code AtomicReferenceArray}: deep in the
 * NameNode's call chains its accessors were not inlined and cost their type checks on every miss.)
 */
final class ClockSets {
  private static final long EMPTY = 0;
  private static final long REFERENCED = 1L << 62;
  private static final long ID_MASK = REFERENCED - 1;

  /** Slots per set, at least (a set has 8 to 16). */
  private static final int MIN_WAYS = 8;

  private final int capacity;
  private final int setMask;
  private final int setShift;
  private final AtomicLongArray words;
  private final INodeFile[] files;
  private final byte[] hands;
  private int count;
  private long evictions;

  ClockSets(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity " + capacity);
    }
    this.capacity = capacity;
    int sets = Integer.highestOneBit(Math.max(1, capacity / MIN_WAYS));
    this.setMask = sets - 1;
    this.setShift = Integer.numberOfTrailingZeros(sets);
    this.words = new AtomicLongArray(capacity);
    this.files = new INodeFile[capacity];
    this.hands = new byte[sets];
  }

  private int setOf(long id) {
    return (int) id & setMask;
  }

  /** The first slot of {@code set}: sets share the slots as evenly as the capacity allows. */
  private int base(int set) {
    return (int) (((long) set * capacity) >>> setShift);
  }

  // ---- lookups: no lock

  /** The object of inode {@code id}, or null; marks it used. */
  INodeFile get(long id) {
    int set = setOf(id);
    int end = base(set + 1);
    for (int i = base(set); i < end; i++) {
      long w = words.get(i);
      if ((w & ID_MASK) == id) {
        INodeFile f = files[i]; // after the word's acquire load
        if (f != null && f.getId() == id) {
          if ((w & REFERENCED) == 0) {
            words.compareAndSet(i, w, w | REFERENCED); // a hint: losing it to a change is fine
          }
          return f;
        }
      }
    }
    return null;
  }

  // ---- the owner's monitor held

  int count() {
    return count;
  }

  int capacity() {
    return capacity;
  }

  /** The slot of {@code id}, or -1. */
  int find(long id) {
    int set = setOf(id);
    int end = base(set + 1);
    for (int i = base(set); i < end; i++) {
      if ((words.get(i) & ID_MASK) == id) {
        return i;
      }
    }
    return -1;
  }

  INodeFile at(int slot) {
    return files[slot];
  }

  /** Puts {@code f} in slot {@code slot}, which holds its id already (its word published again). */
  void replace(int slot, INodeFile f) {
    files[slot] = f;
    words.lazySet(slot, words.get(slot));
  }

  /** Adds {@code f} (absent) if its set has a free slot; false when the set is full. */
  boolean addIfRoom(INodeFile f) {
    long id = checkedId(f);
    int set = setOf(id);
    int end = base(set + 1);
    for (int i = base(set); i < end; i++) {
      if (words.get(i) == EMPTY) {
        fill(i, f, id);
        count++;
        return true;
      }
    }
    return false;
  }

  /**
   * Adds {@code f} (absent) to its set, evicting one entry there if the set is full: the set's hand
   * clears the reference bit of each used entry it passes and takes the first unused one (after a
   * whole turn, whichever it is at). Returns the evicted object when {@code wantVictim}, else null
   * (the evicted object is then not read: it is cold, and so is its slot's cache line); {@link
   * #evictions} counts either way.
   */
  INodeFile addEvicting(INodeFile f, boolean wantVictim) {
    if (addIfRoom(f)) {
      return null;
    }
    long id = f.getId();
    int set = setOf(id);
    int b = base(set);
    int ways = base(set + 1) - b;
    int h = hands[set];
    for (int step = 0; ; step++) {
      int i = b + h;
      long w = words.get(i);
      h = h + 1 == ways ? 0 : h + 1;
      if ((w & REFERENCED) != 0 && step < ways) {
        words.lazySet(i, w & ~REFERENCED);
        continue;
      }
      INodeFile victim = wantVictim ? files[i] : null;
      fill(i, f, id);
      hands[set] = (byte) h;
      evictions++;
      return victim;
    }
  }

  /** Entries evicted by {@link #addEvicting} so far. */
  long evictions() {
    return evictions;
  }

  /** Removes {@code id}'s entry; returns its object, or null. */
  INodeFile remove(long id) {
    int i = find(id);
    if (i < 0) {
      return null;
    }
    INodeFile f = files[i];
    words.lazySet(i, EMPTY);
    files[i] = null;
    count--;
    return f;
  }

  void clear() {
    for (int i = 0; i < capacity; i++) {
      words.lazySet(i, EMPTY);
      files[i] = null;
    }
    count = 0;
  }

  /** Object first, then the word (release): a lookup that sees the id sees this object built. */
  private void fill(int i, INodeFile f, long id) {
    files[i] = f;
    words.lazySet(i, id);
  }

  private static long checkedId(INodeFile f) {
    long id = f.getId();
    if (id <= EMPTY || id > ID_MASK) {
      throw new IllegalArgumentException("inode id " + id + " cannot be cached");
    }
    return id;
  }
}
