package org.apache.hadoop.hdfs.server.namenode;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.hdfs.server.namenode.snapshot.NvmSnapshotAccess;
import org.apache.hadoop.hdfs.server.namenode.snapshot.Snapshot;

/**
 * Where each inode of a namespace the stock loader built gets its page in the region, parents
 * before children (region-format.md §13, as the NVM NameNode places them while it runs): the
 * current tree first, breadth first, a renamed inode (a {@code DstReference} child) under the
 * directory it is a child of now; then what only snapshots hold, under the directory whose deleted
 * list holds it (a renamed inode no current reference holds, under the first of its old places),
 * and a deleted directory's children under it. Each page keeps the inode's own name, so a path here
 * is the page's path, the one {@code dump} shows, not necessarily a path a client can read. Also
 * collects the current references the region keeps a record of ({@code RECORD_INODE_REF}).
 */
final class NvmImportTree {
  /** One page to write: {@code inode} under the page of {@code parent} (null: the root). */
  static final class Page {
    final INode inode;
    final INodeDirectory parent;
    final String path;

    Page(INode inode, INodeDirectory parent, String path) {
      this.inode = inode;
      this.parent = parent;
      this.path = path;
    }
  }

  /** A current {@code DstReference} child and the directory it is a child of. */
  static final class Reference {
    final INodeReference ref;
    final INodeDirectory parent;

    Reference(INodeReference ref, INodeDirectory parent) {
      this.ref = ref;
      this.parent = parent;
    }
  }

  /** Every page, the root first; the children of one parent are consecutive. */
  final List<Page> pages = new ArrayList<Page>();

  final List<Reference> references = new ArrayList<Reference>();

  private final Set<Long> placed = new HashSet<Long>();

  private NvmImportTree() {}

  static NvmImportTree of(FSDirectory fsd) {
    NvmImportTree t = new NvmImportTree();
    INodeDirectory root = fsd.getRoot();
    t.placed.add(root.getId());
    t.pages.add(new Page(root, null, "/"));
    // the current tree: the pages list grows behind the cursor, breadth first
    for (int i = 0; i < t.pages.size(); i++) {
      if (t.pages.get(i).inode.isDirectory()) {
        t.children(t.pages.get(i));
      }
    }
    int current = t.pages.size();
    // then what only snapshots hold: every directory's deleted lists, and the children of the
    // directories found there (not in the current tree)
    for (int i = 0; i < t.pages.size(); i++) {
      Page p = t.pages.get(i);
      if (p.inode.isDirectory()) {
        t.deleted(p);
        if (i >= current) {
          t.children(p);
        }
      }
    }
    return t;
  }

  private void children(Page p) {
    INodeDirectory dir = p.inode.asDirectory();
    for (INode c : dir.getChildrenList(Snapshot.CURRENT_STATE_ID)) {
      if (c instanceof INodeReference.DstReference) {
        references.add(new Reference(c.asReference(), dir));
      }
      place(target(c), dir, p.path);
    }
  }

  private void deleted(Page p) {
    for (INode x : NvmSnapshotAccess.deletedLists(p.inode.asDirectory())) {
      place(target(x), p.inode.asDirectory(), p.path);
    }
  }

  private void place(INode n, INodeDirectory parent, String parentPath) {
    if (placed.add(n.getId())) {
      pages.add(
          new Page(n, parent, ("/".equals(parentPath) ? "" : parentPath) + "/" + n.getLocalName()));
    }
  }

  /** The inode itself behind a reference (a DstReference or WithName, then its WithCount). */
  static INode target(INode n) {
    while (n.isReference()) {
      n = n.asReference().getReferredINode();
    }
    return n;
  }
}
