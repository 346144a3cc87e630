package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import java.util.ArrayList;
import java.util.List;

/** Paths of attached inodes, for messages: the names up the parent links to the root. */
final class Paths {
  private Paths() {}

  /** The name of an inode as far as its name chain is readable. */
  static String name(InodePage inode) {
    return StringPages.decode(inode.nameBytes(ExtChain.names(inode, null)));
  }

  /** "/a/b" for an attached inode, "/" for the root; "(detached)" otherwise. */
  static String of(RegionModel m, long page) {
    if (!m.tree.isAttached(m.image, page)) {
      return "(detached)";
    }
    List<String> names = new ArrayList<String>();
    // Attached pages lead to the root through attached parents, so this ends.
    for (long p = page; p != m.tree.rootPage; p = m.inode(p).parentPage()) {
      names.add(name(m.inode(p)));
    }
    StringBuilder b = new StringBuilder();
    for (int i = names.size() - 1; i >= 0; i--) {
      b.append('/').append(names.get(i));
    }
    return b.length() == 0 ? "/" : b.toString();
  }

  /** "inode 16390 (/a/b, page 17152)". */
  static String describe(RegionModel m, long page) {
    return "inode " + m.inode(page).id() + " (" + of(m, page) + ", page " + page + ")";
  }
}
