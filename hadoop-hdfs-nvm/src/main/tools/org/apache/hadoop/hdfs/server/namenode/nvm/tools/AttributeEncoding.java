package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * An inode's attribute encoding (region-format.md §5.6: its ACL entries and xattrs), decoded by the
 * tools' own reader: the store's {@code AttributeCodec} builds Hadoop's {@code AclEntry} and {@code
 * XAttr}, which the tools must not load. It accepts and refuses exactly what {@code
 * AttributeCodec.decode} does (AttributeEncodingTest holds the two to each other), and a refusal
 * names the byte where decoding stopped.
 *
 * <pre>
 * encoding  := aclCount:varint  aclEntry*  xattrCount:varint  xattr*
 * aclEntry  := bits:u8  nameLen:varint  name:utf8      bits = scope&lt;&lt;5 | type&lt;&lt;3 | perm
 * xattr     := namespace:u8  nameLen:varint  name:utf8  valueLen+1:varint  value
 * </pre>
 */
final class AttributeEncoding {
  /** Scope names by code (0 access, 1 default); any other scope is refused. */
  static final String[] SCOPES = {"access", "default"};

  /** ACL entry type names by code, as HDFS prints them. */
  static final String[] TYPES = {"user", "group", "mask", "other"};

  /** Xattr namespace names by code, as HDFS prefixes an xattr's name; any other is refused. */
  static final String[] NAMESPACES = {"user", "trusted", "security", "system", "raw"};

  /** One ACL entry. */
  static final class AclEntry {
    final int scope;
    final int type;

    /** The rwx bits: 4 read, 2 write, 1 execute. */
    final int permission;

    /** Null for an unnamed entry (name length 0). */
    final String name;

    AclEntry(int scope, int type, int permission, String name) {
      this.scope = scope;
      this.type = type;
      this.permission = permission;
      this.name = name;
    }

    /** "rwx", "r-x", "---": the permission as HDFS prints it. */
    String permissionSymbol() {
      return ((permission & 4) != 0 ? "r" : "-")
          + ((permission & 2) != 0 ? "w" : "-")
          + ((permission & 1) != 0 ? "x" : "-");
    }
  }

  /** One xattr. */
  static final class XAttr {
    final int namespace;
    final String name;

    /** Null for an xattr without a value (HDFS keeps null apart from an empty value). */
    final byte[] value;

    XAttr(int namespace, String name, byte[] value) {
      this.namespace = namespace;
      this.name = name;
      this.value = value;
    }
  }

  /** The encoding is not one the store writes; {@link #at} is the byte where decoding stopped. */
  static final class MalformedException extends Exception {
    private static final long serialVersionUID = 1L;

    /** Index of the byte where decoding stopped (the length of the encoding if it ran out). */
    final int at;

    MalformedException(String why, int at) {
      super(why + " (at byte " + at + ")");
      this.at = at;
    }
  }

  final List<AclEntry> acl;
  final List<XAttr> xattrs;

  private AttributeEncoding(List<AclEntry> acl, List<XAttr> xattrs) {
    this.acl = Collections.unmodifiableList(acl);
    this.xattrs = Collections.unmodifiableList(xattrs);
  }

  /** Attributes given by value ({@link InodeLine}): what a decoding of them gives. */
  static AttributeEncoding of(List<AclEntry> acl, List<XAttr> xattrs) {
    return new AttributeEncoding(new ArrayList<AclEntry>(acl), new ArrayList<XAttr>(xattrs));
  }

  /** Decodes {@code b}; no bytes are no attributes (an inode without them has no chain). */
  static AttributeEncoding decode(byte[] b) throws MalformedException {
    List<AclEntry> acl = new ArrayList<AclEntry>();
    List<XAttr> xattrs = new ArrayList<XAttr>();
    if (b.length == 0) {
      return new AttributeEncoding(acl, xattrs);
    }
    int[] pos = {0};
    long na = varint(b, pos, "ACL entry count");
    for (long i = 0; i < na; i++) {
      int bits = u8(b, pos, "ACL entry");
      int scope = bits >>> 5;
      if (scope >= SCOPES.length) {
        throw new MalformedException("ACL entry " + i + " has scope " + scope, pos[0] - 1);
      }
      byte[] name = bytes(b, pos, "ACL entry name");
      acl.add(
          new AclEntry(scope, (bits >>> 3) & 3, bits & 7, name.length == 0 ? null : utf8(name)));
    }
    long nx = varint(b, pos, "xattr count");
    for (long i = 0; i < nx; i++) {
      int ns = u8(b, pos, "xattr namespace");
      if (ns >= NAMESPACES.length) {
        throw new MalformedException("xattr " + i + " has namespace " + ns, pos[0] - 1);
      }
      byte[] name = bytes(b, pos, "xattr name");
      long valueLenPlusOne = varint(b, pos, "xattr value length");
      byte[] value = valueLenPlusOne == 0 ? null : take(b, pos, valueLenPlusOne - 1, "xattr value");
      xattrs.add(new XAttr(ns, utf8(name), value));
    }
    if (pos[0] != b.length) {
      throw new MalformedException((b.length - pos[0]) + " bytes follow the last xattr", pos[0]);
    }
    if (acl.isEmpty() && xattrs.isEmpty()) {
      // the store writes IN_ATTRS = 0 and no chain instead
      throw new MalformedException("no ACL entry and no xattr", 0);
    }
    return new AttributeEncoding(acl, xattrs);
  }

  private static String utf8(byte[] b) {
    return new String(b, StandardCharsets.UTF_8); // as the store decodes it: not validated
  }

  private static int u8(byte[] b, int[] pos, String what) throws MalformedException {
    if (pos[0] >= b.length) {
      throw new MalformedException(what + " past the end", pos[0]);
    }
    return b[pos[0]++] & 0xff;
  }

  /** Unsigned LEB128 of at most 5 bytes (so at most 35 bits). */
  private static long varint(byte[] b, int[] pos, String what) throws MalformedException {
    long v = 0;
    for (int shift = 0; shift < 35; shift += 7) {
      int x = u8(b, pos, what);
      v |= (long) (x & 0x7f) << shift;
      if ((x & 0x80) == 0) {
        return v;
      }
    }
    throw new MalformedException(what + " is a varint longer than 5 bytes", pos[0]);
  }

  private static byte[] bytes(byte[] b, int[] pos, String what) throws MalformedException {
    return take(b, pos, varint(b, pos, what + " length"), what);
  }

  private static byte[] take(byte[] b, int[] pos, long n, String what) throws MalformedException {
    if (n > b.length - pos[0]) {
      throw new MalformedException(what + " of " + n + " bytes runs past the end", pos[0]);
    }
    byte[] out = new byte[(int) n];
    System.arraycopy(b, pos[0], out, 0, (int) n);
    pos[0] += (int) n;
    return out;
  }
}
