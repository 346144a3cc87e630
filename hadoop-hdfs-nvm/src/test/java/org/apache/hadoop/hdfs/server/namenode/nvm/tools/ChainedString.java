package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;
import static org.apache.hadoop.hdfs.server.namenode.nvm.StoreOps.createInode;

import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeAttrs;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeStore;
import org.apache.hadoop.hdfs.server.namenode.nvm.NvmException;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionDamage;

/**
 * A string longer than STRING_MAX written by raw file writes, as region-format.md §5.4 lays it out:
 * a LIVE STRING page whose ST_EXT word links a chain of LIVE STRING_EXT pages (owner id = the
 * string id, NAME_EXT_MAX bytes each but the last), the rest of the STRING page zero. The pages are
 * taken from never-used pages of a region written by the store, at page indexes the test chooses,
 * so that a test can then damage the chain, duplicate an id or leave the string unreferenced
 * (strings the store writes itself: RegionCheckStringChainTest); {@code SB_LAST_STRING_ID} is
 * raised to cover the id. {@link #referAsOwner} makes an inode refer to it.
 */
final class ChainedString {
  /**
   * 600 bytes: 224 + 224 + 152 in the chain. Space, '=' and ',' are escaped in the dump; the
   * two-byte 'é' straddles the first page boundary (bytes 223 and 224).
   */
  static final String TEXT;

  /** Three full STRING_EXT pages (672 bytes). */
  static final String FULL_TEXT;

  static {
    StringBuilder b = new StringBuilder("CN=etl service,");
    while (b.length() < 223) {
      b.append('a');
    }
    b.append('\u00e9');
    while (b.length() < 599) {
      b.append('z');
    }
    TEXT = b.toString();
    StringBuilder f = new StringBuilder();
    while (f.length() < 3 * NAME_EXT_MAX) {
      f.append("0123456789abcdef");
    }
    FULL_TEXT = f.substring(0, 3 * NAME_EXT_MAX);
  }

  final File file;
  final long id;
  final byte[] bytes;

  /** The STRING page. */
  final long page;

  /** The STRING_EXT pages, in chain order. */
  final long[] ext;

  private ChainedString(File file, long id, byte[] bytes, long page, long[] ext) {
    this.file = file;
    this.id = id;
    this.bytes = bytes;
    this.page = page;
    this.ext = ext;
  }

  static long pageAt(int index) {
    return DATA_OFFSET + (long) PAGE_SIZE * index;
  }

  /**
   * Writes {@code text} as string {@code id}: the STRING page at page index {@code firstIndex}, the
   * chain on the pages after it. Every page written must be never used.
   */
  static ChainedString write(File f, long id, String text, int firstIndex) throws IOException {
    byte[] t = text.getBytes(StandardCharsets.UTF_8);
    if (t.length <= STRING_MAX) {
      throw new IllegalArgumentException("a string of " + t.length + " bytes is not chained");
    }
    int pages = (t.length + NAME_EXT_MAX - 1) / NAME_EXT_MAX;
    long page = pageAt(firstIndex);
    long[] ext = new long[pages];
    for (int i = 0; i < pages; i++) {
      ext[i] = pageAt(firstIndex + 1 + i);
    }
    for (long p : concat(page, ext)) {
      if (RegionDamage.getLong(f, p) != 0) {
        throw new AssertionError("page " + p + " of " + f + " is in use");
      }
    }
    for (int i = 0; i < pages; i++) {
      int from = i * NAME_EXT_MAX;
      int n = Math.min(NAME_EXT_MAX, t.length - from);
      ByteBuffer b = ByteBuffer.allocate(PAGE_SIZE).order(ByteOrder.LITTLE_ENDIAN);
      b.putLong(PG_STATE, stateWord(KIND_STRING_EXT, STATE_LIVE))
          .putLong(EXT_OWNER_ID, id)
          .putLong(EXT_NEXT, i + 1 < pages ? ext[i + 1] : 0)
          .putLong(EXT_COUNT, n);
      b.position(EXT_PAYLOAD);
      b.put(t, from, n);
      RegionDamage.write(f, ext[i], b.array());
    }
    ByteBuffer b = ByteBuffer.allocate(PAGE_SIZE).order(ByteOrder.LITTLE_ENDIAN);
    b.putLong(PG_STATE, stateWord(KIND_STRING, STATE_LIVE))
        .putLong(ST_ID, id)
        .putLong(ST_LEN, t.length)
        .putLong(ST_EXT, ext[0]);
    RegionDamage.write(f, page, b.array());
    if (RegionDamage.counter(f, SB_LAST_STRING_ID) < id) {
      RegionDamage.putLong(f, SB_LAST_STRING_ID, id);
    }
    return new ChainedString(f, id, t, page, ext);
  }

  /** One more than the highest string id the region has handed out. */
  static long nextId(File f) throws IOException {
    return RegionDamage.counter(f, SB_LAST_STRING_ID) + 1;
  }

  /** Makes the inode on {@code inodePage} refer to this string as its owner. */
  void referAsOwner(long inodePage) throws IOException {
    long perm = RegionDamage.getLong(file, inodePage + IN_PERM);
    long keep = (1L << PERM_OWNER_SHIFT) - 1;
    RegionDamage.putLong(file, inodePage + IN_PERM, (perm & keep) | id << PERM_OWNER_SHIFT);
  }

  /** Makes the inode on {@code inodePage} refer to this string as its group. */
  void referAsGroup(long inodePage) throws IOException {
    long perm = RegionDamage.getLong(file, inodePage + IN_PERM);
    long mask = (long) PERM_STRING_ID_MAX << PERM_GROUP_SHIFT;
    RegionDamage.putLong(file, inodePage + IN_PERM, (perm & ~mask) | id << PERM_GROUP_SHIFT);
  }

  /** Makes the under-construction file on {@code inodePage} name this string as its client. */
  void referAsClientName(long inodePage) throws IOException {
    long uc = RegionDamage.getLong(file, inodePage + FI_UC);
    RegionDamage.putLong(file, inodePage + FI_UC, (uc & ~((1L << FI_UC_MACHINE_SHIFT) - 1)) | id);
  }

  /**
   * A second under-construction file with writing.log's client name and machine, so that
   * writing.log's client name can be replaced without leaving the old one unreferenced.
   */
  static void secondWriter(SampleNamespace n, InodeStore s) throws NvmException {
    createInode(
        s,
        n.tmp,
        InodeAttrs.file("writer2")
            .owner("hdfs", "supergroup")
            .underConstruction("DFSClient_NONMAPREDUCE_1", "10.0.0.7"));
  }

  private static long[] concat(long first, long[] rest) {
    long[] all = new long[rest.length + 1];
    all[0] = first;
    System.arraycopy(rest, 0, all, 1, rest.length);
    return all;
  }
}
