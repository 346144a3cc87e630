package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;

import java.util.List;
import org.apache.hadoop.hdfs.server.namenode.nvm.LongLongMap;

/**
 * The checks of region-format.md §11, on the region as recovery sees it after the rollback of an
 * armed undo record: every superblock counter's check (recovery refuses a counter that fails it, at
 * its offset) and every LIVE page's checksum (recovery's scan refuses a page that fails it, at the
 * page). In a region with the page-checksums feature both must match; in a region without it
 * (written before the feature, or whose upgrade a crash interrupted) a counter may also be a plain
 * value (check bits 0) and a LIVE page may also carry the page magic. The other checks still read a
 * page that fails its checksum, so a damaged page may be reported more than once.
 */
final class SealCheck {
  private SealCheck() {}

  static void run(RegionModel m, List<Finding> out) {
    counters(m, out);
    pages(m, out);
  }

  private static void counters(RegionModel m, List<Finding> out) {
    boolean checked = m.image.hasPageChecksums();
    for (int off : Seals.counterOffsets(m.image.hasRecords())) {
      long w = m.image.word(off);
      long value = w & Seals.COUNTER_VALUE_MASK;
      long check = w >>> SB_COUNTER_BITS;
      if (w == Seals.counterWord(off, value) || (!checked && check == 0)) {
        continue;
      }
      out.add(
          new Finding(
              Finding.Kind.BAD_COUNTER,
              off,
              "superblock counter "
                  + Seals.counterName(off)
                  + " holds "
                  + PageState.hex(w)
                  + ": its check 0x"
                  + String.format("%04x", check)
                  + " does not match its value "
                  + value
                  + " (expected 0x"
                  + String.format("%04x", Seals.counterCheck(off, value))
                  + (checked ? "" : ", or 0 for a plain value in a region without page checksums")
                  + "); the counter is damaged and recovery refuses the region"));
    }
  }

  /**
   * LIVE pages other than extension pages: recovery's scan judges them. An extension page is
   * written LIVE out of place and reachable only once its owner links it, so a crash may leave one
   * torn and unreachable: recovery judges its checksum when a chain reaches it ({@link ChainCheck})
   * and reclaims an unreachable one whatever it holds.
   */
  private static void pages(RegionModel m, List<Finding> out) {
    PageCensus c = m.census;
    for (LongList live :
        new LongList[] {c.liveInodes, c.liveStrings, c.liveRecords, c.unknownKind}) {
      for (int i = 0; i < live.size(); i++) {
        Finding f = checksum(m, live.get(i));
        if (f != null) {
          out.add(f);
        }
      }
    }
    // an extension page whose checksum is right for another kind: its kind byte is damaged
    // (recovery's scan refuses it: an inode page turned "extension" would vanish as unreachable)
    for (int i = 0; i < c.liveExts.size(); i++) {
      long page = c.liveExts.get(i);
      long stored = magicOf(m.image.stateWord(page));
      int kind =
          m.image.hasPageChecksums()
              ? Seals.kindMatchingChecksum(m.image.pageBytes(page), stored)
              : -1;
      if (kind >= 0 && kind != kindOf(m.image.stateWord(page))) {
        out.add(
            new Finding(
                Finding.Kind.BAD_CHECKSUM,
                page,
                "LIVE "
                    + PageState.kindName(kindOf(m.image.stateWord(page)))
                    + " page "
                    + page
                    + " has the checksum of a "
                    + PageState.kindName(kind)
                    + " page: its kind byte is damaged; recovery refuses the region"));
      }
    }
  }

  /** A BAD_CHECKSUM finding for the LIVE page at {@code page}, or null if it is sealed right. */
  static Finding checksum(RegionModel m, long page) {
    byte[] b = m.image.pageBytes(page);
    long stored = magicOf(m.image.stateWord(page));
    long computed = Seals.pageChecksum(b);
    if (stored == computed || (!m.image.hasPageChecksums() && stored == PAGE_MAGIC)) {
      return null;
    }
    return new Finding(
        Finding.Kind.BAD_CHECKSUM,
        page,
        describe(m, page)
            + " fails its checksum (stored 0x"
            + String.format("%08x", stored)
            + (stored == PAGE_MAGIC ? ", the page magic: never sealed" : "")
            + ", computed 0x"
            + String.format("%08x", computed)
            + "): a byte of the page is damaged; recovery refuses the region");
  }

  /**
   * "LIVE FILE page 17152 (inode 16390, /a/b)", "LIVE NAME_EXT page 17408 (of inode 16390, /a/b)",
   * "LIVE STRING page 17664 (string id 3)": what the page holds, as far as its fields say.
   */
  static String describe(RegionModel m, long page) {
    long w = m.image.stateWord(page);
    int kind = kindOf(w);
    String what = "LIVE " + PageState.kindName(kind) + " page " + page;
    switch (kind) {
      case KIND_DIR:
      case KIND_FILE:
      case KIND_SYMLINK:
        return what + " (inode " + m.inode(page).id() + ", " + where(m, page) + ")";
      case KIND_NAME_EXT:
      case KIND_BLOCK_EXT:
      case KIND_ATTR_EXT:
        return what + " (of inode " + owner(m, m.image.getLong(page + EXT_OWNER_ID)) + ")";
      case KIND_STRING:
        return what + " (string id " + m.image.getLong(page + ST_ID) + ")";
      case KIND_STRING_EXT:
        return what + " (of string id " + m.image.getLong(page + EXT_OWNER_ID) + ")";
      case KIND_RECORD:
        return what + " (record id " + m.image.getLong(page + RC_ID) + ")";
      case KIND_RECORD_EXT:
        return what + " (of record id " + m.image.getLong(page + EXT_OWNER_ID) + ")";
      default:
        return what;
    }
  }

  /** The path of an attached inode; for another, its name and that it is not attached. */
  private static String where(RegionModel m, long page) {
    if (m.tree.isAttached(m.image, page)) {
      return Paths.of(m, page);
    }
    return "not attached, named " + StringPages.quote(Paths.name(m.inode(page)));
  }

  /** "16390, /a/b" for the id of an attached inode, else the id alone. */
  private static String owner(RegionModel m, long id) {
    long page = id == 0 ? LongLongMap.MISSING : m.attachedPageOfId(id);
    return page == LongLongMap.MISSING ? Long.toString(id) : id + ", " + Paths.of(m, page);
  }
}
