package org.apache.hadoop.hdfs.server.namenode;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The inode cache's entries outside its CLOCK sets ({@link ClockSets}): files under construction
 * (pinned), files closed by the running write operation (releasing) and the closed files a write
 * operation adds while their sets are full (kept until the trim after it). Inode id to {@link
 * INodeFile} by open addressing with linear probing over two parallel arrays — per slot a long word
 * (the id and the entry's kind) and an object reference — so an entry costs 12 bytes per slot and
 * no object of its own (no boxed key, no map node). The length is not a power of two (a
 * multiply-shift hash maps ids to slots); the table grows past 70 % full and shrinks back when a
 * trim empties it.
 *
 * <p>Concurrency: {@link #get} takes no lock and may run at any time; every other method must be
 * called holding the monitor of the cache that owns this. A {@code get} racing a change can miss an
 * entry that is present (a removal's backward shift moves entries; a resize publishes new arrays)
 * or return an object that is being removed, but it never returns the object of another inode: the
 * id is checked against the object's own (final) id. A slot is written object first (a plain array
 * store), then word (a release store), and a lookup reads the word (an acquire load) before the
 * object, so an object found under a matching word was fully built for it. The owner's rules make
 * both outcomes harmless (see {@link InodeCache}).
 */
final class InodeTable {
  /**
   * A closed file a write operation added while its set was full: moved into the sets by a trim.
   */
  static final byte CLOCK = 0;

  /** A file under construction: never evicted. */
  static final byte PINNED = 1;

  /** A file closed by the running write operation: dropped when it ends, never evicted before. */
  static final byte RELEASING = 2;

  /** The word of an unused slot; inode ids are positive (HDFS's first is 16385). */
  private static final long EMPTY = 0;

  /** A slot's word: the id in the low 60 bits, then 2 bits of kind. */
  private static final int KIND_SHIFT = 60;

  private static final long ID_MASK = (1L << KIND_SHIFT) - 1;
  private static final long KIND_MASK = 3L << KIND_SHIFT;

  private static final int MIN_LENGTH = 16;

  /** One generation of the arrays; a resize builds a new one and publishes it whole. */
  private static final class Slots {
    final AtomicLongArray words;
    final INodeFile[] files;
    final int n;

    Slots(int n) {
      this.n = n;
      words = new AtomicLongArray(n);
      files = new INodeFile[n];
    }
  }

  private volatile Slots slots;
  private final int minLength;
  private int clockCount;
  private int otherCount;
  private int cursor;

  /** A table sized for {@code expected} entries. */
  InodeTable(int expected) {
    this.minLength = lengthFor(expected);
    this.slots = new Slots(minLength);
  }

  /** Room for {@code n} entries at 60 % load. */
  private static int lengthFor(long n) {
    long len = Math.max(MIN_LENGTH, n * 5 / 3 + 1);
    if (len > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException("inode cache table for " + n + " entries");
    }
    return (int) len;
  }

  private static int home(long id, int n) {
    long h = id * 0x9E3779B97F4A7C15L;
    return (int) (((h >>> 32) * n) >>> 32);
  }

  private static long word(long id, byte kind) {
    return id | ((long) kind << KIND_SHIFT);
  }

  private static byte kind(long word) {
    return (byte) ((word & KIND_MASK) >>> KIND_SHIFT);
  }

  // ---- lookups: no lock

  /** The object of inode {@code id}, or null. */
  INodeFile get(long id) {
    Slots s = slots;
    AtomicLongArray words = s.words;
    int n = s.n;
    int i = home(id, n);
    for (int probes = 0; probes < n; probes++) {
      long w = words.get(i);
      if ((w & ID_MASK) == id) {
        INodeFile f = s.files[i];
        if (f != null && f.getId() == id) {
          return f;
        }
        // an entry moved under this lookup: keep probing (at worst a false miss)
      } else if (w == EMPTY) {
        return null;
      }
      if (++i == n) {
        i = 0;
      }
    }
    return null;
  }

  // ---- everything below: the caller holds this object's monitor

  int clockCount() {
    return clockCount;
  }

  /** Pinned and releasing entries. */
  int otherCount() {
    return otherCount;
  }

  int length() {
    return slots.n;
  }

  /** The slot of {@code id} in {@code s}, or -1. */
  private static int find(Slots s, long id) {
    int n = s.n;
    int i = home(id, n);
    while (true) {
      long w = s.words.get(i);
      if ((w & ID_MASK) == id) {
        return i;
      }
      if (w == EMPTY) {
        return -1;
      }
      if (++i == n) {
        i = 0;
      }
    }
  }

  /** The kind of {@code id}'s entry, or -1 when absent. */
  int kindOf(long id) {
    Slots s = slots;
    int i = find(s, id);
    return i < 0 ? -1 : kind(s.words.get(i));
  }

  /** The object held for {@code id}, or null (no CLOCK mark). */
  INodeFile held(long id) {
    Slots s = slots;
    int i = find(s, id);
    return i < 0 ? null : s.files[i];
  }

  /** Inserts {@code f} as {@code kind} unless its id is present; returns the object present. */
  INodeFile addIfAbsent(INodeFile f, byte kind) {
    long id = checkedId(f);
    Slots s = slots;
    int i = find(s, id);
    if (i >= 0) {
      return s.files[i];
    }
    insert(f, id, kind);
    return null;
  }

  /**
   * Sets {@code id}'s entry to {@code f} as {@code kind}, inserting it if absent; returns the
   * object it replaced when that is another one, else null.
   */
  INodeFile set(INodeFile f, byte kind) {
    long id = checkedId(f);
    Slots s = slots;
    int i = find(s, id);
    if (i < 0) {
      insert(f, id, kind);
      return null;
    }
    INodeFile old = s.files[i];
    if (old != f) {
      s.files[i] = f;
    }
    long w = s.words.get(i);
    count(kind(w), -1);
    s.words.lazySet(i, word(id, kind));
    count(kind, 1);
    return old != f ? old : null;
  }

  /** Removes {@code id}'s entry; returns its object, or null when absent. */
  INodeFile remove(long id) {
    Slots s = slots;
    int i = find(s, id);
    if (i < 0) {
      return null;
    }
    INodeFile f = s.files[i];
    count(kind(s.words.get(i)), -1);
    removeAt(s, i);
    return f;
  }

  /**
   * Removes and returns a CLOCK entry (the excess of a write operation), or null when none is left.
   * A cursor goes round the slots, so draining them all costs about one pass.
   */
  INodeFile takeClock() {
    if (clockCount == 0) {
      return null;
    }
    Slots s = slots;
    int n = s.n;
    int i = cursor < n ? cursor : 0;
    for (long steps = 0; steps <= 2L * n; steps++) {
      long w = s.words.get(i);
      if (w != EMPTY && kind(w) == CLOCK) {
        INodeFile f = s.files[i];
        count(CLOCK, -1);
        removeAt(s, i);
        cursor = i; // the slot may now hold an entry shifted back into it
        return f;
      }
      if (++i == n) {
        i = 0;
      }
    }
    throw new IllegalStateException(
        "inode cache counts " + clockCount + " entries in excess, found none");
  }

  /** Empties the table (back to its initial size). */
  void clear() {
    slots = new Slots(minLength);
    cursor = 0;
    clockCount = 0;
    otherCount = 0;
  }

  /** Shrinks the arrays when what is left would fit in a quarter of them at 60 % load. */
  void shrinkIfSparse() {
    int n = slots.n;
    int used = clockCount + otherCount;
    if (n > minLength && lengthFor(used) * 4L < n) {
      resize(Math.max(minLength, lengthFor(used) * 2));
    }
  }

  // ---- internals

  private static long checkedId(INodeFile f) {
    long id = f.getId();
    if (id <= EMPTY || id > ID_MASK) {
      throw new IllegalArgumentException("inode id " + id + " cannot be cached");
    }
    return id;
  }

  private void count(byte kind, int d) {
    if (kind == CLOCK) {
      clockCount += d;
    } else {
      otherCount += d;
    }
  }

  private void insert(INodeFile f, long id, byte kind) {
    if ((long) (clockCount + otherCount + 1) * 10 > (long) slots.n * 7) {
      resize(lengthFor(clockCount + otherCount + 1) * 2);
    }
    Slots s = slots;
    int n = s.n;
    int i = home(id, n);
    while (s.words.get(i) != EMPTY) {
      if (++i == n) {
        i = 0;
      }
    }
    // the object before the word: a lookup that sees the id finds the object (else it probes on)
    s.files[i] = f;
    s.words.lazySet(i, word(id, kind));
    count(kind, 1);
  }

  /**
   * Empties slot {@code i} by backward shift (linear probing's deletion, no tombstones): each later
   * entry of the same run whose home is not cyclically in (hole, its slot] moves into the hole.
   */
  private static void removeAt(Slots s, int i) {
    AtomicLongArray words = s.words;
    int n = s.n;
    int hole = i;
    int j = i;
    while (true) {
      if (++j == n) {
        j = 0;
      }
      long w = words.get(j);
      if (w == EMPTY) {
        break;
      }
      int h = home(w & ID_MASK, n);
      boolean stays = hole < j ? (h > hole && h <= j) : (h > hole || h <= j);
      if (!stays) {
        s.files[hole] = s.files[j];
        words.lazySet(hole, w);
        hole = j;
      }
    }
    words.lazySet(hole, EMPTY);
    s.files[hole] = null;
  }

  /** Rehashes into {@code length} slots and publishes the new arrays (lookups see old or new). */
  private void resize(int length) {
    Slots old = slots;
    Slots s = new Slots(length);
    int n = length;
    for (int j = 0; j < old.n; j++) {
      long w = old.words.get(j);
      if (w == EMPTY) {
        continue;
      }
      int i = home(w & ID_MASK, n);
      while (s.words.get(i) != EMPTY) {
        if (++i == n) {
          i = 0;
        }
      }
      s.words.lazySet(i, w);
      s.files[i] = old.files[j];
    }
    slots = s; // volatile: the arrays are complete for every lookup that reads the new reference
  }
}
