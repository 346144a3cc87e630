package org.nvmnn.workload.fuzz;

import java.util.Arrays;

/**
 * When each call ran on one NameNode, by the client's clock (the two NameNodes run on this machine
 * and read the same clock): call i ran in [start_i, end_i], in milliseconds. A time the NameNode
 * took from its clock while serving call i lies in that window. {@link #position} maps a time to
 * the calls it could have come from, as a range in "half steps": 2i is call i, 2i+1 the gap after
 * it, -1 before the first call, 2n after the last. Two times from the two NameNodes are {@linkplain
 * #sameMoment equal} when they are equal or their ranges overlap: both could have been set by the
 * same call. Times a client sets (setTimes) are far from the run's clock and compared exactly.
 */
final class TimeWindows {
  private long[] start = new long[1024];
  private long[] end = new long[1024];
  private int n;

  /** Records call {@code index()} as running from {@code s} to {@code e}. */
  void add(long s, long e) {
    if (n == start.length) {
      start = Arrays.copyOf(start, n * 2);
      end = Arrays.copyOf(end, n * 2);
    }
    start[n] = s;
    end[n] = e;
    n++;
  }

  int count() {
    return n;
  }

  void clear() {
    n = 0;
  }

  /** [lo, hi] in half steps: the calls (or gaps) during which time t can have been taken. */
  long[] position(long t) {
    // hi: last call with start <= t; lo: first call with end >= t
    int hi = upper(start, t) - 1;
    int lo = lower(end, t);
    if (hi < 0) {
      return new long[] {-1, -1};
    }
    if (lo >= n) {
      return new long[] {2L * n, 2L * n};
    }
    if (lo <= hi) {
      return new long[] {2L * lo, 2L * hi};
    }
    return new long[] {2L * hi + 1, 2L * hi + 1};
  }

  static boolean sameMoment(long a, TimeWindows wa, long b, TimeWindows wb) {
    if (a == b) {
      return true;
    }
    long[] pa = wa.position(a);
    long[] pb = wb.position(b);
    // before the first call and after the last are not moments of this run
    if (pa[1] < 0 || pb[1] < 0 || pa[0] == 2L * wa.n || pb[0] == 2L * wb.n) {
      return false;
    }
    return pa[0] <= pb[1] && pb[0] <= pa[1];
  }

  /** Index of the first element > t (arrays are non-decreasing). */
  private int upper(long[] a, long t) {
    int l = 0;
    int h = n;
    while (l < h) {
      int m = (l + h) >>> 1;
      if (a[m] <= t) {
        l = m + 1;
      } else {
        h = m;
      }
    }
    return l;
  }

  /** Index of the first element >= t. */
  private int lower(long[] a, long t) {
    int l = 0;
    int h = n;
    while (l < h) {
      int m = (l + h) >>> 1;
      if (a[m] < t) {
        l = m + 1;
      } else {
        h = m;
      }
    }
    return l;
  }
}
