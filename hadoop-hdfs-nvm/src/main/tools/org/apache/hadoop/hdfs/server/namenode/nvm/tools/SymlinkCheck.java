package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;

import java.util.List;

/**
 * Attached symlinks (region-format.md §5.2): a target length of 1..SYMLINK_TARGET_MAX, which
 * recovery refuses otherwise before it walks the target chain (native/src/chains.c, target_chain;
 * {@link Finding.Kind#BAD_SYMLINK_TARGET}); and no attributes: 2.7.3 gives a symlink no ACL and no
 * xattrs, the writer leaves its IN_ATTRS 0, and the NameNode refuses to materialize a symlink whose
 * word is not ({@link Finding.Kind#SYMLINK_ATTRIBUTES}; a word recovery refuses is {@link
 * AttributeCheck}'s). The target chain itself is {@link ChainCheck}'s; a child naming a symlink as
 * its parent, {@link ParentLinkCheck}'s.
 */
final class SymlinkCheck {
  private SymlinkCheck() {}

  static void run(RegionModel m, List<Finding> out) {
    for (long page : m.tree.order) {
      InodePage inode = m.inode(page);
      if (!inode.isSymlink()) {
        continue;
      }
      if (!inode.targetLengthValid()) {
        out.add(
            new Finding(
                Finding.Kind.BAD_SYMLINK_TARGET,
                page + SL_TARGET_LEN,
                Paths.describe(m, page)
                    + ": symlink target length "
                    + Long.toUnsignedString(inode.targetLength())
                    + " is not 1.."
                    + SYMLINK_TARGET_MAX
                    + "; recovery refuses the region"));
      }
      long w = inode.attrsWord();
      if (w != 0 && AttributeCheck.wordProblem(m.image, w) == null) {
        out.add(
            new Finding(
                Finding.Kind.SYMLINK_ATTRIBUTES,
                page + IN_ATTRS,
                Paths.describe(m, page)
                    + ": a symlink with the attribute word "
                    + PageState.hex(w)
                    + " ("
                    + inode.attrsLength()
                    + " bytes); symlinks have no ACL and no xattrs (the writer leaves the word 0):"
                    + " recovery accepts it, but the NameNode refuses to start"));
      }
    }
  }
}
