package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;

import java.util.HashSet;
import java.util.Set;

/**
 * The NAME_EXT or BLOCK_EXT chain of one inode, walked with the rules recovery applies
 * (native/src/chains.c): every page a LIVE extension page of the right kind, carrying the owner's
 * id, holding 1..per-page units and no more than still needed, reached once; the chain covers
 * exactly the units past the inline part. The walk stops at the first violation, which it keeps as
 * {@link #problem()}; the pages before it are usable.
 */
final class ExtChain {
  private final LongList pages = new LongList();
  private final LongList counts = new LongList();
  private Finding problem;

  int size() {
    return pages.size();
  }

  long page(int i) {
    return pages.get(i);
  }

  long count(int i) {
    return counts.get(i);
  }

  /** The first violation, or null if the chain is sound. */
  Finding problem() {
    return problem;
  }

  static ExtChain names(InodePage inode, ChainOwners owners) {
    return walk(inode, true, owners);
  }

  static ExtChain blocks(InodePage inode, ChainOwners owners) {
    return walk(inode, false, owners);
  }

  /**
   * Units past the inline part: name bytes past 48, or block records past 4. Unsigned, as recovery
   * reads the u64 length and count: a count with the top bit set needs more records than any chain
   * holds, it is not negative.
   */
  static long needed(InodePage inode, boolean names) {
    long total = names ? inode.nameLength() : inode.blockCount();
    long inline = names ? NAME_INLINE_MAX : BLOCKS_INLINE_MAX;
    return Long.compareUnsigned(total, inline) > 0 ? total - inline : 0;
  }

  static long firstLink(InodePage inode, boolean names) {
    return inode.page + (names ? IN_NAME_EXT : FI_BLOCK_EXT);
  }

  /**
   * @param owners which inodes link each extension page, to tell a shared page from a wrong owner;
   *     may be null
   */
  private static ExtChain walk(InodePage inode, boolean names, ChainOwners owners) {
    ExtChain c = new ExtChain();
    RegionImage image = inode.image;
    int kind = names ? KIND_NAME_EXT : KIND_BLOCK_EXT;
    long perPage = names ? NAME_EXT_MAX : BLOCKS_EXT_MAX;
    String what = names ? "name" : "block";
    String unit = names ? "name bytes" : "block records";
    long needed = needed(inode, names);
    long link = firstLink(inode, names);
    long off = image.getLong(link);
    Set<Long> seen = needed != 0 ? new HashSet<Long>() : null; // most inodes need no extension page
    if (needed == 0 && off != 0) {
      return c.fail(
          inode,
          Finding.Kind.CHAIN_LENGTH,
          link,
          "needs no "
              + PageState.kindName(kind)
              + " page ("
              + what
              + " length/count "
              + (names ? inode.nameLength() : inode.blockCount())
              + ") but links page "
              + off);
    }
    while (needed != 0) { // unsigned
      if (off == 0) {
        return c.fail(
            inode,
            Finding.Kind.CHAIN_LENGTH,
            link,
            what
                + " chain ends after "
                + c.size()
                + " page(s) with "
                + Long.toUnsignedString(needed)
                + " "
                + unit
                + " still to cover");
      }
      if (image.pageIndex(off) < 0) {
        return c.fail(
            inode,
            Finding.Kind.BROKEN_CHAIN,
            link,
            what + " chain links offset " + off + ", which is not a page of the data area");
      }
      long w = image.stateWord(off);
      if (w != stateWord(kind, STATE_LIVE)) {
        return c.fail(
            inode,
            Finding.Kind.BROKEN_CHAIN,
            link,
            what
                + " chain links page "
                + off
                + ", which is "
                + PageState.describe(w)
                + ", not a LIVE "
                + PageState.kindName(kind)
                + " page");
      }
      if (!seen.add(off)) {
        return c.fail(
            inode,
            Finding.Kind.CYCLIC_CHAIN,
            link,
            what + " chain links page " + off + " a second time: the chain is cyclic");
      }
      long owner = image.getLong(off + EXT_OWNER_ID);
      if (owner != inode.id()) {
        if (owners != null && owners.isShared(off)) {
          return c.fail(
              inode,
              Finding.Kind.SHARED_CHAIN,
              link,
              what
                  + " chain links page "
                  + off
                  + ", which belongs to inode "
                  + owner
                  + " and is linked from another inode's chain too: shared");
        }
        return c.fail(
            inode,
            Finding.Kind.BROKEN_CHAIN,
            off + EXT_OWNER_ID,
            what + " chain page " + off + " carries owner id " + owner + ", not " + inode.id());
      }
      long count = image.getLong(off + EXT_COUNT);
      long most = Long.compareUnsigned(needed, perPage) < 0 ? needed : perPage;
      if (count == 0 || Long.compareUnsigned(count, most) > 0) {
        return c.fail(
            inode,
            Finding.Kind.CHAIN_LENGTH,
            off + EXT_COUNT,
            what
                + " chain page "
                + off
                + " says it holds "
                + Long.toUnsignedString(count)
                + " "
                + unit
                + "; expected 1.."
                + most);
      }
      c.pages.add(off);
      c.counts.add(count);
      needed -= count;
      link = off + EXT_NEXT;
      off = image.getLong(link);
    }
    if (off != 0) {
      return c.fail(
          inode,
          Finding.Kind.CHAIN_LENGTH,
          link,
          what
              + " chain links page "
              + off
              + " after the last page the "
              + (names ? "name" : "block list")
              + " needs");
    }
    return c;
  }

  private ExtChain fail(InodePage inode, Finding.Kind kind, long offset, String message) {
    problem =
        new Finding(kind, offset, "inode " + inode.id() + " (page " + inode.page + "): " + message);
    return this;
  }
}
