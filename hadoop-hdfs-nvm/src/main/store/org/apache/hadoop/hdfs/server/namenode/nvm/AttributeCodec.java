package org.apache.hadoop.hdfs.server.namenode.nvm;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.hadoop.fs.XAttr;
import org.apache.hadoop.fs.permission.AclEntry;
import org.apache.hadoop.fs.permission.AclEntryScope;
import org.apache.hadoop.fs.permission.AclEntryType;
import org.apache.hadoop.fs.permission.FsAction;

/**
 * The attribute encoding an inode's ATTR_EXT chain holds (region-format.md §5.6): its ACL entries
 * (those the stock NameNode keeps in an inode's AclFeature: named access entries and every default
 * entry; the owner, group-or-mask and other entries are the mode bits) and its extended attributes,
 * in the order the inode holds them. No attributes at all encode as zero bytes.
 *
 * <pre>
 * encoding  := aclCount:varint  aclEntry*  xattrCount:varint  xattr*
 * aclEntry  := bits:u8  nameLen:varint  name:utf8      bits = scope&lt;&lt;5 | type&lt;&lt;3 | perm
 * xattr     := namespace:u8  nameLen:varint  name:utf8  valueLen+1:varint  value
 * </pre>
 *
 * A varint is unsigned LEB128 (7 bits per byte, low first). An unnamed ACL entry has nameLen 0; an
 * xattr without a value (the stock NameNode keeps null apart from empty) has valueLen+1 = 0. The
 * numeric values of scope, type, permission and namespace are the constants below, not Java enum
 * ordinals, so a reordered enum cannot change the format; AttributeCodecTest pins them.
 */
public final class AttributeCodec {
  private AttributeCodec() {}

  /** ACL entry scopes. */
  public static final int SCOPE_ACCESS = 0;

  public static final int SCOPE_DEFAULT = 1;

  /** ACL entry types. */
  public static final int TYPE_USER = 0;

  public static final int TYPE_GROUP = 1;
  public static final int TYPE_MASK = 2;
  public static final int TYPE_OTHER = 3;

  /** Xattr namespaces. */
  public static final int NS_USER = 0;

  public static final int NS_TRUSTED = 1;
  public static final int NS_SECURITY = 2;
  public static final int NS_SYSTEM = 3;
  public static final int NS_RAW = 4;

  private static final AclEntryScope[] SCOPES = {AclEntryScope.ACCESS, AclEntryScope.DEFAULT};
  private static final AclEntryType[] TYPES = {
    AclEntryType.USER, AclEntryType.GROUP, AclEntryType.MASK, AclEntryType.OTHER
  };
  private static final XAttr.NameSpace[] NAMESPACES = {
    XAttr.NameSpace.USER,
    XAttr.NameSpace.TRUSTED,
    XAttr.NameSpace.SECURITY,
    XAttr.NameSpace.SYSTEM,
    XAttr.NameSpace.RAW
  };

  /** An inode's decoded attributes. */
  public static final class Attributes {
    public final List<AclEntry> acl;
    public final List<XAttr> xattrs;

    Attributes(List<AclEntry> acl, List<XAttr> xattrs) {
      this.acl = Collections.unmodifiableList(acl);
      this.xattrs = Collections.unmodifiableList(xattrs);
    }

    public boolean isEmpty() {
      return acl.isEmpty() && xattrs.isEmpty();
    }
  }

  public static final byte[] NONE = new byte[0];

