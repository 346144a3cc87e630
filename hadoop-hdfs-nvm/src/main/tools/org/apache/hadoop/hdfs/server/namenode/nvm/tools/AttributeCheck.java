package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;

import java.util.List;

/**
 * The attributes of attached inodes (region-format.md §5.6): the IN_ATTRS word, which recovery
 * refuses if it is set in a region without the inode-attributes feature, holds a length over
 * ATTRS_MAX or names a page with a length of 0 ({@link Finding.Kind#BAD_ATTRS_WORD}); and the
 * encoding its ATTR_EXT chain holds, which recovery does not read but the NameNode decodes when it
 * materializes the inode and refuses if it is malformed ({@link
 * Finding.Kind#BAD_ATTRIBUTE_ENCODING}; a symlink's encoding is not decoded: the NameNode refuses
 * any, {@link SymlinkCheck}). The chain itself is {@link ChainCheck}'s.
 */
final class AttributeCheck {
  private AttributeCheck() {}

  /**
   * Why recovery refuses the IN_ATTRS word {@code w} (native/src/chains.c, attr_chain), or null if
   * it does not (0, or a length in 1..ATTRS_MAX in a region with the feature).
   */
  static String wordProblem(RegionImage image, long w) {
    long len = w & 0xffffffffL;
    if (w == 0) {
      return null;
    }
    if (!image.hasInodeAttrs()) {
      return "is set in a region without the inode-attributes feature";
    }
    if (len > ATTRS_MAX) {
      return "holds a length of " + len + " bytes, over ATTRS_MAX (" + ATTRS_MAX + ")";
    }
    return len == 0 ? "names page index " + (w >>> ATTRS_PAGE_SHIFT) + " but a length of 0" : null;
  }

  static void run(RegionModel m, List<Finding> out) {
    for (long page : m.tree.order) {
      InodePage inode = m.inode(page);
      long w = inode.attrsWord();
      if (w == 0) {
        continue;
      }
      String why = wordProblem(m.image, w);
      if (why != null) {
        out.add(
            new Finding(
                Finding.Kind.BAD_ATTRS_WORD,
                page + IN_ATTRS,
                Paths.describe(m, page)
                    + ": its attribute word "
                    + PageState.hex(w)
                    + " "
                    + why
                    + "; recovery refuses the region"));
        continue;
      }
      if (inode.isSymlink()) {
        continue; // SymlinkCheck: the NameNode refuses any attributes on a symlink
      }
      ExtChain chain = ExtChain.attrs(inode, null);
      byte[] encoding = inode.attrBytes(chain);
      if (encoding == null) {
        continue; // a broken chain: ChainCheck reports it
      }
      try {
        AttributeEncoding.decode(encoding);
      } catch (AttributeEncoding.MalformedException e) {
        out.add(
            new Finding(
                Finding.Kind.BAD_ATTRIBUTE_ENCODING,
                offsetOf(chain, e.at, encoding.length),
                Paths.describe(m, page)
                    + ": its attribute encoding of "
                    + encoding.length
                    + " bytes is malformed: "
                    + e.getMessage()
                    + "; recovery accepts it, but the NameNode cannot materialize the inode"));
      }
    }
  }

  /**
   * The file offset of byte {@code at} of an encoding of {@code len} bytes held by {@code chain}
   * (its last byte if decoding ran out at the end).
   */
  private static long offsetOf(ExtChain chain, int at, int len) {
    long i = Math.min(at, len - 1);
    for (int p = 0; p < chain.size(); p++) {
      if (i < chain.count(p)) {
        return chain.page(p) + EXT_PAYLOAD + i;
      }
      i -= chain.count(p);
    }
    throw new IllegalStateException("byte " + at + " is not in a chain of " + len + " bytes");
  }
}
