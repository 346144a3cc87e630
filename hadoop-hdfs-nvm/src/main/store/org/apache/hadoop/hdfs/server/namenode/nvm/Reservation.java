package org.apache.hadoop.hdfs.server.namenode.nvm;

import java.util.Arrays;

/**
 * The pages one store operation reserved, drawn from the store's {@link PagePool}. Pages are
 * reserved up front when the count is known, so "region full" is reported before anything is
 * staged; whatever a successfully applied batch did not consume, and everything after a failure,
 * goes back to the pool.
 */
final class Reservation implements PageReserver {
  private final PagePool pool;
  private long[] pages = new long[4];
  private int taken;
  private int used;

  Reservation(PagePool pool) {
    this.pool = pool;
  }

  /** Reserves {@code n} more pages (all or nothing). */
  void reserve(int n) throws NvmException {
    if (n <= 0) {
      return;
    }
    pool.ensure(n);
    if (taken + n > pages.length) {
      pages = Arrays.copyOf(pages, Math.max(taken + n, pages.length * 2));
    }
    for (int i = 0; i < n; i++) {
      pages[taken++] = pool.take();
    }
  }

  @Override
  public long next() throws NvmException {
    if (used == taken) {
      reserve(1);
    }
    return pages[used++];
  }

  /** After a successful apply: the consumed pages are now used; the rest go back to the pool. */
  void committed() {
    pool.give(pages, used, taken);
    taken = used = 0;
  }

  /** After a failure: nothing was applied, every page goes back to the pool. */
  void abandon() {
    pool.give(pages, 0, taken);
    taken = used = 0;
  }
}
