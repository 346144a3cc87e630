package org.apache.hadoop.hdfs.server.namenode.nvm;

import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
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
 */
public final class RegionDamage {
  private RegionDamage() {}

  public static long getLong(File f, long off) throws IOException {
    return ByteBuffer.wrap(read(f, off, 8)).order(ByteOrder.LITTLE_ENDIAN).getLong();
  }

  public static byte[] read(File f, long off, int len) throws IOException {
    try (RandomAccessFile raf = new RandomAccessFile(f, "r")) {
      byte[] b = new byte[len];
      raf.seek(off);
      raf.readFully(b);
      return b;
    }
  }

  public static void putLong(File f, long off, long v) throws IOException {
    write(f, off, ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(v).array());
  }

  public static void putInt(File f, long off, int v) throws IOException {
    write(f, off, ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(v).array());
  }

  public static void write(File f, long off, byte[] bytes) throws IOException {
    try (RandomAccessFile raf = new RandomAccessFile(f, "rw")) {
      raf.seek(off);
      raf.write(bytes);
    }
  }

  /** XORs the byte at {@code off} with {@code mask}. */
  public static void xor(File f, long off, int mask) throws IOException {
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

  /** Flips bit {@code bit} (0 = least significant) of the byte at {@code off}. */
  public static void flipBit(File f, long off, int bit) throws IOException {
    xor(f, off, 1 << bit);
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
        if (b.getLong(0) == liveString
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

  /** SHA-256 of the file's content, in hex. */
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
