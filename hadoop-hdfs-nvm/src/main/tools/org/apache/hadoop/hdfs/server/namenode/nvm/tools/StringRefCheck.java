package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;

import java.util.Arrays;
import java.util.List;

/**
 * String references of attached inodes (owner and group in the perm word; client name and machine
 * in a file's UC word) and the STRING pages themselves. A reference without a LIVE STRING page
 * makes recovery refuse the region (so does a broken STRING_EXT chain of a referenced string:
 * {@link ChainCheck}). A referenced page with an id above SB_LAST_STRING_ID, or a second page with
 * the same id but other text, would be trusted as it is (recovery reads no counter, and keeps the
 * lower page of an id). A LIVE STRING page no inode refers to is reclaimed by recovery, with its
 * chain; one that only detached inodes refer to is covered by the finding about them.
 */
final class StringRefCheck {
  private final RegionModel m;
  private final StringRefs refs;

  private StringRefCheck(RegionModel m) {
    this.m = m;
    this.refs = m.stringRefs();
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
    long lastId = m.image.counter(SB_LAST_STRING_ID);
    for (int i = 0; i < m.census.liveStrings.size(); i++) {
      long sp = m.census.liveStrings.get(i);
      if (refs.isKept(sp)) {
        referencedPage(sp, lastId, out);
      } else if (!refs.isDetachedRef(sp)) {
        unreferencedPage(sp, out);
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
    }
  }

  private void referencedPage(long sp, long lastId, List<Finding> out) {
    long id = m.image.getLong(sp + ST_ID);
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
    if (kept != 0 && kept != sp && refs.isKept(kept) && differentText(sp, kept)) {
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
                + (text == null ? "" : ", " + StringPages.quote(text))
                + ") is referred to by no inode; recovery reclaims it"
                + (ChainSpec.isChainedString(m.image, sp) ? ", with its STRING_EXT chain" : "")));
  }

  /**
   * The two pages hold other strings: other lengths, or other bytes where both can be read (a page
   * whose chain is broken cannot be compared byte by byte).
   */
  private boolean differentText(long a, long b) {
    if (m.image.getLong(a + ST_LEN) != m.image.getLong(b + ST_LEN)) {
      return true;
    }
    byte[] x = m.strings.bytesAt(a);
    byte[] y = m.strings.bytesAt(b);
    return x != null && y != null && !Arrays.equals(x, y);
  }
}
