package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;

import java.io.File;
import java.io.IOException;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionDamage;

/**
 * Damage to the STRING_EXT chain of a referenced string, one constant per way recovery
 * (native/src/chains.c, walk_chain) refuses a chain. Every case starts from {@link #setUp}: the
 * sample region with {@link ChainedString#TEXT} as the owner of /tmp. {@link #damage} returns the
 * offset of the ERROR the checker must report; {@link #nativeOffsetAgrees} says whether the native
 * open refuses at that same offset (where it does not, the checker reports the chain the way it
 * reports a NAME_EXT or BLOCK_EXT chain, see docs/offline-tools.md).
 */
enum StringChainDamage {
  /** ST_EXT = 0: the chain ends before the first page. */
  FIRST_LINK_ZERO(Finding.Kind.CHAIN_LENGTH, true, (n, s) -> put(s.file, s.page + ST_EXT, 0)),

  /** ST_EXT inside a page, not the first byte of one. */
  FIRST_LINK_NOT_A_PAGE(
      Finding.Kind.BROKEN_CHAIN, true, (n, s) -> put(s.file, s.page + ST_EXT, s.ext[0] + 8)),

  /** ST_EXT past the end of the region. */
  FIRST_LINK_OUTSIDE_THE_REGION(
      Finding.Kind.BROKEN_CHAIN,
      true,
      (n, s) -> put(s.file, s.page + ST_EXT, s.file.length() + 4 * PAGE_SIZE)),

  /** ST_EXT links a LIVE NAME_EXT page (of /user/alice's long-named file). */
  LINK_TO_A_NAME_EXT_PAGE(
      Finding.Kind.BROKEN_CHAIN,
      true,
      (n, s) -> put(s.file, s.page + ST_EXT, n.longNameExtPages[0])),

  /** The second page is INVALID: reported at the link to it. */
  PAGE_INVALIDATED(
      Finding.Kind.BROKEN_CHAIN,
      true,
      (n, s) -> {
        RegionDamage.putLong(s.file, s.ext[1], stateWord(KIND_STRING_EXT, STATE_INVALID));
        return s.ext[0] + EXT_NEXT;
      }),

  /** The second page carries another string's id. */
  WRONG_OWNER(
      Finding.Kind.BROKEN_CHAIN,
      true,
      (n, s) -> {
        RegionDamage.putLong(s.file, s.ext[1] + EXT_OWNER_ID, s.id + 1);
        return s.ext[1] + EXT_OWNER_ID;
      }),

  ZERO_COUNT(Finding.Kind.CHAIN_LENGTH, true, (n, s) -> count(s, 0, 0)),

  COUNT_OVER_A_PAGE(Finding.Kind.CHAIN_LENGTH, true, (n, s) -> count(s, 0, NAME_EXT_MAX + 1)),

  /** ST_LEN 10 bytes shorter: the last page holds more than is still needed. */
  COUNT_OVER_WHAT_IS_LEFT(
      Finding.Kind.CHAIN_LENGTH,
      true,
      (n, s) -> {
        RegionDamage.putLong(s.file, s.page + ST_LEN, s.bytes.length - 10);
        return s.ext[2] + EXT_COUNT;
      }),

  ENDS_EARLY(Finding.Kind.CHAIN_LENGTH, true, (n, s) -> put(s.file, s.ext[1] + EXT_NEXT, 0)),

  /** ST_LEN covered by two pages; the second still links the third. */
  LINKS_PAST_THE_END(
      Finding.Kind.CHAIN_LENGTH,
      true,
      (n, s) -> {
        RegionDamage.putLong(s.file, s.page + ST_LEN, 2 * NAME_EXT_MAX);
        return s.ext[1] + EXT_NEXT;
      }),

  /** ST_LEN is a u64: with the top bit set it needs far more than the chain holds. */
  LENGTH_WITH_THE_TOP_BIT_SET(
      Finding.Kind.CHAIN_LENGTH,
      true,
      (n, s) -> {
        RegionDamage.putLong(s.file, s.page + ST_LEN, Long.MIN_VALUE | s.bytes.length);
        return s.ext[2] + EXT_NEXT;
      }),

