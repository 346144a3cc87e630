package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import java.util.ArrayList;
import java.util.List;

/**
 * A cache pool decoded from a RECORD_CACHE_POOL payload (region-format.md §5.5): Hadoop 2.7.3's
 * {@code CachePoolInfoProto} (ClientNamenodeProtocol.proto: 1 poolName string, 2 ownerName string,
 * 3 groupName string, 4 mode int32, 5 limit int64, 6 maxRelativeExpiry int64, all optional), read
 * with {@link ProtoInput} as its generated parser reads it: a field given twice keeps its last
 * value, a field of another wire type or number is skipped. A field the payload does not have is
 * null. {@link #problems()} lists what the NameNode's restore refuses in a pool that parses.
 */
final class CachePoolPayload {
  /** CacheDirectiveInfo.Expiration.MAX_RELATIVE_EXPIRY_MS: the largest relative expiry. */
  static final long MAX_RELATIVE_EXPIRY_MS = Long.MAX_VALUE / 4;

  String name;
  String owner;
  String group;
  Integer mode;
  Long limit;
  Long maxRelativeExpiry;

  /** The payload index of each field's value (the byte after its tag), -1 if absent. */
  int nameAt = -1;

  int limitAt = -1;
  int maxRelativeExpiryAt = -1;

  private CachePoolPayload() {}

  /** Decodes {@code payload}; throws where protobuf's parser would refuse it. */
  static CachePoolPayload decode(byte[] payload) throws ProtoInput.Malformed {
    ProtoInput in = new ProtoInput(payload);
    CachePoolPayload p = new CachePoolPayload();
    for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
      int at = in.position();
      switch (tag) {
        case 1 << 3 | ProtoInput.LENGTH_DELIMITED:
          p.name = in.readString("pool name");
          p.nameAt = at;
          break;
        case 2 << 3 | ProtoInput.LENGTH_DELIMITED:
          p.owner = in.readString("owner name");
          break;
        case 3 << 3 | ProtoInput.LENGTH_DELIMITED:
          p.group = in.readString("group name");
          break;
        case 4 << 3 | ProtoInput.VARINT:
          p.mode = in.readVarint32("mode");
          break;
        case 5 << 3 | ProtoInput.VARINT:
          p.limit = in.readVarint64("limit");
          p.limitAt = at;
          break;
        case 6 << 3 | ProtoInput.VARINT:
          p.maxRelativeExpiry = in.readVarint64("max relative expiry");
          p.maxRelativeExpiryAt = at;
          break;
        default:
          in.skipField(tag);
      }
    }
    return p;
  }

  /**
   * What the cache manager refuses when the NameNode's restore adds the pool ({@code
   * CacheManager.addCachePool}, {@code CachePoolInfo.validate}): no name or an empty one, a
   * negative limit, a maximum relative expiry that is negative or above {@link
   * #MAX_RELATIVE_EXPIRY_MS}.
   */
  List<ProtoInput.Malformed> problems() {
    List<ProtoInput.Malformed> out = new ArrayList<ProtoInput.Malformed>();
    if (name == null) {
      out.add(new ProtoInput.Malformed(0, "has no pool name (field 1)"));
    } else if (name.isEmpty()) {
      out.add(new ProtoInput.Malformed(nameAt, "has an empty pool name"));
    }
    if (limit != null && limit < 0) {
      out.add(new ProtoInput.Malformed(limitAt, "has a negative limit " + limit));
    }
    if (maxRelativeExpiry != null
        && (maxRelativeExpiry < 0 || maxRelativeExpiry > MAX_RELATIVE_EXPIRY_MS)) {
      out.add(
          new ProtoInput.Malformed(
              maxRelativeExpiryAt,
              "has a max relative expiry of "
                  + maxRelativeExpiry
                  + " ms, outside 0.."
                  + MAX_RELATIVE_EXPIRY_MS));
    }
    return out;
  }
}
