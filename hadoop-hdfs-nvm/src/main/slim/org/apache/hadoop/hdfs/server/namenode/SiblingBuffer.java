package org.apache.hadoop.hdfs.server.namenode;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeView;

/**
 * One directory's children as the restart's rebuild collects them: the names packed one after
 * another in one array ({@link ChildIndex}'s form: two length bytes, then the bytes) with their
 * index values, and no object per child, so 10M children cost a few large arrays instead of 20M
 * small objects for the collector to copy. {@link #toIndex} sorts them into HDFS order by a merge
 * sort on entry numbers whose runs are found in the input (extended to {@value #MIN_RUN} by
 * insertion): children created in name order, the common case, are sorted in one pass.
 *
 * <p>Not thread-safe; one buffer may be sorted on another thread than the one that filled it (the
 * rebuild hands buffers to its sorting threads through an executor, which orders the two).
 */
public final class SiblingBuffer {
  static final int MIN_RUN = 32;

  private byte[] packed = new byte[64];
  private int used;
  private int[] offsets = new int[4];
  private long[] values = new long[4];
  private int size;

  /** While sorting: the length of the prefix every name shares. */
  private int common;

  public int size() {
    return size;
  }

  /**
   * Appends the name of the inode {@code v} with its index value (read straight into the buffer).
   */
  public void add(InodeView v, long value) {
    int len = v.nameLength();
    if (len < 0 || len > ChildIndex.MAX_NAME) {
      throw new IllegalStateException("inode page " + v.page() + " has name length " + len);
    }
    int at = append(len, value); // before reading the field: append may replace the array
    v.nameInto(packed, at);
  }

  /** Appends a name with its index value. */
  public void add(byte[] name, long value) {
    if (name.length > ChildIndex.MAX_NAME) {
      throw new IllegalArgumentException(
          "name of " + name.length + " bytes is longer than " + ChildIndex.MAX_NAME);
    }
    int at = append(name.length, value);
    System.arraycopy(name, 0, packed, at, name.length);
  }

  /**
   * Makes room for an entry of {@code len} name bytes and records it; returns where its bytes go.
   */
  private int append(int len, long value) {
    if (packed.length - used < 2 + len) {
      long want = Math.max(2L * packed.length, (long) used + 2 + len);
      if (want > Integer.MAX_VALUE - 16) {
        throw new IllegalArgumentException(
            size + " names of " + used + " bytes do not fit one index");
      }
      packed = Arrays.copyOf(packed, (int) want);
    }
    if (size == offsets.length) {
      offsets = Arrays.copyOf(offsets, 2 * size);
      values = Arrays.copyOf(values, 2 * size);
    }
    packed[used] = (byte) (len >>> 8);
    packed[used + 1] = (byte) len;
    offsets[size] = used;
    values[size++] = value;
    used += 2 + len;
    return used - len;
  }

  /** Whether a child has this name (a linear scan: for the one reserved-name check at the root). */
  public boolean contains(byte[] name) {
    for (int i = 0; i < size; i++) {
      int off = offsets[i];
      if (lengthAt(off) == name.length && equalsAt(off + 2, name)) {
        return true;
      }
    }
    return false;
  }

  private boolean equalsAt(int at, byte[] name) {
    for (int k = 0; k < name.length; k++) {
      if (packed[at + k] != name[k]) {
        return false;
      }
    }
    return true;
  }

  private int lengthAt(int off) {
    return (packed[off] & 0xff) << 8 | (packed[off + 1] & 0xff);
  }

  /**
   * The children sorted into HDFS order as an index.
   *
   * @throws IllegalArgumentException naming the first duplicate name
   */
  public ChildIndex toIndex() {
    int[] order = sortedOrder();
    int[] off = new int[size];
    long[] val = new long[size];
    for (int i = 0; i < size; i++) {
      off[i] = offsets[order[i]];
      val[i] = values[order[i]];
    }
    try {
      return ChildIndex.ofSortedPacked(packed, off, val, size); // checks the order as it builds
    } catch (IllegalArgumentException e) {
      for (int i = 1; i < size; i++) { // the only way sorted names are out of order: two are equal
        if (ChildIndex.comparePacked(packed, off[i - 1], packed, off[i], 0) == 0) {
          throw new IllegalArgumentException(
              "duplicate name '"
                  + new String(packed, off[i] + 2, lengthAt(off[i]), StandardCharsets.UTF_8)
                  + "'",
              e);
        }
      }
      throw e;
    }
  }