  /**
   * A string of three full pages as the group of /tmp, its second page linking the first again: the
   * first page's count is still within what is needed, so both readers stop at the repeat.
   */
  CYCLIC(
      Finding.Kind.CYCLIC_CHAIN,
      true,
      (n, s) -> {
        ChainedString full = second(n, ChainedString.FULL_TEXT);
        return put(full.file, full.ext[1] + EXT_NEXT, full.ext[0]);
      }),

  /**
   * A cycle whose repeated page holds more than is still needed: recovery stops at that page's
   * EXT_COUNT, the checker at the link that closes the cycle (as for a NAME_EXT or BLOCK_EXT
   * chain).
   */
  CYCLIC_OVER_WHAT_IS_LEFT(
      Finding.Kind.CYCLIC_CHAIN, false, (n, s) -> put(s.file, s.ext[1] + EXT_NEXT, s.ext[0])),

  /**
   * A second string (the group of /tmp) links the first page of /tmp's owner: the checker reports a
   * shared page at the second string's link, recovery the page's owner id (as for inode chains).
   */
  SHARED(
      Finding.Kind.SHARED_CHAIN,
      false,
      (n, s) -> {
        ChainedString other = second(n, ChainedString.TEXT.replace('z', 'y'));
        return put(other.file, other.page + ST_EXT, s.ext[0]);
      }),

  /**
   * A second LIVE page with the owner's id and text below it: references resolve to the lower page,
   * so its chain is the one verified (and the upper page is a leftover).
   */
  LOWER_DUPLICATE_WITH_A_BROKEN_CHAIN(
      Finding.Kind.BROKEN_CHAIN,
      true,
      (n, s) -> {
        ChainedString lower =
            ChainedString.write(s.file, s.id, ChainedString.TEXT, StringChainDamage.LOWER_INDEX);
        RegionDamage.putLong(s.file, lower.ext[1] + EXT_OWNER_ID, s.id + 7);
        return lower.ext[1] + EXT_OWNER_ID;
      });

  /** Page index of the owner's STRING page (the sample's pages are all below 200). */
  static final int INDEX = 300;

  /** Page index of a second chained string. */
  static final int SECOND_INDEX = 320;

  /** Page index of a second page for the owner's id, below the first. */
  static final int LOWER_INDEX = 250;

  interface Damage {
    /** Damages the region; returns the offset of the ERROR. */
    long apply(SampleNamespace n, ChainedString s) throws IOException;
  }

  final Finding.Kind kind;
  final boolean nativeOffsetAgrees;
  private final Damage damage;

  StringChainDamage(Finding.Kind kind, boolean nativeOffsetAgrees, Damage damage) {
    this.kind = kind;
    this.nativeOffsetAgrees = nativeOffsetAgrees;
    this.damage = damage;
  }

  /**
   * {@link ChainedString#TEXT} as string id SB_LAST_STRING_ID + 1 at {@link #INDEX}, the owner of
   * /tmp.
   */
  static ChainedString setUp(SampleNamespace n) throws IOException {
    ChainedString s =
        ChainedString.write(n.file, ChainedString.nextId(n.file), ChainedString.TEXT, INDEX);
    s.referAsOwner(n.tmp);
    return s;
  }

  long damage(SampleNamespace n, ChainedString s) throws IOException {
    return damage.apply(n, s);
  }

  /** Writes {@code v} at {@code off}; returns {@code off}. */
  private static long put(File f, long off, long v) throws IOException {
    RegionDamage.putLong(f, off, v);
    return off;
  }

  private static long count(ChainedString s, int page, long count) throws IOException {
    return put(s.file, s.ext[page] + EXT_COUNT, count);
  }

  /** {@code text} as a new string at {@link #SECOND_INDEX}, the group of /tmp. */
  private static ChainedString second(SampleNamespace n, String text) throws IOException {
    ChainedString c = ChainedString.write(n.file, ChainedString.nextId(n.file), text, SECOND_INDEX);
    c.referAsGroup(n.tmp);
    return c;
  }
}
