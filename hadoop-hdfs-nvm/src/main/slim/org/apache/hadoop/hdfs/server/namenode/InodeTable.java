package org.apache.hadoop.hdfs.server.namenode;

import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The inode cache's table: inode id to {@link INodeFile}, open addressing with linear probing over
 * parallel arrays — per slot a long key, an object reference, a CLOCK reference byte and a kind
 * byte — so an entry costs about 14 bytes per slot and no object of its own (no boxed key, no map
 * node, no entry). The length is not a power of two (a multiply-shift hash maps ids to slots), so
 * the table is sized to its content; it grows past 70 % full and shrinks when a trim leaves it
 * nearly empty.
 *
 * <p>Concurrency: {@link #get} takes no lock and may run at any time; every other method changes or
 * walks the table and must be called while holding this object's monitor (the {@link InodeCache}
 * does). A {@code get} racing a change can miss an entry that is present (an eviction's backward
 * shift moves entries; a resize publishes new arrays) or return an object that is being removed,
 * but it never returns the object of another inode: the key is checked against the object's own
 * (final) id after the object was read with a volatile read, which also makes the object's fields
 * visible. The owner's rules make both outcomes harmless (see {@link InodeCache}).
 */
final class InodeTable {
  /** An evictable entry: a closed file a lookup materialized. */
  static final byte CLOCK = 0;

  /** A file under construction: never evicted, not counted against the capacity. */
  static final byte PINNED = 1;

  /** A file closed by the running write operation: dropped when it ends, never evicted before. */
  static final byte RELEASING = 2;

  /** The key of an unused slot; inode ids are positive (HDFS's first is 16385). */
  private static final long EMPTY = 0;

  private static final int MIN_LENGTH = 16;

  /** One generation of the arrays; a resize builds a new one and publishes it whole. */
  private static final class Slots {
    final long[] keys;
    final AtomicReferenceArray<INodeFile> files;
    final byte[] refs; // CLOCK reference bits: set by lookups without the monitor, so only a hint
    final byte[] kinds;

    Slots(int n) {
      keys = new long[n];
      files = new AtomicReferenceArray<INodeFile>(n);
      refs = new byte[n];
      kinds = new byte[n];
    }
  }

  private volatile Slots slots;
  private final int minLength;
  private int clockCount;
  private int otherCount;
  private int hand;

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

  // ---- lookups: no lock

