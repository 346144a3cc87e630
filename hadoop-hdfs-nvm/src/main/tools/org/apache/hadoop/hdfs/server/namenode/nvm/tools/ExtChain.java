package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;

import java.util.HashSet;
import java.util.Set;

/**
 * One extension chain (an inode's NAME_EXT, BLOCK_EXT or ATTR_EXT chain, a symlink's target chain
 * of NAME_EXT pages, a chained string's STRING_EXT chain, or a record's RECORD_EXT chain), walked
 * with the rules recovery applies (native/src/chains.c): every page a LIVE extension page of the
 * right kind, carrying the owner's id, holding 1..per-page units and no more than still needed,
 * reached once; the chain covers exactly the units its {@link ChainSpec} needs. The walk stops at
 * the first violation, which it keeps as {@link #problem()}; the pages before it are usable.
 */
final class ExtChain {
  /** Longest chained text or payload the tools read into memory (a Java array). */
  static final long READ_MAX = Integer.MAX_VALUE - 16;

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
    return walk(ChainSpec.of(inode, true), owners);
  }

  static ExtChain blocks(InodePage inode, ChainOwners owners) {
    return walk(ChainSpec.of(inode, false), owners);
  }

  /** The ATTR_EXT chain of an inode whose IN_ATTRS word is sound (empty if it is 0). */
  static ExtChain attrs(InodePage inode, ChainOwners owners) {
    return walk(ChainSpec.ofAttrs(inode), owners);
  }

  /**
   * The target chain of a symlink whose target length is 1..SYMLINK_TARGET_MAX. Its pages are
   * NAME_EXT pages with the symlink's id, as those of its name chain, so a page both chains link
   * carries the right owner in both: recovery walks the name chain first and refuses the target
   * chain's link to such a page ("reached twice"), and so does this walk, given {@code names}, the
   * symlink's name chain (may be null).
   */
  static ExtChain target(InodePage inode, ChainOwners owners, ExtChain names) {
    return walk(ChainSpec.ofTarget(inode), owners, names);
  }

  /** The STRING_EXT chain of a chained string ({@link ChainSpec#isChainedString}). */
  static ExtChain string(RegionImage image, long stringPage, ChainOwners owners) {
    return walk(ChainSpec.ofString(image, stringPage), owners);
  }

  /** The RECORD_EXT chain of the record on {@code recordPage} (empty if its payload is inline). */
  static ExtChain record(RegionImage image, long recordPage, ChainOwners owners) {
    return walk(ChainSpec.ofRecord(image, recordPage), owners);
  }

  /**
   * Copies the payloads of the chain's pages (the sound part) into {@code dest} from index {@code
   * at}, as far as {@code dest} reaches; returns the index after the last byte copied.
   */
  int copyPayloads(RegionImage image, byte[] dest, int at) {
    for (int i = 0; i < size() && at < dest.length; i++) {
      int n = (int) Math.min(count(i), dest.length - at);
      System.arraycopy(image.getBytes(page(i) + EXT_PAYLOAD, n), 0, dest, at, n);
      at += n;
    }
    return at;
  }

  /**
   * @param owners which owners link each extension page, to tell a shared page from a wrong owner;
   *     may be null
   */
  static ExtChain walk(ChainSpec s, ChainOwners owners) {
    return walk(s, owners, null);
  }

  /**
   * @param earlier a chain of the same owner and kind walked before this one, whose pages this one
   *     must not link again; may be null
   */
  private static ExtChain walk(ChainSpec s, ChainOwners owners, ExtChain earlier) {
    ExtChain c = new ExtChain();
    RegionImage image = s.image;
    long needed = s.needed;
    long link = s.firstLink;
    long off = s.firstPage;
    Set<Long> seen = needed != 0 ? new HashSet<Long>() : null; // most inodes need no extension page
    if (needed == 0 && off != 0) {
      return c.fail(
          s,
          Finding.Kind.CHAIN_LENGTH,
          link,
          "needs no "
              + PageState.kindName(s.kind)
              + " page ("
              + s.what
              + " length/count "
              + s.total
              + ") but links page "
              + off);
    }
    while (needed != 0) { // unsigned
      if (off == 0) {
        return c.fail(
            s,
            Finding.Kind.CHAIN_LENGTH,
            link,
            s.what
                + " chain ends after "
                + c.size()
                + " page(s) with "
                + Long.toUnsignedString(needed)
                + " "
                + s.unit
                + " still to cover");
      }
      if (image.pageIndex(off) < 0) {
        return c.fail(
            s,
            Finding.Kind.BROKEN_CHAIN,
            link,
            s.what + " chain links offset " + off + ", which is not a page of the data area");
      }
      long w = image.stateWord(off);
      if (!PageState.isLive(w, s.kind)) {
        return c.fail(
            s,
            Finding.Kind.BROKEN_CHAIN,
            link,
            s.what
                + " chain links page "
                + off
                + ", which is "
                + PageState.describe(w)
                + ", not a LIVE "
                + PageState.kindName(s.kind)
                + " page");
      }
      if (!seen.add(off)) {
        return c.fail(
            s,
            Finding.Kind.CYCLIC_CHAIN,
            link,
            s.what + " chain links page " + off + " a second time: the chain is cyclic");
      }
      long owner = image.getLong(off + EXT_OWNER_ID);
      if (owner != s.ownerId) {
        if (owners != null && owners.isShared(off)) {
          return c.fail(
              s,
              Finding.Kind.SHARED_CHAIN,
              link,
              s.what
                  + " chain links page "
                  + off
                  + ", which belongs to "
                  + s.ownerNamed(owner)
                  + " and is linked from another "
                  + s.ownerKind
                  + "'s chain too: shared");
        }
        return c.fail(
            s,
            Finding.Kind.BROKEN_CHAIN,
            off + EXT_OWNER_ID,
            s.what + " chain page " + off + " carries owner id " + owner + ", not " + s.ownerId);
      }
      long count = image.getLong(off + EXT_COUNT);
      long most = Long.compareUnsigned(needed, s.perPage) < 0 ? needed : s.perPage;
      if (count == 0 || Long.compareUnsigned(count, most) > 0) {
        return c.fail(
            s,
            Finding.Kind.CHAIN_LENGTH,
            off + EXT_COUNT,
            s.what
                + " chain page "
                + off
                + " says it holds "
                + Long.toUnsignedString(count)
                + " "
                + s.unit
                + "; expected 1.."
                + most);
      }
      if (earlier != null && earlier.pages.contains(off)) {
        return c.fail(
            s,
            Finding.Kind.SHARED_CHAIN,
            link,
            s.what
                + " chain links page "
                + off
                + ", which the same inode's name chain links too: shared");
      }
      c.pages.add(off);
      c.counts.add(count);
      needed -= count;
      link = off + EXT_NEXT;
      off = image.getLong(link);
    }
    if (off != 0) {
      return c.fail(
          s,
          Finding.Kind.CHAIN_LENGTH,
          link,
          s.what + " chain links page " + off + " after the last page the " + s.whole + " needs");
    }
    return c;
  }

  private ExtChain fail(ChainSpec s, Finding.Kind kind, long offset, String message) {
    problem = new Finding(kind, offset, s.owner + ": " + message);
    return this;
  }
}
