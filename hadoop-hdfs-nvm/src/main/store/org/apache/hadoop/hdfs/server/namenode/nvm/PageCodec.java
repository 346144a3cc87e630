package org.apache.hadoop.hdfs.server.namenode.nvm;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Encodes page images and packed words. Page images are written FRESH; the state word they carry
 * matters for crash safety:
 *
 * <ul>
 *   <li>inode and string pages are written PENDING and made LIVE by an INPLACE store in the same
 *       batch, because recovery attaches a LIVE inode to its parent by the parent pointer alone — a
 *       LIVE image written before the commit would survive a crash;
 *   <li>extension pages are written LIVE: they are reached only through the owner's link, which the
 *       commit sets, so an unlinked one is reclaimed by recovery.
 * </ul>
 *
 * The decoders of the packed words (permission, file header, under-construction) are public: the
 * offline tools read the words with them too.
 */
public final class PageCodec {
  private PageCodec() {}

  private static ByteBuffer page() {
    return ByteBuffer.allocate(PAGE_SIZE).order(ByteOrder.LITTLE_ENDIAN);
  }

  static long perm(int mode, long groupId, long ownerId) {
    return (mode & 0xffffL) | (groupId << PERM_GROUP_SHIFT) | (ownerId << PERM_OWNER_SHIFT);
  }

  /** The mode bits (0–15) of an IN_PERM word. */
  public static int permMode(long perm) {
    return (int) (perm & 0xffff);
  }

  /** The group string id (bits 16–39) of an IN_PERM word. */
  public static long permGroup(long perm) {
    return (perm >>> PERM_GROUP_SHIFT) & PERM_STRING_ID_MAX;
  }

  /** The owner string id (bits 40–63) of an IN_PERM word. */
  public static long permOwner(long perm) {
    return (perm >>> PERM_OWNER_SHIFT) & PERM_STRING_ID_MAX;
  }

  static final long BLOCK_SIZE_MAX = (1L << FI_HDR_REPLICATION_SHIFT) - 1;
  static final int REPLICATION_MAX = (1 << (FI_HDR_POLICY_SHIFT - FI_HDR_REPLICATION_SHIFT)) - 1;
  static final int POLICY_MAX = (1 << (64 - FI_HDR_POLICY_SHIFT)) - 1;

  static long fileHeader(long blockSize, int replication, int policy) {
    return blockSize
        | ((long) replication << FI_HDR_REPLICATION_SHIFT)
        | ((long) policy << FI_HDR_POLICY_SHIFT);
  }

  /** The preferred block size (bits 0–47) of an FI_HEADER word. */
  public static long headerBlockSize(long h) {
    return h & BLOCK_SIZE_MAX;
  }

  /** The replication (bits 48–59) of an FI_HEADER word. */
  public static int headerReplication(long h) {
    return (int) ((h >>> FI_HDR_REPLICATION_SHIFT) & REPLICATION_MAX);
  }

  /** The storage policy (bits 60–63) of an FI_HEADER word. */
  public static int headerPolicy(long h) {
    return (int) ((h >>> FI_HDR_POLICY_SHIFT) & POLICY_MAX);
  }

  static long uc(long clientId, long machineId, boolean lastBlockComplete) {
    return (clientId & ((1L << FI_UC_LAST_COMPLETE_SHIFT) - 1))
        | (lastBlockComplete ? 1L << FI_UC_LAST_COMPLETE_SHIFT : 0)
        | (machineId << FI_UC_MACHINE_SHIFT);
  }

  /**
   * The client-name string id (bits 0–30) of an FI_UC word (the whole word is 0 for a complete
   * file).
   */
  public static long ucClient(long uc) {
    return uc & ((1L << FI_UC_LAST_COMPLETE_SHIFT) - 1);
  }

  /**
   * Whether the last block of the file under construction is complete (FI_UC bit 31): after an
   * append with NEW_BLOCK, an append to a full last block, or an abandonBlock that left a complete
   * block last. 0 (the usual case): the last block is under construction.
   */
  public static boolean ucLastBlockComplete(long uc) {
    return ((uc >>> FI_UC_LAST_COMPLETE_SHIFT) & 1) != 0;
  }

  /** The client-machine string id (bits 32–63) of an FI_UC word. */
  public static long ucMachine(long uc) {
    return uc >>> FI_UC_MACHINE_SHIFT;
  }

  /** NAME_EXT pages a symlink target of {@code len} bytes needs past its inline part. */
  static int symlinkTargetExtPages(int len) {
    return len <= SYMLINK_TARGET_INLINE_MAX
        ? 0
        : (len - SYMLINK_TARGET_INLINE_MAX + NAME_EXT_MAX - 1) / NAME_EXT_MAX;
  }

  /** Number of NAME_EXT pages a name of {@code len} bytes needs. */
  static int nameExtPages(int len) {
    return len <= NAME_INLINE_MAX ? 0 : (len - NAME_INLINE_MAX + NAME_EXT_MAX - 1) / NAME_EXT_MAX;
  }

