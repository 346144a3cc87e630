package org.apache.hadoop.hdfs.server.namenode.nvm;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;

/**
 * A transaction's extension chains (region-format.md §5.3, §5.6): the FRESH pages that carry the
 * bytes an inode's or a record's own page cannot hold — an inode's name, a symlink's target, an
 * inode's attribute encoding, a record's payload — and the release of a removed inode's chains and
 * string references. Every chain is written the same way: its pages are reserved first, then each
 * is staged FRESH naming the next, so a chain is whole before anything links to it.
 */
final class ExtChains {
  /** One chain page's image: the owner's id, the next page (0: the last), bytes [off, off+len). */
  private interface PageImage {
    byte[] of(long ownerId, long next, byte[] src, int off, int len);
  }

  private final MutationBatch batch;
  private final Reservation res;
  private final StringTable strings;

  ExtChains(MutationBatch batch, Reservation res, StringTable strings) {
    this.batch = batch;
    this.res = res;
    this.strings = strings;
  }

  /** The NAME_EXT chain of the name bytes past the inline part; its first page, 0 if none. */
  long name(long ownerId, byte[] name) throws NvmException {
    return stage(
        ownerId, name, NAME_INLINE_MAX, PageCodec.nameExtPages(name.length), PageCodec::nameExt);
  }

  /** The NAME_EXT chain of a symlink target past its inline part; its first page, 0 if none. */
  long symlinkTarget(long ownerId, byte[] target) throws NvmException {
    return stage(
        ownerId,
        target,
        SYMLINK_TARGET_INLINE_MAX,
        PageCodec.symlinkTargetExtPages(target.length),
        PageCodec::nameExt);
  }

  /**
   * The ATTR_EXT chain (LIVE, unreachable until the IN_ATTRS word names it) of the whole attribute
   * encoding; returns that word (0 for no attributes).
   */
  long attributes(long ownerId, byte[] attrs) throws NvmException {
    long first = stage(ownerId, attrs, 0, PageCodec.byteExtPages(attrs.length), PageCodec::attrExt);
    return first == 0 ? 0 : PageCodec.attrsWord(attrs.length, first);
  }

  /** The RECORD_EXT chain of a record's payload past its inline part; its first page, 0 if none. */
  long recordPayload(long recordId, byte[] payload) throws NvmException {
    return stage(
        recordId,
        payload,
        RECORD_INLINE_MAX,
        PageCodec.recordExtPages(payload.length),
        PageCodec::recordExt);
  }

  /** {@code n} pages of {@code bytes} from {@code start}, each NAME_EXT_MAX bytes but the last. */
  private long stage(long ownerId, byte[] bytes, int start, int n, PageImage image)
      throws NvmException {
    if (n == 0) {
      return 0;
    }
    long[] pages = new long[n];
    for (int i = 0; i < n; i++) {
      pages[i] = res.next();
    }
    for (int i = 0; i < n; i++) {
      int off = start + i * NAME_EXT_MAX;
      int len = Math.min(NAME_EXT_MAX, bytes.length - off);
      batch.fresh(
          pages[i], image.of(ownerId, i + 1 < n ? pages[i + 1] : 0, bytes, off, len), Field.PAGE);
    }
    return pages[0];
  }

  /**
   * What a removed inode held besides its page: its extension pages (name, attribute, target and
   * block chains) are FREEd, its string references dropped.
   */
  void release(InodeView v) {
    long perm = v.permWord();
    strings.unref(PageCodec.permOwner(perm));
    strings.unref(PageCodec.permGroup(perm));
    if (v.isFile()) {
      strings.unref(PageCodec.ucClient(v.ucWord()));
      strings.unref(PageCodec.ucMachine(v.ucWord()));
    }
    for (long p : v.nameExtPages()) {
      batch.free(p);
    }
    for (long p : v.attrExtPages()) {
      batch.free(p);
    }
    if (v.isSymlink()) {
      for (long p : v.symlinkTargetExtPages()) {
        batch.free(p);
      }
    }
    if (v.isFile()) {
      for (long p : v.blockExtPages()) {
        batch.free(p);
      }
    }
  }
}
