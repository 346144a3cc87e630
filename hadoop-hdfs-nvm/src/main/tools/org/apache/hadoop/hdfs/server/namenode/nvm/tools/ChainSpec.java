package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;

/**
 * What one extension chain must be (region-format.md §5.3): its owner (an inode for NAME_EXT,
 * BLOCK_EXT and ATTR_EXT, a symlink's target chain of NAME_EXT pages too, a string for STRING_EXT,
 * a record for RECORD_EXT) and the owner's id every page carries, the page kind, the units one page
 * holds, the units the chain must cover, the word that links its first page and the first page it
 * names. {@link ExtChain} judges a chain against it, {@link ChainOwners} follows one without
 * judging.
 */
final class ChainSpec {
  final RegionImage image;

  /**
   * "inode 16390 (page 17152)", "string id 7 (STRING page 18176)" or "record id 3 (RECORD page
   * 18432)", for messages.
   */
  final String owner;

  /** "inode", "string" or "record": what owns the chain. */
  final String ownerKind;

  final long ownerId;
  final int kind;
  final long perPage;

  /** "name", "block", "attribute", "target", "string" or "record": the chain in messages. */
  final String what;

  /** "name bytes", "block records", "attribute bytes", "string bytes" or "payload bytes". */
  final String unit;

  /** What the chain covers, for "after the last page the ... needs": "name", "block list", … */
  final String whole;

  /** The owner's length or count as stored (u64). */
  final long total;

  /**
   * Units the chain must cover (u64): past the inline part (a name, blocks, a record's payload), or
   * a chained string's length.
   */
  final long needed;

  /**
   * The owner's link to the first page: IN_NAME_EXT, FI_BLOCK_EXT, IN_ATTRS, SL_TARGET_EXT, ST_EXT
   * or RC_EXT.
   */
  final long firstLink;

  /**
   * The offset of the first page the link names (0 = none): the link word itself, except for
   * IN_ATTRS, which holds a page index and the length (region-format.md §5.6).
   */
  final long firstPage;

  private ChainSpec(
      RegionImage image,
      String ownerKind,
      String owner,
      long ownerId,
      int kind,
      long perPage,
      String[] words,
      long total,
      long needed,
      long firstLink,
      long firstPage) {
    this.image = image;
    this.ownerKind = ownerKind;
    this.owner = owner;
    this.ownerId = ownerId;
    this.kind = kind;
    this.perPage = perPage;
    this.what = words[0];
    this.unit = words[1];
    this.whole = words[2];
    this.total = total;
    this.needed = needed;
    this.firstLink = firstLink;
    this.firstPage = firstPage;
  }

  /** The NAME_EXT ({@code names}) or BLOCK_EXT chain of an inode. */
  static ChainSpec of(InodePage inode, boolean names) {
    long total = names ? inode.nameLength() : inode.blockCount();
    long inline = names ? NAME_INLINE_MAX : BLOCKS_INLINE_MAX;
    return new ChainSpec(
        inode.image,
        "inode",
        "inode " + inode.id() + " (page " + inode.page + ")",
        inode.id(),
        names ? KIND_NAME_EXT : KIND_BLOCK_EXT,
        names ? NAME_EXT_MAX : BLOCKS_EXT_MAX,
        names
            ? new String[] {"name", "name bytes", "name"}
            : new String[] {"block", "block records", "block list"},
        total,
        // unsigned, as recovery reads the u64 length and count: a count with the top bit set needs
        // more records than any chain holds, it is not negative
        Long.compareUnsigned(total, inline) > 0 ? total - inline : 0,
        inode.page + (names ? IN_NAME_EXT : FI_BLOCK_EXT),
        inode.word(names ? IN_NAME_EXT : FI_BLOCK_EXT));
  }

  /**
   * The ATTR_EXT chain of an inode: every byte of its attribute encoding, from the page its
   * IN_ATTRS word names (none if the length is 0). Only meaningful if the word itself is sound
   * ({@link AttributeCheck#wordProblem}).
   */
  static ChainSpec ofAttrs(InodePage inode) {
    long len = inode.attrsLength();
    return new ChainSpec(
        inode.image,
        "inode",
        "inode " + inode.id() + " (page " + inode.page + ")",
        inode.id(),
        KIND_ATTR_EXT,
        NAME_EXT_MAX,
        new String[] {"attribute", "attribute bytes", "attributes"},
        len,
        len,
        inode.page + IN_ATTRS,
        len == 0 ? 0 : inode.attrsFirstPage());
  }

  /**
   * The target chain of a symlink (region-format.md §5.2): NAME_EXT pages owned by the symlink's id
   * holding the target's bytes past SYMLINK_TARGET_INLINE_MAX (SL_TARGET_LEN is a u64, compared
   * unsigned as recovery does). Only meaningful if the length is 1..SYMLINK_TARGET_MAX: recovery
   * refuses another before it walks the chain ({@link SymlinkCheck}).
   */
  static ChainSpec ofTarget(InodePage inode) {
    long len = inode.targetLength();
    return new ChainSpec(
        inode.image,
        "inode",
        "inode " + inode.id() + " (page " + inode.page + ")",
        inode.id(),
        KIND_NAME_EXT,
        NAME_EXT_MAX,
        new String[] {"target", "target bytes", "target"},
        len,
        Long.compareUnsigned(len, SYMLINK_TARGET_INLINE_MAX) > 0
            ? len - SYMLINK_TARGET_INLINE_MAX
            : 0,
        inode.page + SL_TARGET_EXT,
        inode.word(SL_TARGET_EXT));
  }

  /**
   * Whether the string on STRING page {@code page} is chained: its length (u64, compared unsigned
   * as recovery does) is over STRING_MAX, so ST_EXT links a STRING_EXT chain holding all its bytes.
   */
  static boolean isChainedString(RegionImage image, long page) {
    return Long.compareUnsigned(image.getLong(page + ST_LEN), STRING_MAX) > 0;
  }

  /**
   * The STRING_EXT chain of the string on STRING page {@code page}; only meaningful if {@link
   * #isChainedString} (an inline string has no link: ST_EXT overlays its bytes).
   */
  static ChainSpec ofString(RegionImage image, long page) {
    long id = image.getLong(page + ST_ID);
    long len = image.getLong(page + ST_LEN);
    return new ChainSpec(
        image,
        "string",
        "string id " + id + " (STRING page " + page + ")",
        id,
        KIND_STRING_EXT,
        NAME_EXT_MAX,
        new String[] {"string", "string bytes", "string"},
        len,
        len,
        page + ST_EXT,
        image.getLong(page + ST_EXT));
  }

  /**
   * The RECORD_EXT chain of the record on RECORD page {@code page}: the payload past
   * RECORD_INLINE_MAX (RC_LEN is a u64, compared unsigned as recovery does).
   */
  static ChainSpec ofRecord(RegionImage image, long page) {
    long id = image.getLong(page + RC_ID);
    long len = image.getLong(page + RC_LEN);
    return new ChainSpec(
        image,
        "record",
        "record id " + id + " (RECORD page " + page + ")",
        id,
        KIND_RECORD_EXT,
        NAME_EXT_MAX,
        new String[] {"record", "payload bytes", "payload"},
        len,
        Long.compareUnsigned(len, RECORD_INLINE_MAX) > 0 ? len - RECORD_INLINE_MAX : 0,
        page + RC_EXT,
        image.getLong(page + RC_EXT));
  }

  /** "inode 16390", "string id 7" or "record id 3": the owner an extension page names. */
  String ownerNamed(long id) {
    return (ownerKind.equals("inode") ? "inode " : ownerKind + " id ") + id;
  }
}
