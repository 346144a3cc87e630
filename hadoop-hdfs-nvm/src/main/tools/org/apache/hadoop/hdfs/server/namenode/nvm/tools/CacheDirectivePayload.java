package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import java.util.ArrayList;
import java.util.List;

/**
 * A cache directive decoded from a RECORD_CACHE_DIRECTIVE payload (region-format.md §5.5): Hadoop
 * 2.7.3's {@code CacheDirectiveInfoProto} (1 id int64, 2 path string, 3 replication uint32, 4 pool
 * string, 5 expiration {@code CacheDirectiveInfoExpirationProto} {1 millis int64, 2 isRelative
 * bool}; the directive's fields are optional, the expiration's two are required), read with {@link
 * ProtoInput} as its generated parser reads it: a scalar given twice keeps its last value, an
 * expiration given twice is merged, an expiration without millis or isRelative is refused (the
 * parser's "missing required fields"). A field the payload does not have is null. {@link
 * #problems()} lists what the NameNode's restore refuses in a directive that parses.
 */
final class CacheDirectivePayload {
  Long id;
  String path;

  /** A uint32, as Java reads it: an int (values of 2^31 and more are negative). */
  Integer replication;

  String pool;

  /** Whether the payload has an expiration (then {@link #expiryMs} and {@link #relative} too). */
  boolean hasExpiration;

  Long expiryMs;
  Boolean relative;

  /** The payload index of each field's value (the byte after its tag), -1 if absent. */
  int idAt = -1;

  int pathAt = -1;
  int replicationAt = -1;
  int poolAt = -1;
  int expirationAt = -1;

  private CacheDirectivePayload() {}

  /** Decodes {@code payload}; throws where protobuf's parser would refuse it. */
  static CacheDirectivePayload decode(byte[] payload) throws ProtoInput.Malformed {
    ProtoInput in = new ProtoInput(payload);
    CacheDirectivePayload d = new CacheDirectivePayload();
    for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
      int at = in.position();
      switch (tag) {
        case 1 << 3 | ProtoInput.VARINT:
          d.id = in.readVarint64("id");
          d.idAt = at;
          break;
        case 2 << 3 | ProtoInput.LENGTH_DELIMITED:
          d.path = in.readString("path");
          d.pathAt = at;
          break;
        case 3 << 3 | ProtoInput.VARINT:
          d.replication = in.readVarint32("replication");
          d.replicationAt = at;
          break;
        case 4 << 3 | ProtoInput.LENGTH_DELIMITED:
          d.pool = in.readString("pool");
          d.poolAt = at;
          break;
        case 5 << 3 | ProtoInput.LENGTH_DELIMITED:
          d.expiration(in);
          d.expirationAt = at;
          break;
        default:
          in.skipField(tag);
      }
    }
    if (d.hasExpiration && (d.expiryMs == null || d.relative == null)) {
      throw new ProtoInput.Malformed(
          d.expirationAt,
          "has an expiration without "
              + (d.expiryMs == null ? "millis" : "isRelative")
              + " (a required field)");
    }
    return d;
  }

  /** One expiration message, merged into what an earlier one gave. */
  private void expiration(ProtoInput in) throws ProtoInput.Malformed {
    int outer = in.enterMessage("expiration");
    hasExpiration = true;
    for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
      switch (tag) {
        case 1 << 3 | ProtoInput.VARINT:
          expiryMs = in.readVarint64("expiration millis");
          break;
        case 2 << 3 | ProtoInput.VARINT:
          relative = in.readBool("expiration isRelative");
          break;
        default:
          in.skipField(tag);
      }
    }
    in.leaveMessage(outer);
  }

  /**
   * What the NameNode's restore refuses in a directive that parses (PBHelper.convert, then {@code
   * CacheManager.addDirectiveFromEditLog} and {@code CacheDirective}'s constructor): no id or one
   * that is not positive; no path or an empty one (Hadoop's Path refuses it); no replication or one
   * outside 1..32767 (a short, positive); no pool; no expiration, or a relative one above {@link
   * CachePoolPayload#MAX_RELATIVE_EXPIRY_MS}.
   */
  List<ProtoInput.Malformed> problems() {
    List<ProtoInput.Malformed> out = new ArrayList<ProtoInput.Malformed>();
    if (id == null) {
      out.add(new ProtoInput.Malformed(0, "has no id (field 1)"));
    } else if (id <= 0) {
      out.add(new ProtoInput.Malformed(idAt, "has id " + id + ", which is not positive"));
    }
    if (path == null) {
      out.add(new ProtoInput.Malformed(0, "has no path (field 2)"));
    } else if (path.isEmpty()) {
      out.add(new ProtoInput.Malformed(pathAt, "has an empty path"));
    }
    if (replication == null) {
      out.add(new ProtoInput.Malformed(0, "has no replication (field 3)"));
    } else if (replication < 1 || replication > Short.MAX_VALUE) {
      out.add(
          new ProtoInput.Malformed(
              replicationAt,
              "has replication "
                  + Integer.toUnsignedString(replication)
                  + ", outside 1.."
                  + Short.MAX_VALUE));
    }
    if (pool == null) {
      out.add(new ProtoInput.Malformed(0, "has no pool (field 4)"));
    }
    if (!hasExpiration) {
      out.add(new ProtoInput.Malformed(0, "has no expiration (field 5)"));
    } else if (relative && expiryMs > CachePoolPayload.MAX_RELATIVE_EXPIRY_MS) {
      out.add(
          new ProtoInput.Malformed(
              expirationAt,
              "has a relative expiry of "
                  + expiryMs
                  + " ms, above "
                  + CachePoolPayload.MAX_RELATIVE_EXPIRY_MS));
    }
    return out;
  }
}
