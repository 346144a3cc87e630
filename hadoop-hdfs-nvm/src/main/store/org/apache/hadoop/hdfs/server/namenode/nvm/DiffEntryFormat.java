package org.apache.hadoop.hdfs.server.namenode.nvm;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * The payload of a {@code RECORD_DIFF_ENTRY} (region-format.md §13): one child's entries in the
 * created and deleted lists of its directory's snapshot diffs. Little-endian: a u32 count, then per
 * entry an i32 snapshot id, a u8 kind ({@link #CREATED}, {@link #DELETED}, {@link
 * #DELETED_REFERENCE}), a u16 name length and the name, and for a reference a u32 length and its
 * {@code INodeReferenceSection.INodeReference} message. Written by the NameNode ({@code
 * NvmDiffEntries}), read by it and by the offline tools, which load no Hadoop class.
 */
public final class DiffEntryFormat {
  private DiffEntryFormat() {}

  /** In a created list (a child created after the snapshot). */
  public static final int CREATED = 0;

  /** In a deleted list: an inode only snapshots hold now. */
  public static final int DELETED = 1;

  /** In a deleted list: a reference (a renamed inode's old place, or a deleted DstReference). */
  public static final int DELETED_REFERENCE = 2;

  /** One entry, as {@link #decode} reads it. */
  public static final class Entry {
    public final int snapshotId;
    public final int kind;
    public final byte[] name;

    /** The reference's message (DELETED_REFERENCE), else null. */
    public final byte[] reference;

    public Entry(int snapshotId, int kind, byte[] name, byte[] reference) {
      this.snapshotId = snapshotId;
      this.kind = kind;
      this.name = name;
      this.reference = reference;
    }
  }

  /** Appends one entry to {@code out}; {@code reference} only for DELETED_REFERENCE. */
  public static void write(
      ByteArrayOutputStream out, int snapshotId, int kind, byte[] name, byte[] reference) {
    ByteBuffer b =
        ByteBuffer.allocate(
                4 + 1 + 2 + name.length + (reference == null ? 0 : 4 + reference.length))
            .order(ByteOrder.LITTLE_ENDIAN);
    b.putInt(snapshotId).put((byte) kind).putShort((short) name.length).put(name);
    if (reference != null) {
      b.putInt(reference.length).put(reference);
    }
    out.write(b.array(), 0, b.capacity());
  }

  /** The payload of {@code count} entries written to {@code entries}. */
  public static byte[] payload(int count, ByteArrayOutputStream entries) {
    byte[] body = entries.toByteArray();
    return ByteBuffer.allocate(4 + body.length)
        .order(ByteOrder.LITTLE_ENDIAN)
        .putInt(count)
        .put(body)
        .array();
  }

  /** The entry count of a payload (its first word), without decoding the entries. */
  public static int count(byte[] payload) {
    return ByteBuffer.wrap(payload).order(ByteOrder.LITTLE_ENDIAN).getInt(0);
  }

  /** The entries of a payload; an IOException saying why if it is not one. */
  public static List<Entry> decode(byte[] payload) throws IOException {
    List<Entry> out = new ArrayList<Entry>();
    try {
      ByteBuffer b = ByteBuffer.wrap(payload).order(ByteOrder.LITTLE_ENDIAN);
      int n = b.getInt();
      if (n < 1 || n > b.remaining() / 7) {
        throw new IOException("an entry count of " + n + " in " + payload.length + " bytes");
      }
      for (int i = 0; i < n; i++) {
        int snapshotId = b.getInt();
        int kind = b.get();
        byte[] name = new byte[b.getShort() & 0xffff];
        b.get(name);
        byte[] ref = null;
        if (kind == DELETED_REFERENCE) {
          int len = b.getInt();
          if (len < 0 || len > b.remaining()) {
            throw new IOException("a reference of " + len + " bytes in entry " + i);
          }
          ref = new byte[len];
          b.get(ref);
        } else if (kind != CREATED && kind != DELETED) {
          throw new IOException("entry " + i + " has kind " + kind);
        }
        out.add(new Entry(snapshotId, kind, name, ref));
      }
      if (b.hasRemaining()) {
        throw new IOException(b.remaining() + " bytes past the last entry");
      }
    } catch (BufferUnderflowException e) {
      throw new IOException("the payload ends inside an entry", e);
    }
    return out;
  }
}
