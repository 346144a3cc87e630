package org.apache.hadoop.hdfs.server.namenode;

import java.util.Arrays;

/**
 * The children of one directory as compact, sorted (name bytes, inode id) entries: the slim
 * in-memory index of the seed paper (§3.3). Names are packed one after another in a single byte
 * array (two length bytes, then the name), so an entry costs its name plus 10 bytes (a 4-byte name
 * offset, a 4-byte id; ids beyond 31 bits widen the directory's id array to 8 bytes) instead of an
 * INode object; entries are kept in HDFS's child order (signed lexicographic bytes, as {@code
 * DFSUtil.compareBytes}) and found by binary search on the bytes, with no page read and no object
 * per probe.
 *
 * <p>Siblings usually share a long prefix ({@code part-00017}, {@code ThroughputBenchFile0001234}):
 * the longest prefix common to every name in the directory is stored once and each entry keeps only
 * the rest. A name that does not share it shortens the prefix, and every entry is rewritten with
 * the bytes it no longer shares — at most once per byte of the first name, so the cost is bounded;
 * an emptied index starts over.
 *
 * <p>Not thread-safe: the namesystem lock orders writers against readers.
 */
public final class ChildIndex {
  private static final int[] NO_INTS = new int[0];
  private static final byte[] NO_BYTES = new byte[0];

  /** An index with no entries, shared by directories without children; it refuses inserts. */
  public static final ChildIndex EMPTY = new ChildIndex();

  /** Longest name the two length bytes can hold (HDFS allows at most 255 by default). */
  public static final int MAX_NAME = 0xffff;

  /** Common to every name; the packed names hold what follows it. */
  private byte[] prefix = NO_BYTES;

  private byte[] names = NO_BYTES;
  private int namesUsed;

  /** Bytes of names no entry refers to any more; reclaimed by {@link #compact}. */
  private int garbage;

  private int[] offsets = NO_INTS;

  /** The values while all fit in an int; {@link #wideIds} once one does not. */
  private int[] ids = NO_INTS;

  private long[] wideIds;
  private int size;

  public int size() {
    return size;
  }

  /**
   * An index of {@code n} names in strictly increasing HDFS order (the recovery rebuild sorts each
   * directory's children first), built in one pass with every array at its final size. Name {@code
   * i} is at {@code packed[offsets[i]]}: two length bytes (big-endian), then the bytes. In sorted
   * order the prefix common to all names is the one the first and the last share, so it is found
   * once instead of being shortened entry by entry as inserts would.
   *
   * @throws IllegalArgumentException naming the first entry that is not above the one before it
   *     (equal to it: a duplicate name)
   */
  public static ChildIndex ofSortedPacked(byte[] packed, int[] offsets, long[] values, int n) {
    ChildIndex c = new ChildIndex();
    if (n == 0) {
      return c;
    }
    int first = offsets[0];
    int last = offsets[n - 1];
    int firstLen = length(packed, first);
    int lastLen = length(packed, last);
    int p = 0;
    while (p < firstLen && p < lastLen && packed[first + 2 + p] == packed[last + 2 + p]) {
      p++;
    }
    long bytes = 0;
    boolean wide = false;
    for (int i = 0; i < n; i++) {
      if (i > 0) {
        int cmp = comparePacked(packed, offsets[i - 1], packed, offsets[i], p);
        if (cmp >= 0) {
          throw new IllegalArgumentException(
              "entry "
                  + i
                  + " is "
                  + (cmp == 0 ? "a duplicate of" : "not above")
                  + " entry "
                  + (i - 1));
        }
      }
      bytes += 2 + length(packed, offsets[i]) - p;
      wide |= (int) values[i] != values[i];
    }
    c.prefix = Arrays.copyOfRange(packed, first + 2, first + 2 + p);
    c.names = new byte[(int) bytes]; // at most the packed input
    c.offsets = new int[n];
    if (wide) {
      c.wideIds = new long[n];
    } else {
      c.ids = new int[n];
    }
    int at = 0;
    for (int i = 0; i < n; i++) {
      int off = offsets[i];
      c.offsets[i] = at;
      at = putName(c.names, at, packed, off + 2 + p, length(packed, off) - p);
      if (wide) {
        c.wideIds[i] = values[i];
      } else {
        c.ids[i] = (int) values[i];
      }
    }
    c.namesUsed = at;
    c.size = n;
    return c;
  }

