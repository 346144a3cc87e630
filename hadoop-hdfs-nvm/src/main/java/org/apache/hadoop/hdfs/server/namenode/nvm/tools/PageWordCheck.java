package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import java.util.List;

/** State words recovery's scan refuses: wrong magic or state, or a LIVE page of an undefined kind. */
final class PageWordCheck {
  private PageWordCheck() {
  }

  static void run(RegionModel m, List<Finding> out) {
    for (int i = 0; i < m.census.malformed.size(); i++) {
      long page = m.census.malformed.get(i);
      long w = m.image.stateWord(page);
      out.add(new Finding(Finding.Kind.BAD_STATE_WORD, page, "page " + page + " has the state word "
          + PageState.hex(w) + " (magic " + String.format("0x%08x", PageState.magic(w)) + ", state "
          + PageState.state(w) + "); recovery refuses the region"));
    }
    for (int i = 0; i < m.census.unknownKind.size(); i++) {
      long page = m.census.unknownKind.get(i);
      long w = m.image.stateWord(page);
      out.add(new Finding(Finding.Kind.UNKNOWN_KIND, page, "LIVE page " + page + " has kind "
          + PageState.kind(w) + ", which the format does not define (state word " + PageState.hex(w)
          + "); recovery refuses the region"));
    }
  }
}