  /** The object of inode {@code id}, or null; marks it used for the CLOCK. */
  INodeFile get(long id) {
    Slots s = slots;
    long[] keys = s.keys;
    int n = keys.length;
    int i = home(id, n);
    for (int probes = 0; probes < n; probes++) {
      long k = keys[i];
      if (k == id) {
        INodeFile f = s.files.get(i);
        if (f != null && f.getId() == id) {
          if (s.refs[i] == 0) {
            s.refs[i] = 1; // not on every hit: a cache line written only when the hand has passed
          }
          return f;
        }
        // an entry moved under this lookup: keep probing (at worst a false miss)
      } else if (k == EMPTY) {
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
    return slots.keys.length;
  }

  /** The slot of {@code id} in {@code s}, or -1. */
  private static int find(Slots s, long id) {
    long[] keys = s.keys;
    int n = keys.length;
    int i = home(id, n);
    while (true) {
      long k = keys[i];
      if (k == id) {
        return i;
      }
      if (k == EMPTY) {
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
    return i < 0 ? -1 : s.kinds[i];
  }

  /** The object held for {@code id}, or null (no CLOCK mark). */
  INodeFile held(long id) {
    Slots s = slots;
    int i = find(s, id);
    return i < 0 ? null : s.files.get(i);
  }

  /** Inserts {@code f} as {@code kind} unless its id is present; returns the object present. */
  INodeFile addIfAbsent(INodeFile f, byte kind) {
    long id = checkedId(f);
    Slots s = slots;
    int i = find(s, id);
    if (i >= 0) {
      return s.files.get(i);
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
    INodeFile old = s.files.get(i);
    if (old != f) {
      s.files.lazySet(i, f);
    }
    count(s.kinds[i], -1);
    s.kinds[i] = kind;
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
    INodeFile f = s.files.get(i);
    count(s.kinds[i], -1);
    removeAt(s, i);
    return f;
  }

  /**
   * Removes one CLOCK entry and returns its object (null when there is none): the hand clears the
   * reference bit of each used entry it passes (a second chance) and takes the first unused one;
   * after two turns without one (lookups may keep setting bits) it takes the next CLOCK entry
   * regardless. The entry of {@code spare} (the one just added, or 0) is passed over while there is
   * another.
   */
  INodeFile evict(long spare) {
    if (clockCount == 0) {
      return null;
    }
    Slots s = slots;
    int n = s.keys.length;
    int i = hand < n ? hand : 0;
    for (long steps = 0; steps <= 3L * n; steps++) {
      if (s.keys[i] != EMPTY && s.kinds[i] == CLOCK) {
        if (s.keys[i] == spare && clockCount > 1) {
          // passed over: it has not had its first chance yet
        } else if (s.refs[i] != 0 && steps < 2L * n) {
          s.refs[i] = 0;
        } else {
          INodeFile f = s.files.get(i);
          count(CLOCK, -1);
          removeAt(s, i);
          hand = i; // the slot may now hold an entry shifted back into it: looked at next
          return f;
        }
      }
      if (++i == n) {
        i = 0;
      }
    }
    throw new IllegalStateException(
        "inode cache counts " + clockCount + " evictable entries, found none");
  }

  /** Empties the table (back to its initial size). */
  void clear() {
    slots = new Slots(minLength);
    clockCount = 0;
    otherCount = 0;
    hand = 0;
  }

  /** Shrinks the arrays when at most a quarter of the initial size's worth is left in 4x that. */
  void shrinkIfSparse() {
    int n = slots.keys.length;
    int used = clockCount + otherCount;
    if (n > minLength && lengthFor(used) * 4L < n) {
      resize(Math.max(minLength, lengthFor(used) * 2));
    }
  }

  // ---- internals

  private static long checkedId(INodeFile f) {
    long id = f.getId();
    if (id <= EMPTY) {
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
    if ((long) (clockCount + otherCount + 1) * 10 > (long) slots.keys.length * 7) {
      resize(lengthFor(clockCount + otherCount + 1) * 2);
    }
    Slots s = slots;
    int n = s.keys.length;
    int i = home(id, n);
    while (s.keys[i] != EMPTY) {
      if (++i == n) {
        i = 0;
      }
    }
    // the object before the key: a lookup that sees the key finds the object (else it probes on)
    s.files.lazySet(i, f);
    s.refs[i] = 0;
    s.kinds[i] = kind;
    s.keys[i] = id;
    count(kind, 1);
  }

  /**
   * Empties slot {@code i} by backward shift (linear probing's deletion, no tombstones): each later
   * entry of the same run whose home is not cyclically in (hole, its slot] moves into the hole.
   */
  private static void removeAt(Slots s, int i) {
    long[] keys = s.keys;
    int n = keys.length;
    int hole = i;
    int j = i;
    while (true) {
      if (++j == n) {
        j = 0;
      }
      long k = keys[j];
      if (k == EMPTY) {
        break;
      }
      int h = home(k, n);
      boolean stays = hole < j ? (h > hole && h <= j) : (h > hole || h <= j);
      if (!stays) {
        s.files.lazySet(hole, s.files.get(j));
        s.refs[hole] = s.refs[j];
        s.kinds[hole] = s.kinds[j];
        keys[hole] = k;
        hole = j;
      }
    }
    keys[hole] = EMPTY;
    s.files.lazySet(hole, null);
    s.refs[hole] = 0;
    s.kinds[hole] = CLOCK;
  }

  /** Rehashes into {@code length} slots and publishes the new arrays (lookups see old or new). */
  private void resize(int length) {
    Slots old = slots;
    Slots s = new Slots(length);
    int n = length;
    for (int j = 0; j < old.keys.length; j++) {
      long k = old.keys[j];
      if (k == EMPTY) {
        continue;
      }
      int i = home(k, n);
      while (s.keys[i] != EMPTY) {
        if (++i == n) {
          i = 0;
        }
      }
      s.keys[i] = k;
      s.files.lazySet(i, old.files.get(j));
      s.refs[i] = old.refs[j];
      s.kinds[i] = old.kinds[j];
    }
    hand = (int) ((long) hand * n / old.keys.length);
    slots = s; // volatile: the arrays are complete for every lookup that reads the new reference
  }
}