  /**
   * Writes a packed name (two length bytes, then {@code len} bytes of src); returns the next
   * offset.
   */
  private static int putName(byte[] dst, int at, byte[] src, int from, int len) {
    dst[at] = (byte) (len >>> 8);
    dst[at + 1] = (byte) len;
    System.arraycopy(src, from, dst, at + 2, len);
    return at + 2 + len;
  }

  private static int length(byte[] packed, int off) {
    return (packed[off] & 0xff) << 8 | (packed[off + 1] & 0xff);
  }

  /**
   * HDFS order (signed bytes, shorter first) of two packed names equal before byte {@code from}:
   * the recovery rebuild's sort and {@link #ofSortedPacked}'s check use the same comparison.
   */
  public static int comparePacked(byte[] a, int aOff, byte[] b, int bOff, int from) {
    int la = length(a, aOff);
    int lb = length(b, bOff);
    int n = Math.min(la, lb);
    for (int i = from; i < n; i++) {
      byte x = a[aOff + 2 + i];
      byte y = b[bOff + 2 + i];
      if (x != y) {
        return x - y;
      }
    }
    return la - lb;
  }

  public long id(int i) {
    check(i);
    return wideIds != null ? wideIds[i] : ids[i];
  }

  public void setId(int i, long id) {
    check(i);
    store(i, id);
  }

  private void store(int i, long id) {
    if (wideIds == null && (int) id != id) {
      wideIds = new long[Math.max(ids.length, 4)];
      for (int k = 0; k < size; k++) {
        wideIds[k] = ids[k];
      }
      ids = NO_INTS;
    }
    if (wideIds != null) {
      wideIds[i] = id;
    } else {
      ids[i] = (int) id;
    }
  }

  public byte[] name(int i) {
    check(i);
    int off = offsets[i];
    int len = length(off);
    byte[] out = Arrays.copyOf(prefix, prefix.length + len);
    System.arraycopy(names, off + 2, out, prefix.length, len);
    return out;
  }

  /**
   * Index of {@code name}, or {@code -(insertion point) - 1}, as {@code Collections.binarySearch}.
   */
  public int search(byte[] name) {
    if (size == 0) {
      return -1;
    }
    // Every entry starts with the prefix: a name that does not sorts before or after all of them.
    int n = Math.min(prefix.length, name.length);
    for (int i = 0; i < n; i++) {
      if (prefix[i] != name[i]) {
        return prefix[i] > name[i] ? -1 : -(size + 1);
      }
    }
    if (name.length < prefix.length) {
      return -1; // a proper prefix of every name sorts first
    }
    int lo = 0;
    int hi = size - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      int d = compare(offsets[mid], name, prefix.length);
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
    if (this == EMPTY) {
      throw new IllegalStateException("the shared empty index cannot take entries");
    }
    if (pos < 0 || pos > size) {
      throw new IndexOutOfBoundsException("insert at " + pos + " of " + size);
    }
    if (name.length > MAX_NAME) {
      throw new IllegalArgumentException(
          "name of " + name.length + " bytes is longer than " + MAX_NAME);
    }
    if (size == 0) {
      prefix = name.clone();
    } else {
      int common = commonPrefix(name);
      if (common < prefix.length) {
        shortenPrefix(common);
      }
    }
    int rest = name.length - prefix.length;
    if (size == offsets.length) {
      int cap = Math.max(4, size + (size >> 1));
      offsets = Arrays.copyOf(offsets, cap);
      if (wideIds != null) {
        wideIds = Arrays.copyOf(wideIds, cap);
      } else {
        ids = Arrays.copyOf(ids, cap);
      }
    }
    int need = namesUsed + 2 + rest;
    if (need > names.length) {
      if (garbage > 0 && garbage >= namesUsed / 2) {
        compact(need - namesUsed);
      } else {
        names = Arrays.copyOf(names, Math.max(need, namesUsed + (namesUsed >> 1) + 16));
      }
    }
    int off = namesUsed;
    names[off] = (byte) (rest >>> 8);
    names[off + 1] = (byte) rest;
    System.arraycopy(name, prefix.length, names, off + 2, rest);
    namesUsed = off + 2 + rest;
    System.arraycopy(offsets, pos, offsets, pos + 1, size - pos);
    if (wideIds != null) {
      System.arraycopy(wideIds, pos, wideIds, pos + 1, size - pos);
    } else {
      System.arraycopy(ids, pos, ids, pos + 1, size - pos);
    }
    offsets[pos] = off;
    size++;
    store(pos, id);
  }