  /** The encoding of {@code acl} and {@code xattrs} (either may be null: none). */
  public static byte[] encode(List<AclEntry> acl, List<XAttr> xattrs) {
    int na = acl == null ? 0 : acl.size();
    int nx = xattrs == null ? 0 : xattrs.size();
    if (na == 0 && nx == 0) {
      return NONE;
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(64);
    varint(out, na);
    for (int i = 0; i < na; i++) {
      AclEntry e = acl.get(i);
      out.write(index(SCOPES, e.getScope()) << 5 | index(TYPES, e.getType()) << 3 | perm(e));
      bytes(out, e.getName() == null ? NONE : utf8(e.getName()));
    }
    varint(out, nx);
    for (int i = 0; i < nx; i++) {
      XAttr x = xattrs.get(i);
      out.write(index(NAMESPACES, x.getNameSpace()));
      bytes(out, utf8(x.getName()));
      byte[] v = x.getValue();
      if (v == null) {
        varint(out, 0);
      } else {
        varint(out, v.length + 1L);
        out.write(v, 0, v.length);
      }
    }
    return out.toByteArray();
  }

  /** Bytes {@link #encode} gives one more xattr at most (a room estimate before a change). */
  public static long encodedSize(XAttr x) {
    byte[] v = x.getValue();
    return 1 + 5 + 3L * x.getName().length() + 5 + (v == null ? 0 : v.length);
  }

  /** Bytes {@link #encode} gives one more ACL entry at most. */
  public static long encodedSize(AclEntry e) {
    return 1 + 5 + (e.getName() == null ? 0 : 3L * e.getName().length());
  }

  /**
   * Decodes an attribute encoding, refusing anything {@link #encode} does not write (a bad value, a
   * length past the end, trailing bytes) with an IllegalArgumentException naming what is wrong.
   */
  public static Attributes decode(byte[] b) {
    List<AclEntry> acl = new ArrayList<>();
    List<XAttr> xattrs = new ArrayList<>();
    if (b.length == 0) {
      return new Attributes(acl, xattrs);
    }
    int[] pos = {0};
    long na = readVarint(b, pos, "ACL entry count");
    for (long i = 0; i < na; i++) {
      int bits = readByte(b, pos, "ACL entry");
      int scope = bits >>> 5, type = (bits >>> 3) & 3, perm = bits & 7;
      if (scope >= SCOPES.length) {
        throw bad("ACL entry " + i + " has scope " + scope, pos[0] - 1);
      }
      byte[] name = readBytes(b, pos, "ACL entry name");
      AclEntry.Builder e =
          new AclEntry.Builder()
              .setScope(SCOPES[scope])
              .setType(TYPES[type])
              .setPermission(FsAction.values()[perm]);
      if (name.length > 0) {
        e.setName(new String(name, StandardCharsets.UTF_8));
      }
      acl.add(e.build());
    }
    long nx = readVarint(b, pos, "xattr count");
    for (long i = 0; i < nx; i++) {
      int ns = readByte(b, pos, "xattr namespace");
      if (ns >= NAMESPACES.length) {
        throw bad("xattr " + i + " has namespace " + ns, pos[0] - 1);
      }
      byte[] name = readBytes(b, pos, "xattr name");
      long vlen = readVarint(b, pos, "xattr value length");
      byte[] value = null;
      if (vlen > 0) {
        value = take(b, pos, vlen - 1, "xattr value");
      }
      xattrs.add(
          new XAttr.Builder()
              .setNameSpace(NAMESPACES[ns])
              .setName(new String(name, StandardCharsets.UTF_8))
              .setValue(value)
              .build());
    }
    if (pos[0] != b.length) {
      throw bad((b.length - pos[0]) + " bytes follow the last xattr", pos[0]);
    }
    if (acl.isEmpty() && xattrs.isEmpty()) {
      throw bad("no ACL entry and no xattr (an inode without attributes has no chain)", 0);
    }
    return new Attributes(acl, xattrs);
  }

  private static int perm(AclEntry e) {
    FsAction p = e.getPermission();
    return p == null ? 0 : p.ordinal(); // FsAction's ordinal is its rwx bits
  }

  private static <T> int index(T[] table, T v) {
    for (int i = 0; i < table.length; i++) {
      if (table[i] == v) {
        return i;
      }
    }
    throw new IllegalArgumentException("no attribute code for " + v);
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static void bytes(ByteArrayOutputStream out, byte[] b) {
    varint(out, b.length);
    out.write(b, 0, b.length);
  }

  private static void varint(ByteArrayOutputStream out, long v) {
    while ((v & ~0x7fL) != 0) {
      out.write((int) (v & 0x7f) | 0x80);
      v >>>= 7;
    }
    out.write((int) v);
  }

  private static int readByte(byte[] b, int[] pos, String what) {
    if (pos[0] >= b.length) {
      throw bad(what + " past the end", pos[0]);
    }
    return b[pos[0]++] & 0xff;
  }

  private static long readVarint(byte[] b, int[] pos, String what) {
    long v = 0;
    for (int shift = 0; shift < 35; shift += 7) {
      int x = readByte(b, pos, what);
      v |= (long) (x & 0x7f) << shift;
      if ((x & 0x80) == 0) {
        return v;
      }
    }
    throw bad(what + " is a varint longer than 5 bytes", pos[0]);
  }

  private static byte[] readBytes(byte[] b, int[] pos, String what) {
    return take(b, pos, readVarint(b, pos, what + " length"), what);
  }

  private static byte[] take(byte[] b, int[] pos, long n, String what) {
    if (n > b.length - pos[0]) {
      throw bad(what + " of " + n + " bytes runs past the end", pos[0]);
    }
    byte[] out = new byte[(int) n];
    System.arraycopy(b, pos[0], out, 0, (int) n);
    pos[0] += (int) n;
    return out;
  }

  private static IllegalArgumentException bad(String why, int at) {
    return new IllegalArgumentException("attribute encoding: " + why + " (at byte " + at + ")");
  }
}
