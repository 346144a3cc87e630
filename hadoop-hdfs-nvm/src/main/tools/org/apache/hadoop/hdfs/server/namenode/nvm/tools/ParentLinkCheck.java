package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hdfs.server.namenode.nvm.LongLongMap;

/**
 * LIVE inode pages recovery cannot attach (it reclaims them as orphans). They are grouped into
 * detached subtrees; each subtree's top inode is judged by its parent link:
 *
 * <ul>
 *   <li>the parent page is an INVALID directory page carrying the recorded parent id: a delete
 *       committed (it invalidated the subtree's root) and a crash came before all its pages were
 *       freed (region-format.md §7.4). RECOVERABLE: recovery finishes the delete.
 *   <li>anything else (a live directory with another id, a file, a symlink, a pending or never-used
 *       page, no page at all, a cycle): no crash leaves this, because a deleted directory keeps its
 *       kind and id and its page is reused only after its descendants were freed in the same batch.
 *       A parent field or the parent's page is damaged, and recovery would silently drop the
 *       subtree. ERROR.
 * </ul>
 */
final class ParentLinkCheck {
  private final RegionModel m;

  /** Detached page -&gt; the top page of its detached subtree. */
  private final Map<Long, Long> topOf = new HashMap<Long, Long>();

  /** Tops found to be part of a parent cycle. */
  private final Map<Long, List<Long>> cycles = new HashMap<Long, List<Long>>();

  private LongLongMap attachedDirsById;

  private ParentLinkCheck(RegionModel m) {
    this.m = m;
  }

  static void run(RegionModel m, List<Finding> out) {
    if (m.tree.rootPage == 0) {
      return; // BAD_ROOT already says that nothing can be attached
    }
    new ParentLinkCheck(m).check(out);
  }

  private void check(List<Finding> out) {
    Map<Long, Integer> members = new HashMap<Long, Integer>();
    List<Long> tops = new ArrayList<Long>();
    for (int i = 0; i < m.census.liveInodes.size(); i++) {
      long page = m.census.liveInodes.get(i);
      if (m.tree.isAttached(m.image, page)) {
        continue;
      }
      long top = top(page);
      Integer n = members.get(top);
      if (n == null) {
        tops.add(top);
      }
      members.put(top, n == null ? 1 : n + 1);
    }
    Collections.sort(tops);
    for (long top : tops) {
      out.add(judge(top, members.get(top) - 1));
    }
  }

  /**
   * A parent that keeps {@code page} in a detached subtree: a LIVE directory, not attached, with
   * the recorded id.
   */
  private long detachedParent(long page) {
    InodePage c = m.inode(page);
    long p = c.parentPage();
    if (m.image.pageIndex(p) < 0
        || !PageState.isLive(m.image.stateWord(p), KIND_DIR)
        || m.tree.isAttached(m.image, p)
        || m.image.getLong(p + IN_ID) != c.parentId()) {
      return 0;
    }
    return p;
  }

  private long top(long page) {
    List<Long> walk = new ArrayList<Long>();
    long cur = page;
    Long known = null;
    while (known == null) {
      walk.add(cur);
      long p = detachedParent(cur);
      if (p == 0) {
        known = cur;
      } else if (topOf.containsKey(p)) {
        known = topOf.get(p);
      } else if (walk.contains(p)) {
        List<Long> cycle = new ArrayList<Long>(walk.subList(walk.indexOf(p), walk.size()));
        Collections.sort(cycle);
        known = cycle.get(0);
        cycles.put(known, cycle);
      } else {
        cur = p;
      }
    }
    for (long w : walk) {
      topOf.put(w, known);
    }
    return known;
  }

  private Finding judge(long top, int descendants) {
    InodePage t = m.inode(top);
    String who =
        "inode "
            + t.id()
            + " (page "
            + top
            + ")"
            + (descendants > 0 ? " and the " + descendants + " inode(s) below it" : "");
    String them = descendants > 0 ? "them" : "it";
    List<Long> cycle = cycles.get(top);
    if (cycle != null) {
      return new Finding(
          Finding.Kind.PARENT_CYCLE,
          top + IN_PARENT_PAGE,
          "the directories on pages "
              + cycle
              + " are each other's parents, a cycle no operation creates; recovery would silently reclaim "
              + who
              + " as orphans");
    }
    long p = t.parentPage();
    long pid = t.parentId();
    long w = m.image.pageIndex(p) >= 0 ? m.image.stateWord(p) : 0;
    boolean dirPage =
        m.image.pageIndex(p) >= 0 && PageState.isWellFormed(w) && kindOf(w) == KIND_DIR;
    if (dirPage && stateOf(w) == STATE_INVALID && m.image.getLong(p + IN_ID) == pid) {
      return new Finding(
          Finding.Kind.ORPHAN,
          top,
          who
              + (descendants > 0 ? " hang" : " hangs")
              + " off directory "
              + pid
              + " at page "
              + p
              + ", which was deleted (INVALID): a crash came between a delete's commit and the "
              + "freeing of its pages; recovery reclaims "
              + them
              + ", with the extension pages and the strings only "
              + them
              + " use"
              + (descendants > 0 ? "" : "s"));
    }
    String parent =
        m.image.pageIndex(p) < 0
            ? "offset " + p + ", which is not a page of the data area"
            : "page "
                + p
                + ", "
                + PageState.describe(w)
                + (dirPage ? " with id " + m.image.getLong(p + IN_ID) : "");
    long elsewhere = attachedDirPage(pid);
    long offset = top + IN_PARENT_PAGE;
    String why;
    if (elsewhere != 0 && elsewhere != p) {
      why =
          "; directory "
              + pid
              + " is attached at page "
              + elsewhere
              + ", so the parent page field is damaged";
    } else if (dirPage) {
      offset = top + IN_PARENT_ID;
      why = "; the parent id field (or the parent page) is damaged";
    } else if (PageState.isLive(w, KIND_SYMLINK)) {
      why =
          "; a symlink has no children (recovery attaches children to directories only), so the"
              + " parent page field (or that page) is damaged";
    } else {
      why = "; the parent page field (or that page) is damaged";
    }
    return new Finding(
        Finding.Kind.BROKEN_PARENT_LINK,
        offset,
        who
            + " cannot be attached: its parent link names "
            + parent
            + ", recorded parent id "
            + pid
            + ". No crash leaves such a link"
            + why
            + "; recovery would silently reclaim "
            + them
            + (descendants > 0 ? " as orphans" : " as an orphan")
            + ", with the extension pages");
  }

  private long attachedDirPage(long id) {
    if (attachedDirsById == null) {
      attachedDirsById = new LongLongMap(1024);
      for (long page : m.tree.order) {
        long dirId = m.inode(page).id();
        if (m.inode(page).isDirectory() && dirId != 0) { // 0 is the map's empty key
          attachedDirsById.put(dirId, page);
        }
      }
    }
    long p = id == 0 ? LongLongMap.MISSING : attachedDirsById.get(id);
    return p == LongLongMap.MISSING ? 0 : p;
  }
}
