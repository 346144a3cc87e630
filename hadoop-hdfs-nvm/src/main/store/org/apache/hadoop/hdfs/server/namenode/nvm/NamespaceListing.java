package org.apache.hadoop.hdfs.server.namenode.nvm;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;

/**
 * A text listing of a namespace held in a region, one line per inode, sorted by path: what an
 * operator compares before and after a restart. Built from inode pages given parents first (the
 * order recovery hands them out in).
 */
public final class NamespaceListing {
  private NamespaceListing() {}

  /** One line per inode: path, type, mode, owner:group, mtime, and the file or quota details. */
  public static List<String> list(InodeStore store, long[] parentFirstPages) {
    Map<Long, String> paths = new HashMap<Long, String>();
    List<String> lines = new ArrayList<String>(parentFirstPages.length);
    for (long page : parentFirstPages) {
      InodeView v = store.inode(page);
      String parent = paths.get(v.parentPage());
      String path = parent == null ? "/" : (parent.equals("/") ? "/" : parent + "/") + v.name();
      paths.put(page, path);
      lines.add(describe(store, v, path));
    }
    Collections.sort(lines);
    return lines;
  }

  static String describe(InodeStore store, InodeView v, String path) {
    StringBuilder b = new StringBuilder(path).append(v.isDirectory() ? "  dir " : "  file ");
    b.append(
        String.format(
            "%04o %s:%s mtime=%d",
            v.mode(), store.owner(v.page()), store.group(v.page()), v.mtime()));
    if (v.isFile()) {
      b.append(" repl=")
          .append(v.replication())
          .append(" bs=")
          .append(v.preferredBlockSize())
          .append(" blocks=[");
      for (int i = 0; i < v.blockCount(); i++) {
        b.append(i == 0 ? "" : ",")
            .append(v.blockId(i))
            .append(':')
            .append(v.blockNumBytes(i))
            .append(':')
            .append(v.blockGenerationStamp(i));
      }
      b.append(']');
      if (v.isUnderConstruction()) {
        b.append(" uc=")
            .append(store.clientName(v.page()))
            .append('@')
            .append(store.clientMachine(v.page()));
      }
    } else if (v.nsQuota() >= 0 || v.dsQuota() >= 0) {
      b.append(" quota=").append(v.nsQuota()).append('/').append(v.dsQuota());
    }
    return b.toString();
  }

  /** CRC-32 of the lines joined by newlines: a short fingerprint of a whole namespace. */
  public static long checksum(List<String> lines) {
    CRC32 crc = new CRC32();
    for (String l : lines) {
      crc.update(l.getBytes(StandardCharsets.UTF_8));
      crc.update('\n');
    }
    return crc.getValue();
  }
}
