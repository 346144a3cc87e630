package org.apache.hadoop.hdfs.server.namenode.nvm;

import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;

/**
 * The one region-damage test fixture: byte-level edits of a region file (the corruptions under
 * test), made with plain file I/O behind the library's back, plus the reads the tests need to aim
 * them and a content hash to prove a reader did not write. Integers are little-endian, as on media
 * (region-format.md). Used by this module's tests and, through its test-jar, by nvm-it.
 *
 * <p><b>Sealed and raw edits.</b> A region with the page-checksums feature (region-format.md §11,
 * every region the library creates) checks every LIVE page and every superblock counter, so a
 * changed byte would be refused at the page's checksum before recovery looks at what the byte
 * means. Two kinds of edit keep both kinds of test possible:
 *
 * <ul>
 *   <li><b>Sealed</b> ({@link #putLong}, {@link #putInt}, {@link #write}, {@link #xor}): the damage
 *       is to the <em>content</em>, and every check over it is recomputed afterwards, as if a buggy
 *       writer had stored the bytes through the library: each LIVE page the edit touches is
 *       resealed (its checksum computed over its new bytes) and each superblock counter it touches
 *       gets the check of its new value. So a structural test (a broken chain, a duplicate name, an
 *       id above its counter, ...) still tests the structural check. {@code putLong} of a whole
 *       state word composed by {@link RegionLayout#stateWord} (the page magic on top) makes the
 *       page LIVE and sealed if the word is LIVE, and {@code putLong} of a whole counter writes the
 *       value with its check (the value must fit in SB_COUNTER_BITS). A check is not content: an
 *       edit that writes other bytes than the page magic over a LIVE page's checksum (bytes 4..7 of
 *       its state word), or over a counter's check bits (bytes 6..7), damages that check and is
 *       left as written.
 *   <li><b>Raw</b> ({@link #flipBit}, {@link #rawWrite}, {@link #rawPutLong}, {@link #rawXor}): the
 *       bytes are written and nothing is resealed, as media damage would leave them: a LIVE page or
 *       a counter they touch fails its check.
 * </ul>
 *
 * In a region without the feature (written before it existed) sealing keeps each page and counter
 * in the form it has: a page carrying the page magic keeps it, a plain counter stays plain. Edits
 * of the header and the undo record are never resealed (their CRCs are the tests' own business).
 */
public final class RegionDamage {
  private RegionDamage() {}

  private static final long LOW32 = 0xffffffffL;
  private static final long FIRST_COUNTER = RegionLayout.SB_LAST_INODE_ID;
  private static final long LAST_COUNTER = RegionLayout.SB_LAST_TXID;
  private static final long COUNTER_MASK = (1L << RegionLayout.SB_COUNTER_BITS) - 1;

  public static long getLong(File f, long off) throws IOException {
    return ByteBuffer.wrap(read(f, off, 8)).order(ByteOrder.LITTLE_ENDIAN).getLong();
  }

  /**
   * The value of the superblock counter at {@code off} without its check bits (as {@link
   * Region#counter} decodes it), read from the file.
   */
  public static long counter(File f, long off) throws IOException {
    long w = getLong(f, off);
    return hasPageChecksums(f) || (w >>> RegionLayout.SB_COUNTER_BITS) != 0 ? w & COUNTER_MASK : w;
  }

  public static byte[] read(File f, long off, int len) throws IOException {
    try (RandomAccessFile raf = new RandomAccessFile(f, "r")) {
      byte[] b = new byte[len];
      raf.seek(off);
      raf.readFully(b);
      return b;
    }
  }

  // ---- sealed edits

