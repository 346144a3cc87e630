package org.nvmnn.workload.fuzz;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.DirectoryListing;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;

/**
 * A full listing of one NameNode's namespace, as the superuser, changing nothing: every entry
 * (getListing with block locations, followed page by page) with its name bytes, type, inode id,
 * owner, group, permission, times, length, replication, block size, storage policy and blocks (id,
 * generation stamp, length, locations); every directory also with its content summary (namespace,
 * space and per-storage-type quotas and what is used of them).
 */
final class NamespaceListing {
  private NamespaceListing() {}

  /** Path -> entry; stops with an IOException if the NameNode does not answer. */
  static Map<String, Canon> list(ClientProtocol nn, int maxEntries) throws IOException {
    Map<String, Canon> out = new LinkedHashMap<>();
    Canon root = Canon.of(nn.getFileInfo("/"));
    Canon.summary(root, "summary.", nn.getContentSummary("/"));
    out.put("/", root);
    Deque<String> dirs = new ArrayDeque<>();
    dirs.add("/");
    while (!dirs.isEmpty()) {
      String dir = dirs.poll();
      byte[] after = HdfsFileStatus.EMPTY_NAME;
      while (true) {
        DirectoryListing l = nn.getListing(dir, after, true);
        if (l == null) {
          break; // removed meanwhile: nothing changes it while we list, so this is reported
        }
        for (HdfsFileStatus s : l.getPartialListing()) {
          String p = dir.equals("/") ? "/" + s.getLocalName() : dir + "/" + s.getLocalName();
          Canon c = new Canon();
          Canon.status(c, "", s);
          if (s.isDir()) {
            Canon.summary(c, "summary.", nn.getContentSummary(p));
            dirs.add(p);
          }
          out.put(p, c);
          if (out.size() > maxEntries) {
            throw new IOException("more than " + maxEntries + " entries");
          }
        }
        if (!l.hasMore()) {
          break;
        }
        after = l.getLastName();
      }
    }
    return out;
  }
}
