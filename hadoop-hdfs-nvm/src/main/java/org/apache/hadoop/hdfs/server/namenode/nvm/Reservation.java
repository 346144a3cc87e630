package org.apache.hadoop.hdfs.server.namenode.nvm;

import java.util.Arrays;

/**
 * The pages one store operation reserved. Pages are reserved up front in one call when
 * the count is known; whatever is not consumed by a successfully applied batch is
 * released, so a failed operation leaves the free list as it was.
 */
final class Reservation implements PageReserver {
  private final Region region;
  private long[] pages = new long[0];
  private int used;

  Reservation(Region region) {
    this.region = region;
  }

  /** Reserves {@code n} more pages (all or nothing). */
  void reserve(int n) throws NvmException {
    if (n <= 0) {
      return;
    }
    long[] got = region.reservePages(n);
    long[] all = Arrays.copyOf(pages, pages.length + n);
    System.arraycopy(got, 0, all, pages.length, n);
    pages = all;
  }

  @Override
  public long next() throws NvmException {
    if (used == pages.length) {
      reserve(1);
    }
    return pages[used++];
  }

  /** After a successful apply: the consumed pages are now used; give back the rest. */
  void committed() throws NvmException {
    long[] rest = Arrays.copyOfRange(pages, used, pages.length);
    pages = new long[0];
    used = 0;
    region.releasePages(rest);
  }

  /** After a failure: nothing was applied, give back every page. Never throws. */
  void abandon() {
    long[] all = pages;
    pages = new long[0];
    used = 0;
    if (all.length == 0 || region.isClosed()) {
      return;
    }
    try {
      region.releasePages(all);
    } catch (NvmException e) {
      // A dead (crashed) handle cannot release; the pages are reclaimed at the next open.
    }
  }
}
