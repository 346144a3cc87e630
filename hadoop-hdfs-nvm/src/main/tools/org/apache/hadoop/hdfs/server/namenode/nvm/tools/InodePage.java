package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;

import java.util.Arrays;
import org.apache.hadoop.hdfs.server.namenode.nvm.PageCodec;

/**
 * The fields of one inode page (region-format.md §5.2: a directory, a file or a symlink), read
 * through a {@link RegionImage} with no validation: the checks decide what a value means. The
 * packed words (perm = mode:16 | group:24 | owner:24; file header = block size:48 | replication:12
 * | policy:4; UC = client:32 | machine:32) are taken apart by the store's decoders ({@link
 * PageCodec}).
 */
final class InodePage {

  final RegionImage image;
  final long page;

  InodePage(RegionImage image, long page) {
    this.image = image;
    this.page = page;
  }

  long word(int field) {
    return image.getLong(page + field);
  }

  boolean isDirectory() {
    return kindOf(word(PG_STATE)) == KIND_DIR;
  }

  boolean isFile() {
    return kindOf(word(PG_STATE)) == KIND_FILE;
  }

  boolean isSymlink() {
    return kindOf(word(PG_STATE)) == KIND_SYMLINK;
  }

  long id() {
    return word(IN_ID);
  }

  long parentPage() {
    return word(IN_PARENT_PAGE);
  }

  long parentId() {
    return word(IN_PARENT_ID);
  }

  long mtime() {
    return word(IN_MTIME);
  }

  long atime() {
    return word(IN_ATIME);
  }

  int mode() {
    return PageCodec.permMode(word(IN_PERM));
  }

  long groupId() {
    return PageCodec.permGroup(word(IN_PERM));
  }

  long ownerId() {
    return PageCodec.permOwner(word(IN_PERM));
  }

  long nameLength() {
    return word(IN_NAME_LEN);
  }

  // ---- files

  long preferredBlockSize() {
    return PageCodec.headerBlockSize(word(FI_HEADER));
  }

  int replication() {
    return PageCodec.headerReplication(word(FI_HEADER));
  }

  int fileStoragePolicy() {
    return PageCodec.headerPolicy(word(FI_HEADER));
  }

  long clientId() {
    return PageCodec.ucClient(word(FI_UC));
  }

  long clientMachineId() {
    return PageCodec.ucMachine(word(FI_UC));
  }

  boolean lastBlockComplete() {
    return PageCodec.ucLastBlockComplete(word(FI_UC));
  }

  /**
   * FI_BLOCK_COUNT, a u64 on media: compare it unsigned (a damaged count may have the top bit set).
   */
  long blockCount() {
    return word(FI_BLOCK_COUNT);
  }

  // ---- directories

  long nsQuota() {
    return word(DI_NS_QUOTA);
  }

  long dsQuota() {
    return word(DI_DS_QUOTA);
  }

  long typeQuota(int storageType) {
    return word(DI_TYPE_QUOTA + 8 * storageType);
  }

  long directoryStoragePolicy() {
    return word(DI_STORAGE_POLICY);
  }

  /** The directory's DI_SNAPSHOT word (FEATURE_SNAPSHOTS): DI_SNAPSHOTTABLE or 0. */
  long snapshotWord() {
    return word(DI_SNAPSHOT);
  }

  // ---- symlinks

  /** SL_TARGET_LEN, a u64 on media: 1..SYMLINK_TARGET_MAX in a sound page. */
  long targetLength() {
    return word(SL_TARGET_LEN);
  }

  /** Whether SL_TARGET_LEN is one recovery accepts: 1..SYMLINK_TARGET_MAX. */
  boolean targetLengthValid() {
    return targetLength() >= 1 && targetLength() <= SYMLINK_TARGET_MAX;
  }

  /**
   * The target bytes: the inline part, then the payloads of the pages of {@code chain}; null if the
   * length is not valid or the chain does not hold the rest (a broken chain).
   */
  byte[] targetBytes(ExtChain chain) {
    if (!targetLengthValid() || chain.problem() != null) {
      return null;
    }
    int len = (int) targetLength();
    byte[] b =
        Arrays.copyOf(
            image.getBytes(page + SL_TARGET_INLINE, Math.min(len, SYMLINK_TARGET_INLINE_MAX)), len);
    return chain.copyPayloads(image, b, Math.min(len, SYMLINK_TARGET_INLINE_MAX)) == len ? b : null;
  }

  // ---- attributes (region-format.md §5.6)

  /** IN_ATTRS: the attribute encoding's length (bits 0-31) and first page's index (32-63). */
  long attrsWord() {
    return word(IN_ATTRS);
  }

  /** The attribute encoding's length in bytes (unsigned 32 bits; 0 = no attributes). */
  long attrsLength() {
    return PageCodec.attrsLength(attrsWord()) & 0xffffffffL;
  }

  /** The offset of the page IN_ATTRS names (meaningful if the length is not 0). */
  long attrsFirstPage() {
    return PageCodec.attrsFirstPage(attrsWord());
  }

  /**
   * The attribute encoding: the payloads of the pages of {@code chain}, or null if the chain does
   * not hold all {@link #attrsLength()} bytes (a broken chain).
   */
  byte[] attrBytes(ExtChain chain) {
    long len = attrsLength();
    if (chain.problem() != null || len > ATTRS_MAX) {
      return null;
    }
    byte[] b = new byte[(int) len];
    return chain.copyPayloads(image, b, 0) == len ? b : null;
  }

  // ---- chains

  /**
   * The name bytes: the inline part, then the payloads of the pages of {@code chain} (as far as it
   * was valid). Shorter than {@link #nameLength()} if the chain is broken; empty if the length
   * itself is over NAME_MAX.
   */
  byte[] nameBytes(ExtChain chain) {
    long len = nameLength();
    if (len < 0 || len > NAME_MAX) {
      return new byte[0];
    }
    byte[] b = image.getBytes(page + IN_NAME_INLINE, (int) Math.min(len, NAME_INLINE_MAX));
    int inline = b.length;
    b = Arrays.copyOf(b, (int) len);
    int done = chain.copyPayloads(image, b, inline);
    return done == len ? b : Arrays.copyOf(b, done);
  }

  /**
   * Region offsets of the block records: inline first, then those of the valid part of {@code
   * chain}.
   */
  long[] blockRecordOffsets(ExtChain chain) {
    long inline =
        Long.compareUnsigned(blockCount(), BLOCKS_INLINE_MAX) < 0
            ? blockCount()
            : BLOCKS_INLINE_MAX;
    LongList out = new LongList();
    for (int i = 0; i < inline; i++) {
      out.add(page + FI_BLOCKS_INLINE + (long) BLOCK_RECORD_SIZE * i);
    }
    for (int p = 0; p < chain.size(); p++) {
      for (int s = 0; s < chain.count(p); s++) {
        out.add(chain.page(p) + EXT_PAYLOAD + (long) BLOCK_RECORD_SIZE * s);
      }
    }
    return out.toArray();
  }
}
