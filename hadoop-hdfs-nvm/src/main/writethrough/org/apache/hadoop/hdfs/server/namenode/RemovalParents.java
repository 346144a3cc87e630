package org.apache.hadoop.hdfs.server.namenode;

import java.io.IOException;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeStore;
import org.apache.hadoop.hdfs.server.namenode.nvm.LongLongMap;

/**
 * How the write-through finds the directory a removal left (the delete's batch stages its mtime),
 * and which removed inodes a directory still lists (their pages stay).
 */
final class RemovalParents {
  /**
   * The debug check of -Dnvm.debug.parentLinks=true: after a batch, no inode the id &rarr; page map
   * still holds has a page the batch freed (a page freed under a live inode is reused later, so
   * without the check the failure shows only when the reuse happens, which the commit thread's
   * timing decides).
   */
  static final boolean CHECK_PAGES = Boolean.getBoolean("nvm.debug.parentLinks");

  static void noFreedPageMapped(IdPageMap pages, LongLongMap freed, String what) {
    if (freed == null || freed.size() == 0) {
      return;
    }
    for (long id : pages.keys()) {
      if (freed.containsKey(pages.get(id))) {
        throw new IllegalStateException(
            "nvm.debug.parentLinks: the batch of "
                + what
                + " freed page "
                + pages.get(id)
                + " of inode "
                + id
                + ", which the namespace still holds");
      }
    }
  }

  /** The directory {@code src}'s parent path names, if it has a page; else null. */
  static INodeDirectory parentOf(FSDirectory fsd, IdPageMap pages, String src) {
    if (src == null || !src.startsWith("/")) {
      return null;
    }
    INode p;
    try {
      p = fsd.getINode(parentPath(src));
    } catch (IOException | RuntimeException e) {
      return null;
    }
    return p != null && p.isDirectory() && pages.containsKey(p.getId()) ? p.asDirectory() : null;
  }

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
   * The directory the removed subtree's root was a child of, by the root page's parent id (the
   * inode map resolves it without walking a path); null if there is no single root or it does not
   * resolve to a directory.
   */
  static INodeDirectory rootParent(InodeStore store, FSDirectory fsd, long[] pages, int n) {
    long root = rootPage(store, pages, n);
    if (root == 0) {
      return null;
    }
    INode p = fsd.getInode(store.inode(root).parentId());
    return p != null && p.isDirectory() ? p.asDirectory() : null;
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

  /**
   * Whether a directory still lists {@code n} (whose page is {@code page}), which 2.7.3 destroyed:
   * a snapshot's deletion destroys what only it held, and a file created in a directory after the
   * oldest snapshot that holds the directory (its created list), then held by later snapshots only
   * while the directory was deleted, is destroyed with them but stays in the deleted directory's
   * children, which 2.7.3 reads again when the directory goes (the diff's created list is applied
   * to them). Its page stays until then, when the directory's destruction names it again
   * (docs/snapshots.md §3). A destroyed directory clears its children, so its own destroyed
   * children are not listed. The destroyed inode no longer knows its parent: its page does.
   */
  static boolean stillListed(
      InodeStore store,
      SlimNamespace slim,
      IdPageMap pages,
      LongLongMap removedSet,
      INode n,
      long page) {
    long parentId = store.inode(page).parentId();
    INodeDirectory parent = slim.directory(parentId);
    return parent instanceof NvmINodeDirectory
        && pages.get(parentId) != IdPageMap.MISSING
        && removedSet.get(parentId) == LongLongMap.MISSING
        && ((NvmINodeDirectory) parent).listsChild(n);
  }
}
