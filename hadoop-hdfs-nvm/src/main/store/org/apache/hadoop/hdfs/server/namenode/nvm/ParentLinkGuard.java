package org.apache.hadoop.hdfs.server.namenode.nvm;

import java.nio.ByteBuffer;

/**
 * A debugging check, off unless the JVM runs with {@code -Dnvm.debug.parentLinks=true}: after a
 * batch that frees pages is written, no LIVE inode page the batch does not free may name one of
 * those pages as its parent. Such a page is a subtree left under a freed directory: recovery's
 * orphan check refuses the region at the next restart (region-format.md §7.4), or reclaims the
 * subtree as a crash leftover while the page is not reused yet. The check turns that delayed
 * failure into an error of the call that caused it (the differential fuzzer sets the property, so
 * its shrinker works on the call itself). It scans every page below the scan limit: a test's cost.
 */
final class ParentLinkGuard {
  static final boolean ENABLED = Boolean.getBoolean("nvm.debug.parentLinks");

  private ParentLinkGuard() {}

  /** Throws IllegalStateException naming the first live inode whose parent {@code batch} freed. */
  static void check(InodeStore store, MutationBatch batch) {
    Region region = store.region();
    LongLongMap freed = freedPages(batch);
    if (freed == null) {
      return;
    }
    long limit = region.scanLimit();
    for (long i = 0; i < limit; i++) {
      long off = RegionLayout.pageOffset(i);
      long word = region.getLong(off);
      int kind = RegionLayout.kindOf(word);
      if (RegionLayout.stateOf(word) != RegionLayout.STATE_LIVE
          || (kind != RegionLayout.KIND_DIR
              && kind != RegionLayout.KIND_FILE
              && kind != RegionLayout.KIND_SYMLINK)
          || freed.containsKey(off)) {
        continue;
      }
      long parent = region.getLong(off + RegionLayout.IN_PARENT_PAGE);
      if (parent != 0 && freed.containsKey(parent)) {
        throw new IllegalStateException(
            "nvm.debug.parentLinks: inode "
                + region.getLong(off + RegionLayout.IN_ID)
                + " (page "
                + off
                + ") stays LIVE under page "
                + parent
                + " (inode "
                + region.getLong(parent + RegionLayout.IN_ID)
                + "), which this batch frees; their paths by parent links: "
                + pathOf(store, off)
                + " under "
                + pathOf(store, parent));
      }
    }
  }

  /** The names up the parent links from {@code page} (at most 64), for the message. */
  private static String pathOf(InodeStore store, long page) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < 64 && page != 0; i++) {
      InodeView v = store.inode(page);
      b.insert(0, "/" + v.name() + "(" + v.id() + ")");
      page = v.parentPage();
    }
    return b.toString();
  }

  static LongLongMap freedPages(MutationBatch batch) {
    ByteBuffer b = batch.buffer();
    LongLongMap freed = null;
    int pos = MutationBatch.HEADER;
    for (int e = 0; e < batch.entryCount(); e++) {
      int op = b.getInt(pos);
      long target = b.getLong(pos + 8);
      int len = b.getInt(pos + 16);
      if (op == MutationBatch.Op.FREE.code) {
        if (freed == null) {
          freed = new LongLongMap();
        }
        freed.put(target, 1);
      }
      pos += MutationBatch.ENTRY_HEADER + ((len + 7) & ~7);
    }
    return freed;
  }
}