  /**
   * Entry numbers in name order (stable). Each entry is sorted with an 8-byte key of its bytes
   * after the prefix every name shares ({@link #key}) that moves with it, so almost every
   * comparison is one of two longs read in sequence; only equal keys compare the packed names.
   */
  int[] sortedOrder() {
    int n = size;
    common = commonPrefix();
    int[] a = new int[n];
    long[] ka = new long[n];
    for (int i = 0; i < n; i++) {
      a[i] = i;
      ka[i] = key(offsets[i]);
    }
    // runs: ascending stretches of the input, each at least MIN_RUN long (insertion sort)
    int[] starts = new int[n / MIN_RUN + 2];
    int runs = 0;
    for (int lo = 0; lo < n; ) {
      int hi = lo + 1;
      while (hi < n && compare(ka[hi - 1], a[hi - 1], ka[hi], a[hi]) <= 0) {
        hi++;
      }
      int end = Math.min(n, Math.max(hi, lo + MIN_RUN));
      for (int i = hi; i < end; i++) {
        insert(a, ka, lo, i);
      }
      if (runs == starts.length) {
        starts = Arrays.copyOf(starts, 2 * runs);
      }
      starts[runs++] = lo;
      lo = end;
    }
    int[] b = new int[n];
    long[] kb = new long[n];
    while (runs > 1) { // merge neighbouring runs pairwise, a into b
      int merged = 0;
      for (int r = 0; r < runs; r += 2) {
        int lo = starts[r];
        int mid = r + 1 < runs ? starts[r + 1] : n;
        int hi = r + 2 < runs ? starts[r + 2] : n;
        merge(a, ka, b, kb, lo, mid, hi);
        starts[merged++] = lo;
      }
      runs = merged;
      int[] t = a;
      a = b;
      b = t;
      long[] kt = ka;
      ka = kb;
      kb = kt;
    }
    return a;
  }

  /** Length of the prefix every name shares. */
  private int commonPrefix() {
    if (size == 0) {
      return 0;
    }
    int first = offsets[0];
    int p = lengthAt(first);
    for (int i = 1; i < size && p > 0; i++) {
      int off = offsets[i];
      int q = Math.min(p, lengthAt(off));
      int k = 0;
      while (k < q && packed[off + 2 + k] == packed[first + 2 + k]) {
        k++;
      }
      p = k;
    }
    return p;
  }

  /**
   * The 8 name bytes after the common prefix as an unsigned number that orders as the names do:
   * each byte flipped from signed to unsigned order, a short name padded with zeros. Keys that
   * differ order their names; equal keys say nothing (a padding zero equals the byte 0x80).
   */
  private long key(int off) {
    int len = lengthAt(off);
    long k = 0;
    for (int i = common; i < common + 8; i++) {
      k = k << 8 | (i < len ? (packed[off + 2 + i] ^ 0x80) & 0xff : 0);
    }
    return k;
  }

  /** Moves entry i down into the sorted [lo, i). */
  private void insert(int[] a, long[] ka, int lo, int i) {
    int e = a[i];
    long k = ka[i];
    int j = i;
    while (j > lo && compare(ka[j - 1], a[j - 1], k, e) > 0) {
      a[j] = a[j - 1];
      ka[j] = ka[j - 1];
      j--;
    }
    a[j] = e;
    ka[j] = k;
  }

  private void merge(int[] a, long[] ka, int[] b, long[] kb, int lo, int mid, int hi) {
    if (mid < hi && compare(ka[mid - 1], a[mid - 1], ka[mid], a[mid]) <= 0) { // already in order
      System.arraycopy(a, lo, b, lo, hi - lo);
      System.arraycopy(ka, lo, kb, lo, hi - lo);
      return;
    }
    int i = lo;
    int j = mid;
    int k = lo;
    while (i < mid && j < hi) {
      if (compare(ka[i], a[i], ka[j], a[j]) <= 0) {
        kb[k] = ka[i];
        b[k++] = a[i++];
      } else {
        kb[k] = ka[j];
        b[k++] = a[j++];
      }
    }
    System.arraycopy(a, i, b, k, mid - i);
    System.arraycopy(ka, i, kb, k, mid - i);
    k += mid - i;
    System.arraycopy(a, j, b, k, hi - j);
    System.arraycopy(ka, j, kb, k, hi - j);
  }

  /** HDFS order of entries x and y with keys kx and ky. */
  private int compare(long kx, int x, long ky, int y) {
    if (kx != ky) {
      return Long.compareUnsigned(kx, ky);
    }
    return ChildIndex.comparePacked(packed, offsets[x], packed, offsets[y], common);
  }
}