  public void remove(int pos) {
    check(pos);
    garbage += 2 + length(offsets[pos]);
    System.arraycopy(offsets, pos + 1, offsets, pos, size - pos - 1);
    if (wideIds != null) {
      System.arraycopy(wideIds, pos + 1, wideIds, pos, size - pos - 1);
    } else {
      System.arraycopy(ids, pos + 1, ids, pos, size - pos - 1);
    }
    size--;
    if (size == 0) {
      clear();
    } else if (garbage > 4096 && garbage > namesUsed / 2) {
      compact(0);
    }
  }

  public void clear() {
    prefix = NO_BYTES;
    names = NO_BYTES;
    offsets = NO_INTS;
    ids = NO_INTS;
    wideIds = null;
    namesUsed = 0;
    garbage = 0;
    size = 0;
  }

  /** Heap bytes held by the arrays (capacity, not just the used part). */
  public long heapBytes() {
    return prefix.length
        + names.length
        + 4L * offsets.length
        + 4L * ids.length
        + (wideIds == null ? 0 : 8L * wideIds.length);
  }

  /**
   * Rewrites the packed names in entry order, dropping removed ones, with {@code extra} spare
   * bytes.
   */
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

  private int commonPrefix(byte[] name) {
    int n = Math.min(prefix.length, name.length);
    int i = 0;
    while (i < n && prefix[i] == name[i]) {
      i++;
    }
    return i;
  }

  /** Keeps {@code keep} bytes of the prefix; every entry takes back the bytes after them. */
  private void shortenPrefix(int keep) {
    byte[] moved = Arrays.copyOfRange(prefix, keep, prefix.length);
    byte[] fresh = new byte[namesUsed - garbage + size * moved.length + 16];
    int at = 0;
    for (int i = 0; i < size; i++) {
      int off = offsets[i];
      int len = length(off);
      int full = moved.length + len;
      if (full > MAX_NAME) {
        throw new IllegalStateException("name of " + full + " bytes");
      }
      fresh[at] = (byte) (full >>> 8);
      fresh[at + 1] = (byte) full;
      System.arraycopy(moved, 0, fresh, at + 2, moved.length);
      System.arraycopy(names, off + 2, fresh, at + 2 + moved.length, len);
      offsets[i] = at;
      at += 2 + full;
    }
    names = fresh;
    namesUsed = at;
    garbage = 0;
    prefix = Arrays.copyOf(prefix, keep);
  }

  private int length(int off) {
    return ((names[off] & 0xff) << 8) | (names[off + 1] & 0xff);
  }

  /**
   * The entry at {@code off} against {@code key} from byte {@code from} on (both share the prefix):
   * signed-byte lexicographic order, shorter first (DFSUtil.compareBytes).
   */
  private int compare(int off, byte[] key, int from) {
    int len = length(off);
    int base = off + 2;
    int keyLen = key.length - from;
    int n = Math.min(len, keyLen);
    for (int i = 0; i < n; i++) {
      int a = names[base + i];
      int b = key[from + i];
      if (a != b) {
        return a - b;
      }
    }
    return len - keyLen;
  }

  private void check(int i) {
    if (i < 0 || i >= size) {
      throw new IndexOutOfBoundsException("entry " + i + " of " + size);
    }
  }
}
