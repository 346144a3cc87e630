package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;

import java.util.List;

/**
 * State words recovery's scan refuses (wrong magic or state, a LIVE page of an undefined kind, a
 * RECORD page in a region without the records feature, an ATTR_EXT page in one without the
 * inode-attributes feature or a SYMLINK page in one without the symlinks feature) or never reads (a
 * used page at or above the scan limit).
 */
final class PageWordCheck {
  private PageWordCheck() {}

  /** Pages above the scan limit reported one by one; the rest in one summary finding. */
  private static final int ABOVE_LIMIT_LISTED = 100;

  static void run(RegionModel m, List<Finding> out) {
    LongList above = m.census.aboveScanLimit;
    for (int i = 0; i < Math.min(above.size(), ABOVE_LIMIT_LISTED); i++) {
      long page = above.get(i);
      out.add(
          new Finding(
              Finding.Kind.ABOVE_SCAN_LIMIT,
              page,
              "page "
                  + page
                  + " has the state word "
                  + PageState.hex(m.image.stateWord(page))
                  + " but lies at or above the scan limit (page index "
                  + m.census.scanLimit
                  + "): recovery never reads it, so whatever it holds is lost"));
    }
    if (above.size() > ABOVE_LIMIT_LISTED) {
      out.add(
          new Finding(
              Finding.Kind.ABOVE_SCAN_LIMIT,
              -1,
              (above.size() - ABOVE_LIMIT_LISTED)
                  + " more pages above the scan limit are not zero"));
    }
    listMalformed(m, out);
  }

  /** Why recovery's scan refuses a LIVE page of {@code kind}: an undefined kind or a feature. */
  private static String unknownBecause(int kind) {
    switch (kind) {
      case KIND_RECORD:
        return " (RECORD), which a region without the records feature does not hold";
      case KIND_ATTR_EXT:
        return " (ATTR_EXT), which a region without the inode-attributes feature does not hold";
      case KIND_SYMLINK:
        return " (SYMLINK), which a region without the symlinks feature does not hold";
      default:
        return ", which the format does not define";
    }
  }

  private static void listMalformed(RegionModel m, List<Finding> out) {
    for (int i = 0; i < m.census.malformed.size(); i++) {
      long page = m.census.malformed.get(i);
      long w = m.image.stateWord(page);
      out.add(
          new Finding(
              Finding.Kind.BAD_STATE_WORD,
              page,
              "page "
                  + page
                  + " has the state word "
                  + PageState.hex(w)
                  + " (magic "
                  + String.format("0x%08x", magicOf(w))
                  + ", state "
                  + stateOf(w)
                  + "); recovery refuses the region"));
    }
    for (int i = 0; i < m.census.unknownKind.size(); i++) {
      long page = m.census.unknownKind.get(i);
      long w = m.image.stateWord(page);
      out.add(
          new Finding(
              Finding.Kind.UNKNOWN_KIND,
              page,
              "LIVE page "
                  + page
                  + " has kind "
                  + kindOf(w)
                  + unknownBecause(kindOf(w))
                  + " (state word "
                  + PageState.hex(w)
                  + "); recovery refuses the region"));
    }
  }
}
