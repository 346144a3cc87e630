package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;

import java.util.List;

/**
 * The NAME_EXT, BLOCK_EXT and ATTR_EXT chains of attached inodes (and the target chains of
 * symlinks, NAME_EXT pages too), the STRING_EXT chains of the strings they refer to and the
 * RECORD_EXT chains of the records (every LIVE record is kept) ({@link ExtChain}; any violation
 * makes recovery refuse the region), and LIVE extension pages no kept owner links: crash leftovers
 * of a batch that wrote them out of place but never linked them, or the chain of a string no inode
 * refers to any more or of a removed record; recovery reclaims them. Pages of detached inodes and
 * of the strings only they refer to are not reported again: the finding about the detached inode
 * covers them.
 */
final class ChainCheck {
  private ChainCheck() {}

  static void run(RegionModel m, List<Finding> out) {
    StringRefs refs = m.stringRefs();
    ChainOwners owners = new ChainOwners();
    for (long page : m.tree.order) {
      InodePage inode = m.inode(page);
      owners.follow(inode, true);
      owners.followAttrs(inode);
      owners.followTarget(inode);
      if (inode.isFile()) {
        owners.follow(inode, false);
      }
    }
    refs.followKept(m, owners);
    LongList records = m.census.liveRecords;
    owners.followRecords(m.image, records);
    // a page a kept chain reaches must be sealed right (an unreachable one is reclaimed: below)
    for (int i = 0; i < m.census.liveExts.size(); i++) {
      long page = m.census.liveExts.get(i);
      Finding f = owners.isLinked(page) ? SealCheck.checksum(m, page) : null;
      if (f != null) {
        out.add(f);
      }
    }
    for (long page : m.tree.order) {
      InodePage inode = m.inode(page);
      ExtChain names = null;
      if (inode.nameLength() >= 0
          && inode.nameLength() <= NAME_MAX) { // else NameCheck reports the length
        names = ExtChain.names(inode, owners);
        report(names, out);
      }
      if (AttributeCheck.wordProblem(m.image, inode.attrsWord()) == null) { // else AttributeCheck
        report(ExtChain.attrs(inode, owners), out);
      }
      if (inode.isSymlink() && inode.targetLengthValid()) { // else SymlinkCheck
        report(ExtChain.target(inode, owners, names), out);
      }
      if (inode.isFile()) {
        report(ExtChain.blocks(inode, owners), out);
      }
    }
    for (int i = 0; i < m.census.liveStrings.size(); i++) {
      long sp = m.census.liveStrings.get(i);
      if (refs.isKept(sp) && ChainSpec.isChainedString(m.image, sp)) {
        report(ExtChain.string(m.image, sp, owners), out);
      }
    }
    for (int i = 0; i < records.size(); i++) {
      report(ExtChain.record(m.image, records.get(i), owners), out);
    }
    ChainOwners detached = new ChainOwners();
    for (int i = 0; i < m.census.liveInodes.size(); i++) {
      long page = m.census.liveInodes.get(i);
      if (!m.tree.isAttached(m.image, page)) {
        detached.follow(m.inode(page), true);
        detached.followAttrs(m.inode(page));
        detached.followTarget(m.inode(page));
        if (m.inode(page).isFile()) {
          detached.follow(m.inode(page), false);
        }
      }
    }
    refs.followDetachedOnly(m, detached);
    for (int i = 0; i < m.census.liveExts.size(); i++) {
      long page = m.census.liveExts.get(i);
      if (!owners.isLinked(page) && !detached.isLinked(page)) {
        int kind = kindOf(m.image.stateWord(page));
        out.add(
            new Finding(
                Finding.Kind.UNREFERENCED_EXTENSION,
                page,
                "LIVE "
                    + PageState.kindName(kind)
                    + " page "
                    + page
                    + " ("
                    + ownerIdOf(kind)
                    + " "
                    + m.image.getLong(page + EXT_OWNER_ID)
                    + ") is linked from no "
                    + keptOwnerOf(kind)
                    + "; recovery reclaims it"));
      }
    }
  }

  /** What the owner id of an extension page of {@code kind} is, for messages. */
  private static String ownerIdOf(int kind) {
    switch (kind) {
      case KIND_STRING_EXT:
        return "string id";
      case KIND_RECORD_EXT:
        return "record id";
      default:
        return "owner id";
    }
  }

  /** The owners recovery keeps that could link an extension page of {@code kind}. */
  private static String keptOwnerOf(int kind) {
    switch (kind) {
      case KIND_STRING_EXT:
        return "string an inode refers to";
      case KIND_RECORD_EXT:
        return "LIVE record";
      default:
        return "inode";
    }
  }

  private static void report(ExtChain chain, List<Finding> out) {
    Finding f = chain.problem();
    if (f != null) {
      out.add(new Finding(f.kind(), f.offset(), f.message() + "; recovery refuses the region"));
    }
  }
}
