package org.apache.hadoop.hdfs.server.namenode.nvm;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Builds the byte format nvm_apply() takes (see nvmns.h) in a reusable direct buffer in native byte
 * order:
 *
 * <pre>
 *   u32 entry_count; u32 0;
 *   per entry: u32 op; u32 field; u64 target; u32 length; u32 0; data[length]; zero pad to 8
 * </pre>
 *
 * A batch is applied atomically by {@link Region#apply}; the native side decides the persist order
 * (FRESH data and the redo record of the INPLACE part at one barrier, FREE last). Not thread-safe.
 */
public final class MutationBatch {
  /** The op of an entry: NVM_OPS in nvmns.h (FormatFactsTest checks the codes). */
  enum Op {
    FRESH(1),
    INPLACE(2),
    FREE(3);

    final int code;

    Op(int code) {
      this.code = code;
    }
  }

  /** NVM_BATCH_HEADER and NVM_BATCH_ENTRY_HEADER (FormatFactsTest checks them). */
  static final int HEADER = 8;

  static final int ENTRY_HEADER = 24;

  private ByteBuffer buf;

  /**
   * The same memory as {@link #buf} in the region's byte order (little-endian), with its own
   * position: the view page images are encoded into in place ({@link #freshInPlace}).
   */
  private ByteBuffer pages;

  /** Zeros for the data of an entry filled in place (a page image starts zeroed). */
  private static final byte[] ZEROS = new byte[RegionLayout.PAGE_SIZE];

  private int entries;
  private int inplaceEntries;

  /** INPLACE entries that are one aligned 8-byte word. */
  private int inplaceWords;

  /**
   * INPLACE words that carry their own check in a region with page checksums: a page's state word
   * (the page's checksum is in it) or a superblock counter (its check is).
   */
  private int inplaceSealedWords;

  public MutationBatch() {
    this(4096);
  }

  public MutationBatch(int initialCapacity) {
    buf = allocate(Math.max(initialCapacity, 64));
    pages = view(buf);
    clear();
  }

  private static ByteBuffer allocate(int cap) {
    return ByteBuffer.allocateDirect(cap).order(ByteOrder.nativeOrder());
  }

  private static ByteBuffer view(ByteBuffer b) {
    return b.duplicate().order(ByteOrder.LITTLE_ENDIAN);
  }

  /** Empties the batch, keeping its buffer. */
  public MutationBatch clear() {
    entries = 0;
    inplaceEntries = 0;
    inplaceWords = 0;
    inplaceSealedWords = 0;
    buf.clear();
    buf.putInt(0, 0).putInt(4, 0);
    buf.position(HEADER);
    return this;
  }

  public int entryCount() {
    return entries;
  }

  /** INPLACE entries staged so far. */
  public int inplaceCount() {
    return inplaceEntries;
  }

  public boolean isEmpty() {
    return entries == 0;
  }

  /**
   * Whether the batch changes more than one word in place: every batch with INPLACE entries except
   * one whose only INPLACE entry is a single aligned 8-byte word (in a region with page checksums,
   * {@code pageChecksums}, §11, a state word or a superblock counter: any other page field changes
   * its page's checksum too). The releases before the redo log committed exactly these through the
   * undo log (4 barriers) and the others as one atomic store; with the redo log every batch is one
   * record (region-format.md §7.3), and this only classifies batches for the metrics.
   */
  public boolean isUndoLogged(boolean pageChecksums) {
    int alone = pageChecksums ? inplaceSealedWords : inplaceWords;
    return inplaceEntries > 1 || (inplaceEntries == 1 && alone == 0);
  }

  /** Bytes of the encoded batch. */
  public int length() {
    return buf.position();
  }

  /** The encoded batch: a direct buffer whose bytes [0, length()) are the batch. */
  ByteBuffer buffer() {
    return buf;
  }

  /** Writes {@code data[off, off+len)} into a reserved, not live page at {@code target}. */
  public MutationBatch fresh(long target, byte[] data, int off, int len, Field field) {
    entry(Op.FRESH, field, target, len);
    buf.put(data, off, len);
    pad();
    return this;
  }

  public MutationBatch fresh(long target, byte[] data, Field field) {
    return fresh(target, data, 0, data.length, field);
  }

  /** Writes the remaining bytes of {@code data} (its position is not changed). */
  public MutationBatch fresh(long target, ByteBuffer data, Field field) {
    ByteBuffer d = data.duplicate();
    entry(Op.FRESH, field, target, d.remaining());
    buf.put(d);
    pad();
    return this;
  }

  /**
   * Appends a FRESH entry of {@code len} zero bytes for a reserved, not live page at {@code
   * target}, and returns the index in {@link #pageView()} where its data starts: the caller encodes
   * the page image there, so the image is written once, straight into the buffer the native call
   * reads. The bytes belong to this batch's last entry until the next one is appended.
   */
  int freshInPlace(long target, int len, Field field) {
    entry(Op.FRESH, field, target, len);
    int at = buf.position();
    int padded = (len + 7) & ~7;
    for (int done = 0; done < padded; ) {
      int k = Math.min(ZEROS.length, padded - done);
      buf.put(ZEROS, 0, k);
      done += k;
    }
    return at;
  }

  /**
   * The batch's memory in the region's byte order, for filling an entry {@link #freshInPlace}
   * returned: valid until the next entry is appended (the buffer may be replaced when it grows).
   */
  ByteBuffer pageView() {
    return pages;
  }

  /** Overwrites one aligned live 8-byte word (a page field or a superblock counter). */
  public MutationBatch putLong(long target, long value, Field field) {
    if ((target & 7) != 0) {
      throw new IllegalArgumentException("8-byte field at unaligned offset " + target);
    }
    entry(Op.INPLACE, field, target, 8);
    buf.putLong(value);
    return this;
  }

  /** Overwrites live bytes inside one page or inside the superblock. */
  public MutationBatch putBytes(long target, byte[] data, int off, int len, Field field) {
    entry(Op.INPLACE, field, target, len);
    buf.put(data, off, len);
    pad();
    return this;
  }

  public MutationBatch putBytes(long target, byte[] data, Field field) {
    return putBytes(target, data, 0, data.length, field);
  }

  /** After the batch committed, marks {@code page} INVALID and returns it to the free list. */
  public MutationBatch free(long page) {
    entry(Op.FREE, Field.PAGE, page, 0);
    return this;
  }

  private void entry(Op op, Field field, long target, int len) {
    if (len < 0) {
      throw new IllegalArgumentException("negative length " + len);
    }
    if (target <= 0) {
      throw new IllegalArgumentException("bad target offset " + target);
    }
    ensure(ENTRY_HEADER + ((len + 7) & ~7));
    buf.putInt(op.code).putInt(field.id()).putLong(target).putInt(len).putInt(0);
    entries++;
    if (op == Op.INPLACE) {
      inplaceEntries++;
      if (len == 8 && (target & 7) == 0) {
        inplaceWords++;
        boolean stateWord =
            target >= RegionLayout.DATA_OFFSET
                && (target - RegionLayout.DATA_OFFSET) % RegionLayout.PAGE_SIZE == 0;
        if (stateWord || target < RegionLayout.DATA_OFFSET) {
          inplaceSealedWords++;
        }
      }
    }
    buf.putInt(0, entries);
  }

  private void pad() {
    while ((buf.position() & 7) != 0) {
      buf.put((byte) 0);
    }
  }

  private void ensure(int more) {
    if (buf.remaining() >= more) {
      return;
    }
    int need = buf.position() + more;
    int cap = buf.capacity();
    while (cap < need) {
      cap = cap * 2;
    }
    ByteBuffer n = allocate(cap);
    buf.flip();
    n.put(buf);
    buf = n;
    pages = view(n);
  }
}