  /**
   * The name area of an inode page, IN_NAME_LEN .. IN_NAME_INLINE+NAME_INLINE_MAX: length, first
   * extension page, inline bytes (zero padded). Contiguous, so a rename rewrites it with one
   * INPLACE entry.
   */
  static byte[] nameArea(byte[] name, long firstExt) {
    ByteBuffer b =
        ByteBuffer.allocate(IN_NAME_INLINE + NAME_INLINE_MAX - IN_NAME_LEN)
            .order(ByteOrder.LITTLE_ENDIAN);
    b.putLong(name.length).putLong(firstExt).put(name, 0, Math.min(name.length, NAME_INLINE_MAX));
    return b.array();
  }

  /**
   * A fresh inode page image in state PENDING, encoded in place into {@code b} (little-endian) at
   * {@code at}, whose {@link RegionLayout#PAGE_SIZE} bytes must be zero: fields a kind does not
   * have, the name's and the target's unused inline bytes stay zero. {@code b}'s position is left
   * as it was.
   */
  static void inode(
      ByteBuffer b,
      int at,
      InodeAttrs a,
      long id,
      long parentPage,
      long parentId,
      long perm,
      long uc,
      long firstNameExt,
      long attrsWord,
      long firstTargetExt) {
    b.putLong(at + PG_STATE, stateWord(a.kind(), STATE_PENDING));
    b.putLong(at + IN_ID, id);
    b.putLong(at + IN_PARENT_PAGE, parentPage);
    b.putLong(at + IN_PARENT_ID, parentId);
    b.putLong(at + IN_MTIME, a.mtime);
    b.putLong(at + IN_ATIME, a.atime);
    b.putLong(at + IN_PERM, perm);
    b.putLong(at + IN_NAME_LEN, a.name.length);
    b.putLong(at + IN_NAME_EXT, firstNameExt);
    putBytes(b, at + IN_NAME_INLINE, a.name, Math.min(a.name.length, NAME_INLINE_MAX));
    b.putLong(at + IN_ATTRS, attrsWord);
    if (a.symlinkTarget != null) {
      b.putLong(at + SL_TARGET_LEN, a.symlinkTarget.length);
      b.putLong(at + SL_TARGET_EXT, firstTargetExt);
      putBytes(
          b,
          at + SL_TARGET_INLINE,
          a.symlinkTarget,
          Math.min(a.symlinkTarget.length, SYMLINK_TARGET_INLINE_MAX));
    } else if (a.directory) {
      b.putLong(at + DI_NS_QUOTA, a.nsQuota);
      b.putLong(at + DI_DS_QUOTA, a.dsQuota);
      for (int i = 0; i < DI_TYPE_QUOTA_COUNT; i++) {
        b.putLong(at + DI_TYPE_QUOTA + 8 * i, a.typeQuotas[i]);
      }
      b.putLong(at + DI_STORAGE_POLICY, a.storagePolicy);
      b.putLong(at + DI_SNAPSHOT, a.snapshottable ? DI_SNAPSHOTTABLE : 0);
    } else {
      b.putLong(at + FI_HEADER, fileHeader(a.preferredBlockSize, a.replication, a.storagePolicy));
      b.putLong(at + FI_UC, uc);
      // FI_BLOCK_COUNT and FI_BLOCK_EXT: 0, as the zeroed image has them
    }
  }

  /** {@code src[0, len)} into {@code b} at {@code index}; {@code b}'s position is kept. */
  private static void putBytes(ByteBuffer b, int index, byte[] src, int len) {
    if (len == 0) {
      return;
    }
    int p = b.position();
    b.position(index);
    b.put(src, 0, len);
    b.position(p);
  }

  /**
   * A new extension page image with its header written (LIVE: an extension page is committed by the
   * link that makes it reachable), positioned at the payload.
   */
  private static ByteBuffer extPage(int kind, long ownerId, long next, long count) {
    ByteBuffer b = page();
    b.putLong(PG_STATE, stateWord(kind, STATE_LIVE));
    b.putLong(EXT_OWNER_ID, ownerId);
    b.putLong(EXT_NEXT, next);
    b.putLong(EXT_COUNT, count);
    b.position(EXT_PAYLOAD);
    return b;
  }

  /** A NAME_EXT page image (LIVE) holding name[off, off+len). */
  static byte[] nameExt(long ownerId, long next, byte[] name, int off, int len) {
    ByteBuffer b = extPage(KIND_NAME_EXT, ownerId, next, len);
    b.put(name, off, len);
    return b.array();
  }

  /** A BLOCK_EXT page image (LIVE) holding one block record in slot 0. */
  static byte[] blockExt(long ownerId, long blockId, long numBytes, long genstamp) {
    return blockExt(ownerId, 0, new long[] {blockId, numBytes, genstamp}, 0, 1);
  }

