package org.nvmnn.workload.fuzz;

import java.io.IOException;
import java.io.UnsupportedEncodingException;
import java.net.URLDecoder;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.fs.XAttr;
import org.apache.hadoop.fs.XAttrCodec;
import org.apache.hadoop.fs.permission.AclEntry;
import org.apache.hadoop.fs.permission.AclEntryScope;
import org.apache.hadoop.fs.permission.AclEntryType;
import org.apache.hadoop.fs.permission.FsAction;

/**
 * How an operation line writes the arguments of the ACL and xattr calls, as strings, and what the
 * call sends for them. Built here rather than by Hadoop's client helpers, which refuse what the
 * fuzzer wants the NameNode to see (a name holding ':' or ',', an empty xattr name, an xattr name
 * of 10,000 characters): what these parsers refuse fails in the client on both sides alike.
 *
 * <ul>
 *   <li>An ACL spec: entries separated by ','; each {@code [default:]type:name[:perm]} with type
 *       user, group, mask or other, perm as {@code rwx}/{@code r-x}/...; in a name {@code %XX} is a
 *       byte of its UTF-8 (so ':', ',' and '%' can be sent).
 *   <li>An xattr name: {@code namespace.name}, namespace user, trusted, security, system or raw
 *       (any case), the name whatever follows the first '.'.
 *   <li>An xattr value: null (none), {@code #N} (N bytes, byte i = 31i+7), or what {@code
 *       XAttrCodec.decodeValue} reads ({@code 0x…} hex, {@code 0s…} base64, {@code "…"} text).
 * </ul>
 */
final class AttrArgs {
  private AttrArgs() {}

  static List<AclEntry> acl(String spec, boolean withPermission) {
    List<AclEntry> out = new ArrayList<>();
    if (spec.isEmpty()) {
      return out;
    }
    for (String e : spec.split(",", -1)) {
      String[] f = e.split(":", -1);
      int i = 0;
      AclEntry.Builder b = new AclEntry.Builder();
      if (f[0].equals("default")) {
        b.setScope(AclEntryScope.DEFAULT);
        i++;
      } else {
        b.setScope(AclEntryScope.ACCESS);
      }
      int want = i + (withPermission ? 3 : 2);
      // a removal's entries may carry a permission; it is not sent
      if (f.length != want && (withPermission || f.length != want + 1)) {
        throw new IllegalArgumentException("bad ACL entry " + e);
      }
      b.setType(AclEntryType.valueOf(f[i].toUpperCase(Locale.ROOT)));
      String name = unescape(f[i + 1]);
      if (!name.isEmpty()) {
        b.setName(name);
      }
      if (withPermission) {
        FsAction p = FsAction.getFsAction(f[i + 2]);
        if (p == null) {
          throw new IllegalArgumentException("bad permission " + f[i + 2]);
        }
        b.setPermission(p);
      }
      out.add(b.build());
    }
    return out;
  }

  static XAttr xattr(String name, String value) throws IOException {
    int dot = name.indexOf('.');
    if (dot < 0) {
      throw new IllegalArgumentException("xattr name without a namespace: " + name);
    }
    XAttr.NameSpace ns = XAttr.NameSpace.valueOf(name.substring(0, dot).toUpperCase(Locale.ROOT));
    return new XAttr.Builder()
        .setNameSpace(ns)
        .setName(name.substring(dot + 1))
        .setValue(value(value))
        .build();
  }

  /** The names of a getXAttrs call: null (all), else ','-separated xattr names. */
  static List<XAttr> names(String spec) throws IOException {
    if (spec == null) {
      return null;
    }
    List<XAttr> out = new ArrayList<>();
    for (String n : spec.split(",", -1)) {
      out.add(xattr(n, null));
    }
    return out;
  }

  static byte[] value(String v) throws IOException {
    if (v == null) {
      return null;
    }
    if (v.startsWith("#")) {
      byte[] b = new byte[Integer.parseInt(v.substring(1))];
      for (int i = 0; i < b.length; i++) {
        b[i] = (byte) (31 * i + 7);
      }
      return b;
    }
    return XAttrCodec.decodeValue(v);
  }

  private static String unescape(String s) {
    if (s.indexOf('%') < 0) {
      return s;
    }
    try {
      return URLDecoder.decode(s.replace("+", "%2B"), "UTF-8");
    } catch (UnsupportedEncodingException e) {
      throw new IllegalStateException(e);
    }
  }
}
