package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;

import java.util.HashSet;
import java.util.Set;
import org.apache.hadoop.hdfs.server.namenode.nvm.LongLongMap;

/**
 * How many owners (attached inodes, strings they refer to, records) link each extension page, found
 * by following every chain's links without judging them (stopping at a page that is not a LIVE
 * extension page of the chain's kind, at a repeat, or once the units the chain needs are covered).
 * A page linked by two chains is shared; a LIVE extension page no chain links is one recovery
 * reclaims.
 */
final class ChainOwners {
  private final LongLongMap links = new LongLongMap(1024);

  void follow(InodePage inode, boolean names) {
    follow(ChainSpec.of(inode, names));
  }

  /**
   * The ATTR_EXT chain of {@code inode}, if its IN_ATTRS word has a length (even a word recovery
   * refuses, set without the feature or over ATTRS_MAX: its pages are covered by the finding about
   * the word, not leftovers).
   */
  void followAttrs(InodePage inode) {
    if (inode.attrsLength() != 0) {
      follow(ChainSpec.ofAttrs(inode));
    }
  }

  /**
   * The target chain of {@code inode} if it is a symlink (even one whose length recovery refuses:
   * its pages are covered by the finding about the length, not leftovers).
   */
  void followTarget(InodePage inode) {
    if (inode.isSymlink()) {
      follow(ChainSpec.ofTarget(inode));
    }
  }

  /** The STRING_EXT chain of the string on {@code stringPage}, if it is chained. */
  void followString(RegionImage image, long stringPage) {
    if (ChainSpec.isChainedString(image, stringPage)) {
      follow(ChainSpec.ofString(image, stringPage));
    }
  }

  /** The RECORD_EXT chains of the records on {@code recordPages} (recovery keeps every one). */
  void followRecords(RegionImage image, LongList recordPages) {
    for (int i = 0; i < recordPages.size(); i++) {
      follow(ChainSpec.ofRecord(image, recordPages.get(i)));
    }
  }

  private void follow(ChainSpec s) {
    RegionImage image = s.image;
    long needed = s.needed;
    long off = s.firstPage;
    Set<Long> seen = needed != 0 ? new HashSet<Long>() : null; // most inodes need no extension page
    while (needed != 0
        && off != 0
        && image.pageIndex(off) >= 0 // needed is unsigned (ChainSpec.needed)
        && PageState.isLive(image.stateWord(off), s.kind)
        && seen.add(off)) {
      long n = links.get(off);
      links.put(off, n == LongLongMap.MISSING ? 1 : n + 1);
      // A bad count still advances by one page, so a broken chain cannot loop here.
      long count = image.getLong(off + EXT_COUNT);
      long step = count == 0 ? 1 : Long.compareUnsigned(count, s.perPage) > 0 ? s.perPage : count;
      needed = Long.compareUnsigned(needed, step) > 0 ? needed - step : 0;
      off = image.getLong(off + EXT_NEXT);
    }
  }

  boolean isShared(long page) {
    long n = links.get(page);
    return n != LongLongMap.MISSING && n > 1;
  }

  boolean isLinked(long page) {
    return links.get(page) != LongLongMap.MISSING;
  }
}
