package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

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

import org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout;

/** Byte-level edits of region files (the corruptions under test) and a content hash. */
final class RegionFiles {
  private RegionFiles() {
  }

  static long getLong(File f, long off) throws IOException {
    try (RandomAccessFile raf = new RandomAccessFile(f, "r")) {
      byte[] b = new byte[8];
      raf.seek(off);
      raf.readFully(b);
      return ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).getLong();
    }
  }

  static void putLong(File f, long off, long v) throws IOException {
    write(f, off, ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(v).array());
  }

  static void write(File f, long off, byte[] bytes) throws IOException {
    try (RandomAccessFile raf = new RandomAccessFile(f, "rw")) {
      raf.seek(off);
      raf.write(bytes);
    }
  }

  static void flipBit(File f, long off, int bit) throws IOException {
    try (RandomAccessFile raf = new RandomAccessFile(f, "rw")) {
      raf.seek(off);
      int b = raf.read();
      raf.seek(off);
      raf.write(b ^ (1 << bit));
    }
  }

  static void truncate(File f, long length) throws IOException {
    try (RandomAccessFile raf = new RandomAccessFile(f, "rw")) {
      raf.setLength(length);
    }
  }

  static File copy(File from, File to) throws IOException {
    Files.copy(from.toPath(), to.toPath(), StandardCopyOption.REPLACE_EXISTING);
    return to;
  }

  /** The offset of the LIVE STRING page holding {@code text}, found by a scan of the file. */
  static long stringPage(File f, String text) throws IOException {
    byte[] want = text.getBytes(StandardCharsets.UTF_8);
    long liveString = (RegionLayout.PAGE_MAGIC << RegionLayout.PAGE_MAGIC_SHIFT)
        | ((long) RegionLayout.KIND_STRING << RegionLayout.KIND_SHIFT) | RegionLayout.STATE_LIVE;
    try (RandomAccessFile raf = new RandomAccessFile(f, "r")) {
      byte[] page = new byte[RegionLayout.PAGE_SIZE];
      for (long off = RegionLayout.DATA_OFFSET; off + page.length <= raf.length(); off += page.length) {
        raf.seek(off);
        raf.readFully(page);
        ByteBuffer b = ByteBuffer.wrap(page).order(ByteOrder.LITTLE_ENDIAN);
        if (b.getLong(0) == liveString && b.getLong(RegionLayout.ST_LEN) == want.length && Arrays.equals(want,
            Arrays.copyOfRange(page, RegionLayout.ST_BYTES, RegionLayout.ST_BYTES + want.length))) {
          return off;
        }
      }
    }
    throw new AssertionError("no LIVE STRING page holds '" + text + "' in " + f);
  }

  static String sha256(File f) throws IOException {
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
