package org.apache.hadoop.hdfs.server.namenode.nvm;

import java.util.Arrays;

/**
 * The children of one directory as compact, sorted (name bytes, inode id) entries: the
 * slim in-memory index of the seed paper (§3.3). Names are packed one after another in a
 * single byte array (two length bytes, then the name), so an entry costs its name plus
 * 14 bytes instead of an INode object; entries are kept in HDFS's child order (signed
 * lexicographic bytes, as {@code DFSUtil.compareBytes}) and found by binary search on the
 * bytes, with no page read and no object per probe.
 *
 * <p>Not thread-safe: the namesystem lock orders writers against readers.
 */
public final class ChildIndex {
  private static final int[] NO_INTS = new int[0];
  private static final long[] NO_LONGS = new long[0];
  private static final byte[] NO_BYTES = new byte[0];
  /** Longest name the two length bytes can hold (HDFS allows at most 255 by default). */
  public static final int MAX_NAME = 0xffff;

  private byte[] names = NO_BYTES;
  private int namesUsed;
  /** Bytes of names no entry refers to any more; reclaimed by {@link #compact}. */
  private int garbage;
  private int[] offsets = NO_INTS;
  private long[] ids = NO_LONGS;
  private int size;

  public int size() {
    return size;
  }

  public long id(int i) {
    check(i);
    return ids[i];
  }

  public void setId(int i, long id) {
    check(i);
    ids[i] = id;
  }

  public byte[] name(int i) {
    check(i);
    int off = offsets[i];
    return Arrays.copyOfRange(names, off + 2, off + 2 + length(off));
  }

  /** Index of {@code name}, or {@code -(insertion point) - 1}, as {@code Collections.binarySearch}. */
  public int search(byte[] name) {
    int lo = 0;
    int hi = size - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      int d = compare(offsets[mid], name);
      if (d < 0) {
        lo = mid + 1;
      } else if (d > 0) {
        hi = mid - 1;
      } else {
        return mid;
      }
    }
    return -(lo + 1);
  }

  /** Inserts at {@code pos} (from {@link #search}); the caller keeps the order. */
  public void insert(int pos, byte[] name, long id) {
    if (pos < 0 || pos > size) {
      throw new IndexOutOfBoundsException("insert at " + pos + " of " + size);
    }
    if (name.length > MAX_NAME) {
      throw new IllegalArgumentException("name of " + name.length + " bytes is longer than " + MAX_NAME);
    }
    if (size == offsets.length) {
      int cap = Math.max(4, size + (size >> 1));
      offsets = Arrays.copyOf(offsets, cap);
      ids = Arrays.copyOf(ids, cap);
    }
    int need = namesUsed + 2 + name.length;
    if (need > names.length) {
      if (garbage > 0 && garbage >= namesUsed / 2) {
        compact(need - namesUsed);
      } else {
        names = Arrays.copyOf(names, Math.max(need, namesUsed + (namesUsed >> 1) + 16));
      }
    }
    int off = namesUsed;
    names[off] = (byte) (name.length >>> 8);
    names[off + 1] = (byte) name.length;
    System.arraycopy(name, 0, names, off + 2, name.length);
    namesUsed = off + 2 + name.length;
    System.arraycopy(offsets, pos, offsets, pos + 1, size - pos);
    System.arraycopy(ids, pos, ids, pos + 1, size - pos);
    offsets[pos] = off;
    ids[pos] = id;
    size++;
  }

  public void remove(int pos) {
    check(pos);
    garbage += 2 + length(offsets[pos]);
    System.arraycopy(offsets, pos + 1, offsets, pos, size - pos - 1);
    System.arraycopy(ids, pos + 1, ids, pos, size - pos - 1);
    size--;
    if (size == 0) {
      clear();
    } else if (garbage > 4096 && garbage > namesUsed / 2) {
      compact(0);
    }
  }

  public void clear() {
    names = NO_BYTES;
    offsets = NO_INTS;
    ids = NO_LONGS;
    namesUsed = 0;
    garbage = 0;
    size = 0;
  }

  /** Heap bytes held by the arrays (capacity, not just the used part). */
  public long heapBytes() {
    return names.length + 4L * offsets.length + 8L * ids.length;
  }

  /** Rewrites the packed names in entry order, dropping removed ones, with {@code extra} spare bytes. */
  private void compact(int extra) {
    int live = namesUsed - garbage;
    byte[] fresh = new byte[live + extra + (live >> 2)];
    int at = 0;
    for (int i = 0; i < size; i++) {
      int off = offsets[i];
      int n = 2 + length(off);
      System.arraycopy(names, off, fresh, at, n);
      offsets[i] = at;
      at += n;
    }
    names = fresh;
    namesUsed = at;
    garbage = 0;
  }

  private int length(int off) {
    return ((names[off] & 0xff) << 8) | (names[off + 1] & 0xff);
  }

  /** Signed-byte lexicographic order, shorter first on a common prefix (DFSUtil.compareBytes). */
  private int compare(int off, byte[] key) {
    int len = length(off);
    int base = off + 2;
    int n = Math.min(len, key.length);
    for (int i = 0; i < n; i++) {
      int a = names[base + i];
      int b = key[i];
      if (a != b) {
        return a - b;
      }
    }
    return len - key.length;
  }

  private void check(int i) {
    if (i < 0 || i >= size) {
      throw new IndexOutOfBoundsException("entry " + i + " of " + size);
    }
  }
}
