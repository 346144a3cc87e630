package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import java.util.Arrays;

/**
 * A growable list of primitive longs (page offsets, ids), so a scan of millions of pages boxes
 * nothing.
 */
final class LongList {
  private long[] a = new long[16];
  private int n;

  void add(long v) {
    if (n == a.length) {
      a = Arrays.copyOf(a, n * 2);
    }
    a[n++] = v;
  }

  long get(int i) {
    if (i >= n) {
      throw new IndexOutOfBoundsException(i + " of " + n);
    }
    return a[i];
  }

  int size() {
    return n;
  }

  /** Whether {@code v} is in the list (a linear search: for short lists, e.g. a chain's pages). */
  boolean contains(long v) {
    for (int i = 0; i < n; i++) {
      if (a[i] == v) {
        return true;
      }
    }
    return false;
  }

  long[] toArray() {
    return Arrays.copyOf(a, n);
  }
}
