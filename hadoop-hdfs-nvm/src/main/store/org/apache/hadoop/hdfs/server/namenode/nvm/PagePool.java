package org.apache.hadoop.hdfs.server.namenode.nvm;

import java.util.Arrays;

/**
 * Reserved pages held on the Java side so that a mutation does not cross JNI to allocate: pages are
 * reserved from the native free list {@link #REFILL} at a time and handed out one by one.
 * Reservations live only in DRAM (a crash forgets them; the pages are still free on media), so
 * holding a few costs nothing but their count in {@link RegionUsage#pagesReserved()}; closing the
 * region drops them with it.
 */
final class PagePool {
  /** Pages reserved per native call when the pool runs dry. */
  static final int REFILL = 64;

  private final Region region;
  private long[] pages = new long[REFILL];
  private int size;

  PagePool(Region region) {
    this.region = region;
  }

  /** Makes sure {@code n} pages are in the pool: all or nothing (RegionFullException). */
  void ensure(int n) throws NvmException {
    int missing = n - size;
    if (missing <= 0) {
      return;
    }
    long[] got;
    try {
      got = region.reservePages(Math.max(missing, REFILL));
    } catch (RegionFullException full) {
      if (missing >= REFILL) {
        throw full;
      }
      got = region.reservePages(missing); // a nearly full region: take only what is needed
    }
    if (size + got.length > pages.length) {
      pages = Arrays.copyOf(pages, size + got.length);
    }
    System.arraycopy(got, 0, pages, size, got.length);
    size += got.length;
  }

  long take() throws NvmException {
    ensure(1);
    return pages[--size];
  }

  /** Returns pages an operation reserved but did not use. */
  void give(long[] unused, int from, int to) {
    int n = to - from;
    if (size + n > pages.length) {
      pages = Arrays.copyOf(pages, size + n);
    }
    System.arraycopy(unused, from, pages, size, n);
    size += n;
  }

  int size() {
    return size;
  }
}
