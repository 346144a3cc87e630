package org.apache.hadoop.hdfs.server.namenode.nvm;

import java.nio.charset.StandardCharsets;

/** The HDFS identity written into a region's header at creation (immutable afterwards). */
public final class RegionIdentity {
  private final int namespaceId;
  private final String clusterId;
  private final String blockPoolId;

  /** Null ids are stored as empty strings; each id is at most HDR_ID_STRING_MAX UTF-8 bytes. */
  public RegionIdentity(int namespaceId, String clusterId, String blockPoolId) {
    this.namespaceId = namespaceId;
    this.clusterId = clusterId == null ? "" : clusterId;
    this.blockPoolId = blockPoolId == null ? "" : blockPoolId;
    check("clusterId", this.clusterId);
    check("blockPoolId", this.blockPoolId);
  }

  private static void check(String what, String s) {
    if (s.getBytes(StandardCharsets.UTF_8).length > RegionLayout.HDR_ID_STRING_MAX) {
      throw new IllegalArgumentException(
          what + " is longer than " + RegionLayout.HDR_ID_STRING_MAX + " UTF-8 bytes: " + s);
    }
    if (s.indexOf('\0') >= 0) {
      throw new IllegalArgumentException(what + " contains a NUL character");
    }
  }

  public int namespaceId() {
    return namespaceId;
  }

  public String clusterId() {
    return clusterId;
  }

  public String blockPoolId() {
    return blockPoolId;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof RegionIdentity)) {
      return false;
    }
    RegionIdentity r = (RegionIdentity) o;
    return namespaceId == r.namespaceId
        && clusterId.equals(r.clusterId)
        && blockPoolId.equals(r.blockPoolId);
  }

  @Override
  public int hashCode() {
    return (namespaceId * 31 + clusterId.hashCode()) * 31 + blockPoolId.hashCode();
  }

  @Override
  public String toString() {
    return "RegionIdentity{namespaceId="
        + namespaceId
        + ", clusterId="
        + clusterId
        + ", blockPoolId="
        + blockPoolId
        + "}";
  }
}
