package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;

/**
 * A fingerprint of a namespace listing: the SHA-256 of its lines sorted by unsigned UTF-8 bytes,
 * each followed by a newline. Byte order is what {@code LC_ALL=C sort} uses, so the checksum of a
 * region can be reproduced with the shell: {@code NvmRegionTool dump REGION | grep -v '^#' |
 * LC_ALL=C sort | sha256sum}.
 */
public final class ListingChecksum {
  private static final Comparator<String> BY_UTF8 =
      new Comparator<String>() {
        @Override
        public int compare(String a, String b) {
          return NameCheck.compareBytes(
              a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
        }
      };

  private ListingChecksum() {}

  /** A copy of {@code lines} in unsigned UTF-8 byte order. */
  public static List<String> sorted(Collection<String> lines) {
    List<String> out = new ArrayList<String>(lines);
    Collections.sort(out, BY_UTF8);
    return out;
  }

  /** Hex SHA-256 of the lines in byte order, each terminated by '\n'. */
  public static String sha256(Collection<String> lines) {
    MessageDigest md;
    try {
      md = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("no SHA-256 in this JVM", e);
    }
    for (String l : sorted(lines)) {
      md.update(l.getBytes(StandardCharsets.UTF_8));
      md.update((byte) '\n');
    }
    StringBuilder hex = new StringBuilder();
    for (byte b : md.digest()) {
      hex.append(String.format("%02x", b & 0xff));
    }
    return hex.toString();
  }
}