  /**
   * Sealed: writes {@code v} at {@code off}; a whole superblock counter gets {@code v} with its
   * check (in a region whose counters are checked).
   */
  public static void putLong(File f, long off, long v) throws IOException {
    try (RandomAccessFile raf = new RandomAccessFile(f, "rw")) {
      FileImage img = new FileImage(raf);
      if (isCounter(off) && countersChecked(img, off)) {
        if ((v & ~COUNTER_MASK) != 0) {
          throw new IllegalArgumentException(
              "counter value " + v + " does not fit in SB_COUNTER_BITS: use rawPutLong");
        }
        img.putLong(off, counterWord(off, v));
        return;
      }
      img.write(off, le(v));
      seal(img, off, 8);
    }
  }

  /** Sealed: writes the 4 bytes of {@code v} at {@code off}. */
  public static void putInt(File f, long off, int v) throws IOException {
    write(f, off, ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(v).array());
  }

  /** Sealed: writes {@code bytes} at {@code off}. */
  public static void write(File f, long off, byte[] bytes) throws IOException {
    try (RandomAccessFile raf = new RandomAccessFile(f, "rw")) {
      FileImage img = new FileImage(raf);
      img.write(off, bytes);
      seal(img, off, bytes.length);
    }
  }

  /** Sealed: XORs the byte at {@code off} with {@code mask}. */
  public static void xor(File f, long off, int mask) throws IOException {
    write(f, off, new byte[] {(byte) (read(f, off, 1)[0] ^ mask)});
  }

  /** Recomputes the checksum of the page at {@code page} if it is LIVE (a sealed no-op edit). */
  public static void reseal(File f, long page) throws IOException {
    try (RandomAccessFile raf = new RandomAccessFile(f, "rw")) {
      FileImage img = new FileImage(raf);
      long w = img.getLong(page);
      if ((w & RegionLayout.STATE_MASK) == RegionLayout.STATE_LIVE) {
        img.putLong(page, (w & LOW32) | pageChecksum(img.read(page, RegionLayout.PAGE_SIZE)) << 32);
      }
    }
  }

  // ---- raw edits

  /** Raw: writes {@code bytes} at {@code off}; no check is recomputed. */
  public static void rawWrite(File f, long off, byte[] bytes) throws IOException {
    try (RandomAccessFile raf = new RandomAccessFile(f, "rw")) {
      raf.seek(off);
      raf.write(bytes);
    }
  }

  /** Raw: writes the word {@code v} at {@code off} exactly; no check is recomputed. */
  public static void rawPutLong(File f, long off, long v) throws IOException {
    rawWrite(f, off, le(v));
  }

  /** Raw: XORs the byte at {@code off} with {@code mask}. */
  public static void rawXor(File f, long off, int mask) throws IOException {
    try (RandomAccessFile raf = new RandomAccessFile(f, "rw")) {
      raf.seek(off);
      int b = raf.read();
      if (b < 0) {
        throw new IOException(f + " has no byte at offset " + off);
      }
      raf.seek(off);
      raf.write(b ^ mask);
    }
  }

  /**
   * Makes {@code f} a region as the releases before the redo log wrote it (region-format.md §4,
   * §11): SB_FEATURES without FEATURE_REDO_LOG (nor FEATURE_WAL, FEATURE_SNAPSHOTS and
   * FEATURE_REDO_CHAIN, which came after it). The log area is left as it is: a cleanly closed
   * region's is zero, an empty undo record.
   */
  public static void withoutRedoLog(File f) throws IOException {
    long bits =
        getLong(f, RegionLayout.SB_FEATURES)
            & 0xffffffffL
            & ~(RegionLayout.FEATURE_REDO_LOG
                | RegionLayout.FEATURE_WAL
                | RegionLayout.FEATURE_SNAPSHOTS
                | RegionLayout.FEATURE_REDO_CHAIN);
    rawPutLong(f, RegionLayout.SB_FEATURES, (~bits & 0xffffffffL) << 32 | bits);
  }

