package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Collections;
import java.util.List;

/**
 * Which live inode pages hang off the root, decided as recovery decides it (native/src/attach.c):
 * breadth first from SB_ROOT_PAGE; a live inode is a child of an attached directory if its
 * IN_PARENT_PAGE is that directory's page and its IN_PARENT_ID that directory's id. Children of one
 * directory are visited in page order, so {@link #order} is recovery's order.
 */
final class Attachment {
  /** Offset of a usable root directory page, or 0. */
  final long rootPage;

  /** Attached inode pages, parents before children. */
  final long[] order;

  private final BitSet attached;

  /** Problems with the root pointer or the root page. */
  final List<Finding> rootProblems;

  private Attachment(long rootPage, long[] order, BitSet attached, List<Finding> rootProblems) {
    this.rootPage = rootPage;
    this.order = order;
    this.attached = attached;
    this.rootProblems = rootProblems;
  }

  boolean isAttached(RegionImage image, long page) {
    int idx = image.pageIndex(page);
    return idx >= 0 && attached.get(idx);
  }

  static Attachment attach(RegionImage image, PageCensus census) {
    List<Finding> problems = new ArrayList<Finding>();
    long root = usableRoot(image, census, problems);
    BitSet attached = new BitSet(census.pageCount);
    if (root == 0) {
      return new Attachment(0, new long[0], attached, Collections.unmodifiableList(problems));
    }
    long[] keys = childKeys(image, census);
    LongList order = new LongList();
    order.add(root);
    attached.set(image.pageIndex(root));
    for (int head = 0; head < order.size(); head++) {
      long p = order.get(head);
      if (kindOf(image.stateWord(p)) != KIND_DIR) {
        continue;
      }
      long pid = image.getLong(p + IN_ID);
      long pidx = image.pageIndex(p);
      for (int k = lowerBound(keys, pidx << 32); k < keys.length && (keys[k] >>> 32) == pidx; k++) {
        int c = (int) keys[k];
        long child = pageOffset(c);
        if (!attached.get(c) && image.getLong(child + IN_PARENT_ID) == pid) {
          attached.set(c);
          order.add(child);
        }
      }
    }
    return new Attachment(root, order.toArray(), attached, Collections.unmodifiableList(problems));
  }

  /** The root page if recovery would accept it, else 0 with the reason in {@code problems}. */
  private static long usableRoot(RegionImage image, PageCensus census, List<Finding> problems) {
    long root = image.counter(SB_ROOT_PAGE);
    int live = census.liveInodes.size();
    if (root == 0) {
      if (live > 0) {
        badRootPointer(
            problems,
            "the superblock has no root page (0) but "
                + live
                + " live inode pages exist; recovery would reclaim every one of them");
      }
      return 0;
    }
    if (image.pageIndex(root) < 0) {
      badRootPointer(
          problems,
          "the superblock's root page "
              + root
              + " is not a page of the data area; recovery refuses the region ("
              + live
              + " live inode pages unreachable)");
      return 0;
    }
    long w = image.stateWord(root);
    if (!PageState.isLive(w, KIND_DIR)) {
      badRootPointer(
          problems,
          "the superblock's root page "
              + root
              + " is "
              + PageState.describe(w)
              + ", not a LIVE DIR page; recovery refuses the region ("
              + live
              + " live inode pages unreachable)");
      return 0;
    }
    long id = image.getLong(root + IN_ID);
    if (id != ROOT_INODE_ID) {
      problems.add(
          new Finding(
              Finding.Kind.BAD_ROOT,
              root + IN_ID,
              "the root directory has id "
                  + id
                  + ", not "
                  + ROOT_INODE_ID
                  + "; the NameNode finds no parent for its children and refuses to start"));
    }
    return root;
  }

  /**
   * parent page index &lt;&lt; 32 | child page index, sorted, for inodes whose parent is a data
   * page.
   */
  private static long[] childKeys(RegionImage image, PageCensus census) {
    LongList keys = new LongList();
    for (int i = 0; i < census.liveInodes.size(); i++) {
      long page = census.liveInodes.get(i);
      int parent = image.pageIndex(image.getLong(page + IN_PARENT_PAGE));
      if (parent >= 0) {
        keys.add((long) parent << 32 | image.pageIndex(page));
      }
    }
    long[] a = keys.toArray();
    Arrays.sort(a);
    return a;
  }

  private static int lowerBound(long[] a, long key) {
    int lo = 0;
    int hi = a.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (a[mid] < key) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /** A finding at the superblock's root pointer. */
  private static void badRootPointer(List<Finding> problems, String why) {
    problems.add(new Finding(Finding.Kind.BAD_ROOT, SB_ROOT_PAGE, why));
  }
}
