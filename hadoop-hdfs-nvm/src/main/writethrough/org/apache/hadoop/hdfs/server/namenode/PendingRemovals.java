package org.apache.hadoop.hdfs.server.namenode;

import java.util.Arrays;
import org.apache.hadoop.hdfs.server.namenode.nvm.LongLongMap;

/**
 * The inodes the namesystem removed whose pages the next batch frees: each inode once (2.7.3's
 * snapshot deletion may name one twice), in the order they arrived.
 */
final class PendingRemovals {
  private long[] pages = new long[16];
  private long[] ids = new long[16];
  private int count;

  /** The pending ids, each mapped to its page. */
  private final LongLongMap set = new LongLongMap();

  int count() {
    return count;
  }

  /** The pages to free; the first {@link #count} entries are valid. */
  long[] pages() {
    return pages;
  }

  /** The ids, in the order of {@link #pages}. */
  long[] ids() {
    return ids;
  }

  /** Id &rarr; page of every pending removal. */
  LongLongMap set() {
    return set;
  }

  /** Adds inode {@code id} on {@code page}; false if it is pending already. */
  boolean add(long id, long page) {
    if (set.put(id, page) != LongLongMap.MISSING) {
      return false;
    }
    if (count == pages.length) {
      pages = Arrays.copyOf(pages, count * 2);
      ids = Arrays.copyOf(ids, count * 2);
    }
    pages[count] = page;
    ids[count++] = id;
    return true;
  }

  /** The batch that freed them committed: the id-to-page map and the inode cache forget them. */
  void forget(IdPageMap idPages, InodeCache cache) {
    for (int i = 0; i < count; i++) {
      idPages.remove(ids[i]);
      // the INodeMap dropped it already; a lookup by id in between must not have cached it again
      cache.remove(ids[i]);
    }
    count = 0;
    if (set.size() > 0) {
      set.clear();
    }
  }
}
