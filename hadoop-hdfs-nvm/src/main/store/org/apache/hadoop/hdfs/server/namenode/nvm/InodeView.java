package org.apache.hadoop.hdfs.server.namenode.nvm;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;

import java.nio.charset.StandardCharsets;

/**
 * A read view of one inode page, straight from the mapping (no copy, no JNI). Values are read at
 * call time, so a view stays current across mutations of its page.
 */
public final class InodeView {
  private final Region region;
  private final long page;

  public InodeView(Region region, long page) {
    this.region = region;
    this.page = page;
  }

  public long page() {
    return page;
  }

  private long word(int field) {
    return region.getLong(page + field);
  }

  public long stateWord() {
    return word(PG_STATE);
  }

  public boolean isLive() {
    long w = stateWord();
    // the top half is the page's checksum (region-format.md §11), verified by recovery
    int k = kindOf(w);
    return stateOf(w) == STATE_LIVE && (k == KIND_DIR || k == KIND_FILE || k == KIND_SYMLINK);
  }

  public boolean isDirectory() {
    return kindOf(stateWord()) == KIND_DIR;
  }

  public boolean isFile() {
    return kindOf(stateWord()) == KIND_FILE;
  }

  public boolean isSymlink() {
    return kindOf(stateWord()) == KIND_SYMLINK;
  }

  // ---- symlinks ----

  public int symlinkTargetLength() {
    return (int) word(SL_TARGET_LEN);
  }

  /** The NAME_EXT pages holding a symlink's target past its inline part, in chain order. */
  public long[] symlinkTargetExtPages() {
    return chain(word(SL_TARGET_EXT), PageCodec.symlinkTargetExtPages(checkedTargetLength()));
  }

  /** A symlink's target bytes: inline part, then its chain. */
  public byte[] symlinkTarget() {
    int len = checkedTargetLength();
    byte[] b = new byte[len];
    int inline = Math.min(len, SYMLINK_TARGET_INLINE_MAX);
    region.getBytes(page + SL_TARGET_INLINE, b, 0, inline);
    int done = inline;
    for (long p : symlinkTargetExtPages()) {
      int n = (int) Math.min(region.getLong(p + EXT_COUNT), len - done);
      region.getBytes(p + EXT_PAYLOAD, b, done, n);
      done += n;
    }
    if (done != len) {
      throw new IllegalStateException(
          "symlink page " + page + ": target chain holds " + done + " of " + len + " bytes");
    }
    return b;
  }

  private int checkedTargetLength() {
    long len = word(SL_TARGET_LEN);
    if (len < 1 || len > SYMLINK_TARGET_MAX) {
      throw new IllegalStateException("symlink page " + page + " has target length " + len);
    }
    return (int) len;
  }

  public long id() {
    return word(IN_ID);
  }

  public long parentPage() {
    return word(IN_PARENT_PAGE);
  }

  public long parentId() {
    return word(IN_PARENT_ID);
  }

  public long mtime() {
    return word(IN_MTIME);
  }

  public long atime() {
    return word(IN_ATIME);
  }

  public long permWord() {
    return word(IN_PERM);
  }

  public int mode() {
    return PageCodec.permMode(permWord());
  }

  public long ownerId() {
    return PageCodec.permOwner(permWord());
  }

  public long groupId() {
    return PageCodec.permGroup(permWord());
  }

  public int nameLength() {
    return (int) word(IN_NAME_LEN);
  }

  public long firstNameExt() {
    return word(IN_NAME_EXT);
  }

  /** The name bytes: inline part, then the NAME_EXT chain. */
  public byte[] nameBytes() {
    byte[] b = new byte[checkedNameLength()];
    nameInto(b, 0);
    return b;
  }

  /**
   * Copies the name bytes to {@code dst} at {@code at} (room for {@link #nameLength} bytes is the
   * caller's); returns the length. No allocation: the restart's rebuild packs every name this way.
   */
  public int nameInto(byte[] dst, int at) {
    int len = checkedNameLength();
    int inline = Math.min(len, NAME_INLINE_MAX);
    region.getBytes(page + IN_NAME_INLINE, dst, at, inline);
    int done = inline;
    long ext = firstNameExt();
    while (done < len) {
      if (ext == 0) {
        throw new IllegalStateException(
            "inode page " + page + ": name chain ends after " + done + " of " + len);
      }
      int n = (int) Math.min(region.getLong(ext + EXT_COUNT), len - done);
      region.getBytes(ext + EXT_PAYLOAD, dst, at + done, n);
      done += n;
      ext = region.getLong(ext + EXT_NEXT);
    }
    return len;
  }

  private int checkedNameLength() {
    int len = nameLength();
    if (len < 0 || len > NAME_MAX) {
      throw new IllegalStateException("inode page " + page + " has name length " + len);
    }
    return len;
  }

  public String name() {
    return new String(nameBytes(), StandardCharsets.UTF_8);
  }

  /** The NAME_EXT pages of this inode, in chain order. */
  public long[] nameExtPages() {
    return chain(firstNameExt(), PageCodec.nameExtPages(nameLength()));
  }

  private static final long[] NO_PAGES = new long[0];

  private long[] chain(long first, int expected) {
    if (expected == 0) {
      return NO_PAGES; // the common case; an empty array has nothing a caller could change
    }
    long[] out = new long[expected];
    long p = first;
    for (int i = 0; i < expected; i++) {
      if (p == 0) {
        throw new IllegalStateException(
            "inode page " + page + ": extension chain shorter than " + expected);
      }
      out[i] = p;
      p = region.getLong(p + EXT_NEXT);
    }
    return out;
  }

  // ---- files ----

  public long fileHeader() {
    return word(FI_HEADER);
  }

