package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;

import org.apache.hadoop.hdfs.server.namenode.nvm.LongLongMap;

/**
 * Which STRING pages the inodes refer to, resolved as recovery resolves a string id (the lowest
 * LIVE page carrying it, {@link StringPages#page}): the pages attached inodes refer to are the ones
 * recovery keeps, with their STRING_EXT chains; the pages detached inodes refer to go with them.
 */
final class StringRefs {
  /** Kept string pages (attached inodes refer to them) -&gt; 1. */
  private final LongLongMap attached = new LongLongMap(64);

  /** String pages detached inodes refer to -&gt; 1 (some may be kept too). */
  private final LongLongMap detached = new LongLongMap(64);

  private StringRefs() {}

  static StringRefs of(RegionModel m) {
    StringRefs r = new StringRefs();
    for (long page : m.tree.order) {
      r.add(m, r.attached, m.inode(page));
    }
    for (int i = 0; i < m.census.liveInodes.size(); i++) {
      long page = m.census.liveInodes.get(i);
      if (!m.tree.isAttached(m.image, page)) {
        r.add(m, r.detached, m.inode(page));
      }
    }
    return r;
  }

  /**
   * The string ids an inode refers to, as recovery reads them: owner and group, and for a file the
   * client name and machine of its UC word (0 = none).
   */
  static long[] ids(InodePage inode) {
    boolean file = inode.isFile();
    return new long[] {
      inode.ownerId(),
      inode.groupId(),
      file ? inode.clientId() : 0,
      file ? inode.clientMachineId() : 0
    };
  }

  private void add(RegionModel m, LongLongMap to, InodePage inode) {
    for (long id : ids(inode)) {
      long sp = m.strings.page(id);
      if (sp != 0) {
        to.put(sp, 1);
      }
    }
  }

  /** Recovery keeps this STRING page: an attached inode refers to it. */
  boolean isKept(long stringPage) {
    return attached.containsKey(stringPage);
  }

  /** A detached inode refers to this STRING page (recovery reclaims it with them unless kept). */
  boolean isDetachedRef(long stringPage) {
    return detached.containsKey(stringPage);
  }

  /** Kept STRING pages. */
  int keptCount() {
    return attached.size();
  }

  /** Follows the STRING_EXT chains of the kept strings. */
  void followKept(RegionModel m, ChainOwners owners) {
    for (int i = 0; i < m.census.liveStrings.size(); i++) {
      long sp = m.census.liveStrings.get(i);
      if (isKept(sp)) {
        owners.followString(m.image, sp);
      }
    }
  }

  /** Follows the STRING_EXT chains of strings only detached inodes refer to. */
  void followDetachedOnly(RegionModel m, ChainOwners owners) {
    for (int i = 0; i < m.census.liveStrings.size(); i++) {
      long sp = m.census.liveStrings.get(i);
      if (!isKept(sp) && isDetachedRef(sp)) {
        owners.followString(m.image, sp);
      }
    }
  }
}