  /**
   * A region without the redo log ({@link #withoutRedoLog}) whose undo record is disarmed but keeps
   * the payload of a last undo-logged batch, as those releases left it: one entry saving
   * SB_COMMIT_SEQ, with a valid CRC, and UNDO_STATE 0.
   */
  public static void disarmedUndoRecord(File f) throws IOException {
    withoutRedoLog(f);
    ByteBuffer p = ByteBuffer.allocate(24).order(ByteOrder.LITTLE_ENDIAN);
    p.putLong(RegionLayout.SB_COMMIT_SEQ).putInt(8).putInt(Field.COUNTER.id());
    p.putLong(getLong(f, RegionLayout.SB_COMMIT_SEQ));
    int crc = Crc32c.update(0, p.array(), 0, 24);
    ByteBuffer h = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN);
    h.putInt(1).putInt(24).putInt(crc);
    rawWrite(f, RegionLayout.UNDO_ENTRY_COUNT, h.array());
    rawWrite(f, RegionLayout.UNDO_PAYLOAD, p.array());
    rawPutLong(f, RegionLayout.UNDO_STATE, 0);
  }

  /**
   * A redo record that passes its CRC (region-format.md §4.1: HDR_CREATION_ID, header bytes [0,
   * 20), payload) but that no library writes: in slot 1, seq SB_COMMIT_SEQ + 1, one entry that
   * stores 8 bytes over the header's region size. The native open refuses it at that entry.
   */
  public static void badRedoRecord(File f) throws IOException {
    long slot = RegionLayout.REDO_SLOT1;
    ByteBuffer p = ByteBuffer.allocate(24).order(ByteOrder.LITTLE_ENDIAN);
    p.putLong(RegionLayout.HDR_REGION_SIZE).putInt(8).putInt(Field.NONE.id()).putLong(5);
    ByteBuffer h = ByteBuffer.allocate(RegionLayout.REDO_PAYLOAD).order(ByteOrder.LITTLE_ENDIAN);
    h.putLong(counter(f, RegionLayout.SB_COMMIT_SEQ) + 1).putInt(1).putInt(24).putInt(1);
    byte[] id = read(f, RegionLayout.HDR_CREATION_ID, 8);
    int crc = Crc32c.update(0, id, 0, 8);
    crc = Crc32c.update(crc, h.array(), 0, RegionLayout.REDO_CRC);
    crc = Crc32c.update(crc, p.array(), 0, 24);
    h.putInt(crc);
    rawWrite(f, slot, h.array());
    rawWrite(f, slot + RegionLayout.REDO_PAYLOAD, p.array());
  }

  /** Raw: flips bit {@code bit} (0 = least significant) of the byte at {@code off}. */
  public static void flipBit(File f, long off, int bit) throws IOException {
    rawXor(f, off, 1 << bit);
  }

  // ---- the checks of region-format.md §11, for fixtures that build images in memory

  /** Whether the region image has the page-checksums feature. */
  public static boolean hasPageChecksums(File f) throws IOException {
    return (getLong(f, RegionLayout.SB_FEATURES) & RegionLayout.FEATURE_PAGE_CHECKSUMS) != 0;
  }

  /** The checksum of a 256-byte page image: CRC-32C with bytes 4..7 taken as zero. */
  public static long pageChecksum(byte[] page) {
    byte[] b = Arrays.copyOf(page, RegionLayout.PAGE_SIZE);
    b[4] = b[5] = b[6] = b[7] = 0;
    return NvmNative.crc32c(0, b, 0, b.length) & LOW32;
  }

  /**
   * Whether {@code off} is a superblock counter (SB_LAST_INODE_ID .. SB_LAST_TXID, or a record
   * counter SB_LAST_RECORD_ID .. SB_MASTER_KEY_ID).
   */
  public static boolean isCounter(long off) {
    return (off >= FIRST_COUNTER && off <= LAST_COUNTER && (off - FIRST_COUNTER) % 8 == 0)
        || isRecordCounter(off);
  }

  private static boolean isRecordCounter(long off) {
    return off >= RegionLayout.SB_LAST_RECORD_ID
        && off <= RegionLayout.SB_MASTER_KEY_ID
        && (off - RegionLayout.SB_LAST_RECORD_ID) % 8 == 0;
  }

  /** A counter word: the value's low 48 bits and, above, the check of (offset, value). */
  public static long counterWord(long off, long value) {
    byte[] b =
        ByteBuffer.allocate(16)
            .order(ByteOrder.LITTLE_ENDIAN)
            .putLong(off)
            .putLong(value & COUNTER_MASK)
            .array();
    long check = NvmNative.crc32c(0, b, 0, b.length) & 0xffffL;
    return (value & COUNTER_MASK) | check << RegionLayout.SB_COUNTER_BITS;
  }

  /**
   * Seals the region image {@code region} (a whole file's bytes) after an edit of {@code [off, off
   * + len)}, by the rules of the sealed edits above.
   */
  public static void seal(byte[] region, long off, int len) {
    seal(new ArrayImage(region), off, len);
  }

  private static byte[] le(long v) {
    return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(v).array();
  }

  /**
   * Counters are checked in a region with the feature, or this one already carries a check; the
   * record counters only in a region with the records feature (before it nothing reads them).
   */
  private static boolean countersChecked(Image img, long counter) throws IOException {
    long features = img.getLong(RegionLayout.SB_FEATURES);
    if (isRecordCounter(counter)) {
      return (features & RegionLayout.FEATURE_RECORDS) != 0;
    }
    return (features & RegionLayout.FEATURE_PAGE_CHECKSUMS) != 0
        || (img.getLong(counter) >>> RegionLayout.SB_COUNTER_BITS) != 0;
  }

  private static boolean overlaps(long off, int len, long from, long to) {
    return off < to && off + len > from;
  }

  private static void seal(Image img, long off, int len) {
    try {
      boolean feature =
          (img.getLong(RegionLayout.SB_FEATURES) & RegionLayout.FEATURE_PAGE_CHECKSUMS) != 0;
      for (long c = FIRST_COUNTER; c <= RegionLayout.SB_MASTER_KEY_ID; c += 8) {
        if (!isCounter(c) || !overlaps(off, len, c, c + 8) || overlaps(off, len, c + 6, c + 8)) {
          continue; // untouched, or its check bits were written: damage to the check itself
        }
        if (countersChecked(img, c)) {
          img.putLong(c, counterWord(c, img.getLong(c) & COUNTER_MASK));
        }
      }
      long pages = img.getLong(RegionLayout.HDR_PAGE_COUNT);
      long first = Math.max(0, (off - RegionLayout.DATA_OFFSET) / RegionLayout.PAGE_SIZE);
      for (long i = first; i < pages; i++) {
        long page = RegionLayout.pageOffset(i);
        if (page >= off + len || page + RegionLayout.PAGE_SIZE > img.length()) {
          break;
        }
        if (page + RegionLayout.PAGE_SIZE <= off) {
          continue;
        }
        long w = img.getLong(page);
        long top = w >>> 32;
        if ((w & RegionLayout.STATE_MASK) != RegionLayout.STATE_LIVE
            || (overlaps(off, len, page + 4, page + 8) && top != RegionLayout.PAGE_MAGIC)
            || (!feature && top == RegionLayout.PAGE_MAGIC)) {
          continue; // not LIVE; its checksum damaged on purpose; or unsealed, which stays so
        }
        img.putLong(page, (w & LOW32) | pageChecksum(img.read(page, RegionLayout.PAGE_SIZE)) << 32);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The bytes the sealing rules read and write: a file, or a whole file's image in memory. */
  private interface Image {
    long length() throws IOException;

    byte[] read(long off, int len) throws IOException;

    void write(long off, byte[] b) throws IOException;

    default long getLong(long off) throws IOException {
      return ByteBuffer.wrap(read(off, 8)).order(ByteOrder.LITTLE_ENDIAN).getLong();
    }

    default void putLong(long off, long v) throws IOException {
      write(off, le(v));
    }
  }

  private static final class FileImage implements Image {
    private final RandomAccessFile raf;

    FileImage(RandomAccessFile raf) {
      this.raf = raf;
    }

    @Override
    public long length() throws IOException {
      return raf.length();
    }

    @Override
    public byte[] read(long off, int len) throws IOException {
      byte[] b = new byte[len];
      raf.seek(off);
      raf.readFully(b);
      return b;
    }

    @Override
    public void write(long off, byte[] b) throws IOException {
      raf.seek(off);
      raf.write(b);
    }
  }

  private static final class ArrayImage implements Image {
    private final byte[] a;

    ArrayImage(byte[] a) {
      this.a = a;
    }

    @Override
    public long length() {
      return a.length;
    }

    @Override
    public byte[] read(long off, int len) {
      return Arrays.copyOfRange(a, (int) off, (int) off + len);
    }

    @Override
    public void write(long off, byte[] b) {
      System.arraycopy(b, 0, a, (int) off, b.length);
    }
  }

  /** Cuts the file to {@code length} bytes (or extends it with zeros). */
  public static void truncate(File f, long length) throws IOException {
    try (RandomAccessFile raf = new RandomAccessFile(f, "rw")) {
      raf.setLength(length);
    }
  }

  public static File copy(File from, File to) throws IOException {
    Files.copy(from.toPath(), to.toPath(), StandardCopyOption.REPLACE_EXISTING);
    return to;
  }

  /** The offset of the LIVE STRING page holding {@code text}, found by a scan of the file. */
  public static long stringPage(File f, String text) throws IOException {
    byte[] want = text.getBytes(StandardCharsets.UTF_8);
    long liveString = RegionLayout.stateWord(RegionLayout.KIND_STRING, RegionLayout.STATE_LIVE);
    try (RandomAccessFile raf = new RandomAccessFile(f, "r")) {
      byte[] page = new byte[RegionLayout.PAGE_SIZE];
      for (long off = RegionLayout.DATA_OFFSET;
          off + page.length <= raf.length();
          off += page.length) {
        raf.seek(off);
        raf.readFully(page);
        ByteBuffer b = ByteBuffer.wrap(page).order(ByteOrder.LITTLE_ENDIAN);
        if ((b.getLong(0) & LOW32) == (liveString & LOW32) // the top half is its checksum
            && b.getLong(RegionLayout.ST_LEN) == want.length
            && Arrays.equals(
                want,
                Arrays.copyOfRange(
                    page, RegionLayout.ST_BYTES, RegionLayout.ST_BYTES + want.length))) {
          return off;
        }
      }
    }
    throw new AssertionError("no LIVE STRING page holds '" + text + "' in " + f);
  }

  /**
   * Points the owner of the inode at {@code page} at the existing string {@code newOwner}, by a raw
   * write: the region then holds the old owner's string with no reference, as a crash between the
   * commit that dropped its last reference and the FREE of its page leaves it.
   */
  public static void dropStringReference(File f, long page, String newOwner) throws IOException {
    long id = getLong(f, stringPage(f, newOwner) + RegionLayout.ST_ID);
    long perm = getLong(f, page + RegionLayout.IN_PERM);
    long keep = (1L << RegionLayout.PERM_OWNER_SHIFT) - 1;
    putLong(f, page + RegionLayout.IN_PERM, (perm & keep) | id << RegionLayout.PERM_OWNER_SHIFT);
  }

  /** SHA-256 of the file's content, in hex. */
  public static String sha256(File f) throws IOException {
    try {
      byte[] d = MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(f.toPath()));
      StringBuilder b = new StringBuilder();
      for (byte x : d) {
        b.append(String.format("%02x", x));
      }
      return b.toString();
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError(e);
    }
  }
}