  public long preferredBlockSize() {
    return PageCodec.headerBlockSize(fileHeader());
  }

  public int replication() {
    return PageCodec.headerReplication(fileHeader());
  }

  public int storagePolicy() {
    return PageCodec.headerPolicy(fileHeader());
  }

  public long ucWord() {
    return word(FI_UC);
  }

  public boolean isUnderConstruction() {
    return isFile() && ucWord() != 0;
  }

  public long clientId() {
    return PageCodec.ucClient(ucWord());
  }

  /** Under construction with a complete last block (FI_UC bit 31). */
  public boolean lastBlockComplete() {
    return PageCodec.ucLastBlockComplete(ucWord());
  }

  public long clientMachineId() {
    return PageCodec.ucMachine(ucWord());
  }

  public int blockCount() {
    return (int) word(FI_BLOCK_COUNT);
  }

  public long firstBlockExt() {
    return word(FI_BLOCK_EXT);
  }

  /** BLOCK_EXT pages holding blocks 4.., in chain order. */
  public long[] blockExtPages() {
    int n = blockCount() - BLOCKS_INLINE_MAX;
    return chain(firstBlockExt(), n <= 0 ? 0 : (n + BLOCKS_EXT_MAX - 1) / BLOCKS_EXT_MAX);
  }

  /**
   * Region offset of block record {@code i}: inline for i &lt; 4, else page (i-4)/9 slot (i-4)%9 of
   * the chain.
   */
  public long blockRecordOffset(int i) {
    if (i < 0 || i >= blockCount()) {
      throw new IndexOutOfBoundsException(
          "block " + i + " of " + blockCount() + " in inode page " + page);
    }
    return blockRecordOffsetUnchecked(i);
  }

  long blockRecordOffsetUnchecked(int i) {
    if (i < BLOCKS_INLINE_MAX) {
      return page + FI_BLOCKS_INLINE + (long) BLOCK_RECORD_SIZE * i;
    }
    int k = i - BLOCKS_INLINE_MAX;
    return blockExtPage(k / BLOCKS_EXT_MAX)
        + EXT_PAYLOAD
        + (long) BLOCK_RECORD_SIZE * (k % BLOCKS_EXT_MAX);
  }

  /** The {@code n}-th BLOCK_EXT page (0-based). */
  long blockExtPage(int n) {
    long p = firstBlockExt();
    for (int j = 0; j < n && p != 0; j++) {
      p = region.getLong(p + EXT_NEXT);
    }
    if (p == 0) {
      throw new IllegalStateException("inode page " + page + ": block chain has no page " + n);
    }
    return p;
  }

  public long blockId(int i) {
    return region.getLong(blockRecordOffset(i) + BR_ID);
  }

  public long blockNumBytes(int i) {
    return region.getLong(blockRecordOffset(i) + BR_NUM_BYTES);
  }

  public long blockGenerationStamp(int i) {
    return region.getLong(blockRecordOffset(i) + BR_GENSTAMP);
  }

  // ---- directories ----

  public long nsQuota() {
    return word(DI_NS_QUOTA);
  }

  public long dsQuota() {
    return word(DI_DS_QUOTA);
  }

  /** Quota of storage type {@code t} (0 RAM_DISK, 1 SSD, 2 DISK, 3 ARCHIVE). */
  public long typeQuota(int t) {
    if (t < 0 || t >= DI_TYPE_QUOTA_COUNT) {
      throw new IndexOutOfBoundsException("storage type " + t);
    }
    return word(DI_TYPE_QUOTA + 8 * t);
  }

  // ---- attributes (files and directories; region-format.md §5.6) ----

  /** The IN_ATTRS word: attribute bytes and the first ATTR_EXT page's index; 0 = none. */
  public long attrsWord() {
    return word(IN_ATTRS);
  }

  /** Bytes of the attribute encoding (0 = no attributes). */
  public int attrsLength() {
    return PageCodec.attrsLength(attrsWord());
  }

  /** The ATTR_EXT pages holding the attribute encoding, in chain order. */
  public long[] attrExtPages() {
    long w = attrsWord();
    int len = PageCodec.attrsLength(w);
    if (len > ATTRS_MAX) {
      throw new IllegalStateException("inode page " + page + ": attribute length " + len);
    }
    return chain(len == 0 ? 0 : PageCodec.attrsFirstPage(w), PageCodec.byteExtPages(len));
  }

  /** The attribute encoding (empty if the inode has none): its ATTR_EXT chain's bytes. */
  public byte[] attrBytes() {
    long[] pages = attrExtPages();
    byte[] b = new byte[attrsLength()];
    int done = 0;
    for (long p : pages) {
      int n = (int) Math.min(region.getLong(p + EXT_COUNT), b.length - done);
      region.getBytes(p + EXT_PAYLOAD, b, done, n);
      done += n;
    }
    if (done != b.length) {
      throw new IllegalStateException(
          "inode page " + page + ": attribute chain holds " + done + " of " + b.length + " bytes");
    }
    return b;
  }

  /** Storage policy id set on a directory (0 = unspecified). */
  public int directoryStoragePolicy() {
    return (int) word(DI_STORAGE_POLICY);
  }

  /** Whether snapshots are allowed on this directory (DI_SNAPSHOT, region-format.md §5.2). */
  public boolean snapshottable() {
    return (word(DI_SNAPSHOT) & DI_SNAPSHOTTABLE) != 0;
  }

  /** The directory's DI_SNAPSHOT word as stored (the offline check looks at every bit). */
  public long snapshotWord() {
    return word(DI_SNAPSHOT);
  }

  @Override
  public String toString() {
    return "InodeView{page="
        + page
        + ", id="
        + id()
        + ", name="
        + name()
        + ", parentPage="
        + parentPage()
        + "}";
  }
}
