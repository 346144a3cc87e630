package org.apache.hadoop.hdfs.server.namenode;

import org.apache.hadoop.hdfs.server.namenode.nvm.InodeStore;
import org.apache.hadoop.hdfs.server.namenode.nvm.LongLongMap;

/**
 * How the write-through finds the directory a removal left (the delete's batch stages its mtime).
 */
final class RemovalParents {
  private RemovalParents() {}

  /**
   * The page of the removed subtree's root among the first {@code n} of {@code pages} (the pages of
   * the removed inodes), 0 if none (nothing removed, or no single root).
   */
  static long rootPage(InodeStore store, long[] pages, int n) {
    if (n == 1) {
      return pages[0];
    }
    LongLongMap set = new LongLongMap(Math.max(16, n * 2));
    for (int i = 0; i < n; i++) {
      set.put(pages[i], 1);
    }
    long root = 0;
    for (int i = 0; i < n; i++) {
      if (!set.containsKey(store.inode(pages[i]).parentPage())) {
        if (root != 0) {
          return 0; // two roots: not one subtree
        }
        root = pages[i];
      }
    }
    return root;
  }

  /**
   * The parent directory's path of a path as a client sent it: HDFS accepts trailing slashes
   * ("/a/b/" and "/a/b//" name /a/b), so they are dropped before the last component is.
   */
  static String parentPath(String src) {
    int end = src.length();
    while (end > 1 && src.charAt(end - 1) == '/') {
      end--;
    }
    int slash = src.lastIndexOf('/', end - 1);
    return slash <= 0 ? "/" : src.substring(0, slash);
  }
}
