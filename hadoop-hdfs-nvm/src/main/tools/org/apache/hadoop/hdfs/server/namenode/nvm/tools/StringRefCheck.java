package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;

import java.util.List;
import org.apache.hadoop.hdfs.server.namenode.nvm.LongLongMap;

/**
 * String references of attached inodes (owner and group in the perm word; client name and machine
 * in a file's UC word) and the STRING pages themselves. A reference without a LIVE STRING page
 * makes recovery refuse the region. A referenced page with a length over STRING_MAX, an id above
 * SB_LAST_STRING_ID, or a second page with the same id but other text would be trusted as it is
 * (recovery reads neither length nor counter, and keeps the lower page of an id). A LIVE STRING
 * page no inode refers to is reclaimed by recovery; one that only detached inodes refer to is
 * covered by the finding about them.
 */
final class StringRefCheck {
  private final RegionModel m;

  /** String pages attached inodes refer to -&gt; 1. */
  private final LongLongMap referenced = new LongLongMap(64);

  /** String pages only detached inodes refer to -&gt; 1. */
  private final LongLongMap detachedRefs = new LongLongMap(64);

  private StringRefCheck(RegionModel m) {
    this.m = m;
  }

  static void run(RegionModel m, List<Finding> out) {
    new StringRefCheck(m).check(out);
  }

  private void check(List<Finding> out) {
    for (long page : m.tree.order) {
      InodePage inode = m.inode(page);
      ref(page, page + IN_PERM, "owner", inode.ownerId(), out);
      ref(page, page + IN_PERM, "group", inode.groupId(), out);
      if (inode.isFile() && inode.word(FI_UC) != 0) {
        long client = inode.clientId();
        long machine = inode.clientMachineId();
        if (client == 0 || machine == 0) {
          out.add(
              new Finding(
                  Finding.Kind.BAD_UC_WORD,
                  page + FI_UC,
                  Paths.describe(m, page)
                      + ": under construction with client name id "
                      + client
                      + " and client machine id "
                      + machine
                      + "; both are needed (the NameNode would open a lease without a holder or machine)"));
        }
        ref(page, page + FI_UC, "client name", client, out);
        ref(page, page + FI_UC, "client machine", machine, out);
      }
    }
    detachedReferences();
    long lastId = m.image.counter(SB_LAST_STRING_ID);
    for (int i = 0; i < m.census.liveStrings.size(); i++) {
      long sp = m.census.liveStrings.get(i);
      if (referenced.containsKey(sp)) {
        referencedPage(sp, lastId, out);
      } else if (!detachedRefs.containsKey(sp)) {
        unreferencedPage(sp, out);
      }
    }
  }

  private void detachedReferences() {
    for (int i = 0; i < m.census.liveInodes.size(); i++) {
      long page = m.census.liveInodes.get(i);
      if (m.tree.isAttached(m.image, page)) {
        continue;
      }
      InodePage inode = m.inode(page);
      long[] ids = {
        inode.ownerId(),
        inode.groupId(),
        inode.isFile() ? inode.clientId() : 0,
        inode.isFile() ? inode.clientMachineId() : 0
      };
      for (long id : ids) {
        long sp = m.strings.page(id);
        if (sp != 0) {
          detachedRefs.put(sp, 1);
        }
      }
    }
  }

  private void ref(long page, long field, String what, long id, List<Finding> out) {
    if (id == 0) {
      return;
    }
    long sp = m.strings.page(id);
    if (sp == 0) {
      out.add(
          new Finding(
              Finding.Kind.DANGLING_STRING_REF,
              field,
              Paths.describe(m, page)
                  + ": "
                  + what
                  + " string id "
                  + id
                  + " has no LIVE STRING page; recovery refuses the region"));
    } else {
      referenced.put(sp, 1);
    }
  }

  private void referencedPage(long sp, long lastId, List<Finding> out) {
    long id = m.image.getLong(sp + ST_ID);
    long len = m.image.getLong(sp + ST_LEN);
    if (m.strings.length(sp) < 0) {
      out.add(
          new Finding(
              Finding.Kind.BAD_STRING_PAGE,
              sp + ST_LEN,
              "STRING page "
                  + sp
                  + " (id "
                  + id
                  + ") has length "
                  + len
                  + ", over STRING_MAX "
                  + STRING_MAX
                  + "; the NameNode cannot load it"));
    }
    if (Long.compareUnsigned(id, lastId) > 0) {
      out.add(
          new Finding(
              Finding.Kind.BAD_STRING_PAGE,
              sp + ST_ID,
              "STRING page "
                  + sp
                  + " has id "
                  + id
                  + ", above the superblock's SB_LAST_STRING_ID "
                  + lastId));
    }
  }

  private void unreferencedPage(long sp, List<Finding> out) {
    long id = m.image.getLong(sp + ST_ID);
    long kept = m.strings.page(id);
    String text = m.strings.textAt(sp);
    if (kept != 0
        && kept != sp
        && referenced.containsKey(kept)
        && !sameText(text, m.strings.textAt(kept))) {
      out.add(
          new Finding(
              Finding.Kind.BAD_STRING_PAGE,
              sp + ST_ID,
              "string id "
                  + id
                  + " is on STRING pages "
                  + kept
                  + " and "
                  + sp
                  + " with different text; references resolve to the lower page and recovery "
                  + "reclaims this one, so which text was meant is lost"));
      return;
    }
    out.add(
        new Finding(
            Finding.Kind.UNREFERENCED_STRING,
            sp,
            "LIVE STRING page "
                + sp
                + " (id "
                + id
                + (text == null ? "" : ", \"" + text + "\"")
                + ") is referred to by no inode; recovery reclaims it"));
  }

  private static boolean sameText(String a, String b) {
    return a == null ? b == null : a.equals(b);
  }
}
