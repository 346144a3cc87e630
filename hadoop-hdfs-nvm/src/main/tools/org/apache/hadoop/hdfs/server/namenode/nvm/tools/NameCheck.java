package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;

/**
 * Names of attached inodes: 1..NAME_MAX bytes, no '/' (any other byte, NUL included, is a valid
 * name byte: the stock NameNode accepts it), not "." or "..", and unique among the children of one
 * directory. Recovery refuses a length over NAME_MAX (the root's too: the format stores no longer
 * name) and the other bad names; the NameNode would refuse to start on a duplicate name. The root's
 * name is otherwise not used (it is empty). An inode only snapshots hold (named by a deleted list,
 * region-format.md §13) is not a child in the current tree: a current child may have its name.
 * Names whose chain is broken are left to {@link ChainCheck}.
 */
final class NameCheck {
  private static final class Child {
    final long page;
    final byte[] name;

    Child(long page, byte[] name) {
      this.page = page;
      this.name = name;
    }
  }

  private static final Comparator<Child> BY_NAME_THEN_PAGE =
      new Comparator<Child>() {
        @Override
        public int compare(Child a, Child b) {
          int c = compareBytes(a.name, b.name);
          return c != 0 ? c : Long.compare(a.page, b.page);
        }
      };

  private NameCheck() {}

  static void run(RegionModel m, List<Finding> out) {
    long[] order = m.tree.order;
    if (order.length > 0) {
      checkLength(m, order[0], out); // the root: breadth-first order starts with it
    }
    // Breadth-first order lists the children of one directory next to each other.
    for (int i = 1; i < order.length; ) {
      long parent = m.inode(order[i]).parentPage();
      List<Child> siblings = new ArrayList<Child>();
      for (; i < order.length && m.inode(order[i]).parentPage() == parent; i++) {
        byte[] name = checkName(m, order[i], out);
        if (name != null && !m.notInCurrentTree().containsKey(m.inode(order[i]).id())) {
          siblings.add(new Child(order[i], name));
        }
      }
      duplicates(m, parent, siblings, out);
    }
  }

  /** Reports a bad name; returns the name if it was complete (bad or not), else null. */
  private static byte[] checkName(RegionModel m, long page, List<Finding> out) {
    InodePage inode = m.inode(page);
    long len = inode.nameLength();
    if (!checkLength(m, page, out)) {
      return null;
    }
    byte[] name = inode.nameBytes(ExtChain.names(inode, null));
    if (name.length != len) {
      return null;
    }
    String why = null;
    if (len == 0) {
      why = "is empty";
    } else if ((len == 1 && name[0] == '.') || (len == 2 && name[0] == '.' && name[1] == '.')) {
      why = "is \"" + StringPages.decode(name) + "\"";
    } else {
      for (int k = 0; k < name.length && why == null; k++) {
        if (name[k] == '/') {
          why = "contains '/' at byte " + k;
        }
      }
    }
    if (why != null) {
      out.add(
          new Finding(
              Finding.Kind.BAD_NAME,
              page + IN_NAME_LEN,
              Paths.describe(m, page)
                  + ": the name "
                  + why
                  + "; recovery refuses the region (no HDFS operation writes such a name)"));
    }
    return name;
  }

  /** Reports a name length over NAME_MAX (unsigned, as recovery reads it); true if it is within. */
  private static boolean checkLength(RegionModel m, long page, List<Finding> out) {
    long len = m.inode(page).nameLength();
    if (len >= 0 && len <= NAME_MAX) {
      return true;
    }
    out.add(
        new Finding(
            Finding.Kind.BAD_NAME,
            page + IN_NAME_LEN,
            Paths.describe(m, page)
                + ": name length "
                + Long.toUnsignedString(len)
                + " is over NAME_MAX "
                + NAME_MAX
                + "; recovery refuses the region"));
    return false;
  }

  private static void duplicates(
      RegionModel m, long parent, List<Child> siblings, List<Finding> out) {
    Collections.sort(siblings, BY_NAME_THEN_PAGE);
    for (int k = 1; k < siblings.size(); k++) {
      Child a = siblings.get(k - 1);
      Child b = siblings.get(k);
      if (compareBytes(a.name, b.name) == 0) {
        out.add(
            new Finding(
                Finding.Kind.DUPLICATE_NAME,
                b.page + IN_NAME_LEN,
                "directory "
                    + Paths.of(m, parent)
                    + " has two children named \""
                    + StringPages.decode(b.name)
                    + "\": inode "
                    + m.inode(a.page).id()
                    + " at page "
                    + a.page
                    + " and inode "
                    + m.inode(b.page).id()
                    + " at page "
                    + b.page
                    + "; the NameNode refuses to start"));
      }
    }
  }

  /** Unsigned lexicographic order, as HDFS orders child names. */
  static int compareBytes(byte[] a, byte[] b) {
    for (int i = 0; i < Math.min(a.length, b.length); i++) {
      int c = (a[i] & 0xff) - (b[i] & 0xff);
      if (c != 0) {
        return c;
      }
    }
    return a.length - b.length;
  }
}