  /**
   * A BLOCK_EXT page image (LIVE) holding records {@code from .. from+count} of {@code blocks}
   * (triples id, numBytes, genstamp).
   */
  static byte[] blockExt(long ownerId, long next, long[] blocks, int from, int count) {
    ByteBuffer b = extPage(KIND_BLOCK_EXT, ownerId, next, count);
    for (int i = 0; i < count; i++) {
      int k = 3 * (from + i);
      b.putLong(blocks[k]).putLong(blocks[k + 1]).putLong(blocks[k + 2]);
    }
    return b.array();
  }

  static byte[] blockRecord(long blockId, long numBytes, long genstamp) {
    return ByteBuffer.allocate(BLOCK_RECORD_SIZE)
        .order(ByteOrder.LITTLE_ENDIAN)
        .putLong(BR_ID, blockId)
        .putLong(BR_NUM_BYTES, numBytes)
        .putLong(BR_GENSTAMP, genstamp)
        .array();
  }

  /**
   * A STRING page image in state PENDING: the bytes inline, or for a string longer than STRING_MAX
   * only the link to its first STRING_EXT page ({@code firstExt}).
   */
  static byte[] string(long id, byte[] utf8, long firstExt) {
    ByteBuffer b = page();
    b.putLong(PG_STATE, stateWord(KIND_STRING, STATE_PENDING));
    b.putLong(ST_ID, id);
    b.putLong(ST_LEN, utf8.length);
    if (utf8.length > STRING_MAX) {
      b.putLong(ST_EXT, firstExt);
    } else {
      b.position(ST_BYTES);
      b.put(utf8);
    }
    return b.array();
  }

  /** A STRING_EXT page image (LIVE) holding utf8[off, off+len) of string {@code ownerId}. */
  static byte[] stringExt(long ownerId, long next, byte[] utf8, int off, int len) {
    ByteBuffer b = extPage(KIND_STRING_EXT, ownerId, next, len);
    b.put(utf8, off, len);
    return b.array();
  }

  /** STRING_EXT pages holding a chained string of {@code len} bytes (all of them in the chain). */
  static int byteExtPages(long len) {
    return (int) ((len + NAME_EXT_MAX - 1) / NAME_EXT_MAX);
  }

  /**
   * A RECORD page image in state PENDING (region-format.md §5.5): the first RECORD_INLINE_MAX
   * payload bytes inline, the rest in the RECORD_EXT chain that starts at {@code firstExt}.
   */
  static byte[] record(int type, long id, long key, long value, byte[] payload, long firstExt) {
    ByteBuffer b = page();
    b.putLong(PG_STATE, stateWord(KIND_RECORD, STATE_PENDING));
    b.putLong(RC_TYPE, type);
    b.putLong(RC_ID, id);
    b.putLong(RC_KEY, key);
    b.putLong(RC_VALUE, value);
    b.putLong(RC_LEN, payload.length);
    b.putLong(RC_EXT, firstExt);
    b.position(RC_PAYLOAD);
    b.put(payload, 0, Math.min(payload.length, RECORD_INLINE_MAX));
    return b.array();
  }

  /** A RECORD_EXT page image (LIVE) holding payload[off, off+len) of record {@code ownerId}. */
  static byte[] recordExt(long ownerId, long next, byte[] payload, int off, int len) {
    ByteBuffer b = extPage(KIND_RECORD_EXT, ownerId, next, len);
    b.put(payload, off, len);
    return b.array();
  }

  /** The IN_ATTRS word of {@code len} attribute bytes whose chain starts at {@code firstPage}. */
  static long attrsWord(int len, long firstPage) {
    return len == 0 ? 0 : (pageIndex(firstPage) << ATTRS_PAGE_SHIFT) | len;
  }

  public static int attrsLength(long attrsWord) {
    return (int) (attrsWord & ((1L << ATTRS_PAGE_SHIFT) - 1));
  }

  /**
   * The offset of the first ATTR_EXT page an IN_ATTRS word names (meaningful if its length > 0).
   */
  public static long attrsFirstPage(long attrsWord) {
    return DATA_OFFSET + (attrsWord >>> ATTRS_PAGE_SHIFT) * PAGE_SIZE;
  }

  private static long pageIndex(long pageOffset) {
    return (pageOffset - DATA_OFFSET) / PAGE_SIZE;
  }

  /** An ATTR_EXT page image (LIVE) holding attrs[off, off+len) of inode {@code ownerId}. */
  static byte[] attrExt(long ownerId, long next, byte[] attrs, int off, int len) {
    ByteBuffer b = extPage(KIND_ATTR_EXT, ownerId, next, len);
    b.put(attrs, off, len);
    return b.array();
  }

  /** RECORD_EXT pages a record payload of {@code len} bytes needs. */
  public static int recordExtPages(long len) {
    return len <= RECORD_INLINE_MAX ? 0 : byteExtPages(len - RECORD_INLINE_MAX);
  }

  static byte[] longs(long... v) {
    ByteBuffer b = ByteBuffer.allocate(8 * v.length).order(ByteOrder.LITTLE_ENDIAN);
    for (long x : v) {
      b.putLong(x);
    }
    return b.array();
  }
}
