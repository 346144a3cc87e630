package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import org.apache.hadoop.hdfs.server.namenode.nvm.Crc32c;

/**
 * How {@code dump} prints an inode's attributes ({@link AttributeEncoding}; docs/offline-tools.md):
 * ACL entries as HDFS prints them ({@code user:bob:r-x}, {@code default:group::r-x}, names escaped
 * like owner strings), xattrs as {@code namespace.name:length:hex}, a value's bytes in hex up to
 * {@link #VALUE_HEX_MAX} bytes, a longer one's first {@link #VALUE_HEX_MAX} bytes and the CRC-32C
 * of the whole value (so that two different values never print alike by accident), an xattr without
 * a value as {@code namespace.name:-}.
 */
final class AttributeDump {
  private AttributeDump() {}

  /** Value bytes printed in hex; a longer value is shown by its prefix and its CRC-32C. */
  static final int VALUE_HEX_MAX = 32;

  /** "user:bob:r-x,default:group::r-x". */
  static String aclText(AttributeEncoding a) {
    StringBuilder b = new StringBuilder();
    for (AttributeEncoding.AclEntry e : a.acl) {
      b.append(b.length() == 0 ? "" : ",")
          .append(e.scope == 0 ? "" : AttributeEncoding.SCOPES[e.scope] + ":")
          .append(AttributeEncoding.TYPES[e.type])
          .append(':')
          .append(e.name == null ? "" : TextEscape.value(e.name))
          .append(':')
          .append(e.permissionSymbol());
    }
    return b.toString();
  }

  /** "user.tag:5:68656c6c6f,trusted.flag:-". */
  static String xattrsText(AttributeEncoding a) {
    StringBuilder b = new StringBuilder();
    for (AttributeEncoding.XAttr x : a.xattrs) {
      b.append(b.length() == 0 ? "" : ",")
          .append(AttributeEncoding.NAMESPACES[x.namespace])
          .append('.')
          .append(TextEscape.value(x.name))
          .append(':');
      if (x.value == null) {
        b.append('-');
        continue;
      }
      b.append(x.value.length).append(':').append(hexPrefix(x.value));
      if (x.value.length > VALUE_HEX_MAX) {
        b.append("...crc32c=").append(crc(x.value));
      }
    }
    return b.toString();
  }

  /** [{"scope", "type", "name", "permission"}, ...]: name null for an unnamed entry. */
  static String aclJson(AttributeEncoding a) {
    StringBuilder b = new StringBuilder("[");
    for (AttributeEncoding.AclEntry e : a.acl) {
      b.append(b.length() == 1 ? "" : ", ")
          .append(
              new Json()
                  .put("scope", AttributeEncoding.SCOPES[e.scope])
                  .put("type", AttributeEncoding.TYPES[e.type])
                  .put("name", e.name)
                  .put("permission", e.permissionSymbol()));
    }
    return b.append(']').toString();
  }

  /**
   * [{"namespace", "name", "length", "valueHex"[, "valueCrc32c"]}, ...]: length and valueHex null
   * for an xattr without a value; valueCrc32c only for a value longer than {@link #VALUE_HEX_MAX}.
   */
  static String xattrsJson(AttributeEncoding a) {
    StringBuilder b = new StringBuilder("[");
    for (AttributeEncoding.XAttr x : a.xattrs) {
      Json j =
          new Json()
              .put("namespace", AttributeEncoding.NAMESPACES[x.namespace])
              .put("name", x.name);
      if (x.value == null) {
        j.putRaw("length", "null").putRaw("valueHex", "null");
      } else {
        j.put("length", x.value.length).put("valueHex", hexPrefix(x.value));
        if (x.value.length > VALUE_HEX_MAX) {
          j.put("valueCrc32c", crc(x.value));
        }
      }
      b.append(b.length() == 1 ? "" : ", ").append(j);
    }
    return b.append(']').toString();
  }

  private static String hexPrefix(byte[] v) {
    int n = Math.min(v.length, VALUE_HEX_MAX);
    StringBuilder b = new StringBuilder(2 * n);
    for (int i = 0; i < n; i++) {
      b.append(Character.forDigit((v[i] >> 4) & 0xf, 16))
          .append(Character.forDigit(v[i] & 0xf, 16));
    }
    return b.toString();
  }

  private static String crc(byte[] v) {
    return String.format("%08x", Crc32c.update(0, v, 0, v.length));
  }
}
