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
 * generation stamp, length, locations) and its attributes (ACL entries, xattrs with their values,
 * raw xattrs); every directory also with its content summary (namespace, space and per-storage-type
 * quotas and what is used of them).
 */
final class NamespaceListing {
  private NamespaceListing() {}

  /** Path -> entry; stops with an IOException if the NameNode does not answer. */
  static Map<String, Canon> list(ClientProtocol nn, int maxEntries) throws IOException {
    Map<String, Canon> out = new LinkedHashMap<>();
    Canon root = Canon.of(nn.getFileInfo("/"));
    attributes(nn, root, "/");
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
          attributes(nn, c, p);
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

  private static void attributes(ClientProtocol nn, Canon c, String p) throws IOException {
    Canon.attributes(
        c,
        "",
        nn.getAclStatus(p),
        nn.getXAttrs(p, null),
        nn.getXAttrs(RAW + (p.equals("/") ? "" : p), null));
  }

  private static final String RAW = "/.reserved/raw";
}
