package org.apache.hadoop.hdfs.server.namenode.nvm;

/**
 * A primitive long &rarr; long hash map (open addressing, linear probing, backward-shift deletion):
 * no boxing, 16 bytes per slot, load factor at most 1/2. Key 0 is reserved (it marks an empty
 * slot); inode ids and page offsets are never 0. Not thread-safe.
 */
public final class LongLongMap {
  /** Returned by {@link #get} for a missing key. */
  public static final long MISSING = Long.MIN_VALUE;

  private long[] keys;
  private long[] values;
  private int size;
  private int mask;

  public LongLongMap() {
    this(16);
  }

  public LongLongMap(int expected) {
    int cap = 16;
    while (cap < expected * 2L) {
      cap <<= 1;
    }
    keys = new long[cap];
    values = new long[cap];
    mask = cap - 1;
  }

  private static int hash(long k) {
    long h = k * 0x9E3779B97F4A7C15L;
    return (int) (h ^ (h >>> 32));
  }

  public int size() {
    return size;
  }

  public long get(long key) {
    int i = hash(key) & mask;
    while (true) {
      long k = keys[i];
      if (k == key) {
        return values[i];
      }
      if (k == 0) {
        return MISSING;
      }
      i = (i + 1) & mask;
    }
  }

  public boolean containsKey(long key) {
    return key != 0 && get(key) != MISSING;
  }

  /** Sets {@code key} to {@code value}; returns the previous value or {@link #MISSING}. */
  public long put(long key, long value) {
    if (key == 0) {
      throw new IllegalArgumentException("key 0 is reserved");
    }
    int i = hash(key) & mask;
    while (true) {
      long k = keys[i];
      if (k == key) {
        long old = values[i];
        values[i] = value;
        return old;
      }
      if (k == 0) {
        keys[i] = key;
        values[i] = value;
        if (++size * 2 > keys.length) {
          grow();
        }
        return MISSING;
      }
      i = (i + 1) & mask;
    }
  }

  /** Removes {@code key}; returns its value or {@link #MISSING}. */
  public long remove(long key) {
    if (key == 0) {
      return MISSING;
    }
    int i = hash(key) & mask;
    while (true) {
      long k = keys[i];
      if (k == 0) {
        return MISSING;
      }
      if (k == key) {
        break;
      }
      i = (i + 1) & mask;
    }
    long old = values[i];
    // Backward-shift: move later entries of the probe run into the hole.
    int hole = i;
    int j = i;
    while (true) {
      j = (j + 1) & mask;
      long k = keys[j];
      if (k == 0) {
        break;
      }
      int home = hash(k) & mask;
      boolean movable = hole <= j ? (home <= hole || home > j) : (home <= hole && home > j);
      if (movable) {
        keys[hole] = k;
        values[hole] = values[j];
        hole = j;
      }
    }
    keys[hole] = 0;
    values[hole] = 0;
    size--;
    return old;
  }

  /** The keys, in no particular order (a copy). */
  public long[] keys() {
    long[] out = new long[size];
    int n = 0;
    for (long k : keys) {
      if (k != 0) {
        out[n++] = k;
      }
    }
    return out;
  }

  /** Heap bytes of the two slot arrays. */
  public long heapBytes() {
    return 16L * keys.length;
  }

  public void clear() {
    if (size == 0) {
      return; // every key is 0 already (removals shift back and zero the slot they empty)
    }
    java.util.Arrays.fill(keys, 0);
    java.util.Arrays.fill(values, 0);
    size = 0;
  }

  private void grow() {
    long[] ok = keys;
    long[] ov = values;
    keys = new long[ok.length * 2];
    values = new long[ok.length * 2];
    mask = keys.length - 1;
    size = 0;
    for (int i = 0; i < ok.length; i++) {
      if (ok[i] != 0) {
        put(ok[i], ov[i]);
      }
    }
  }
}
