package org.nvmnn.workload.fuzz;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.DirectoryListing;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.protocol.SnapshottableDirectoryStatus;

/**
 * A full listing of one NameNode's namespace, as the superuser, changing nothing: every entry
 * (getListing with block locations, followed page by page) with its name bytes, type, inode id,
 * owner, group, permission, times, length, replication, block size, storage policy and blocks (id,
 * generation stamp, length, locations) and its attributes (ACL entries, xattrs with their values,
 * raw xattrs); every directory also with its content summary (namespace, space and per-storage-type
 * quotas and what is used of them); then every snapshot's tree the same way and the diff reports
 * between the snapshots of each snapshottable directory.
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
    walk(nn, "/", out, maxEntries);
    snapshots(nn, out, maxEntries);
    return out;
  }

  /**
   * Every snapshot's tree, listed as the current one is (paths under {@code dir/.snapshot/name}),
   * and the diff reports between consecutive snapshots (in name order) and from each to the current
   * tree, keyed {@code diff:dir:from:to}.
   */
  private static void snapshots(ClientProtocol nn, Map<String, Canon> out, int maxEntries)
      throws IOException {
    SnapshottableDirectoryStatus[] dirs = nn.getSnapshottableDirListing();
    if (dirs == null) {
      return;
    }
    for (SnapshottableDirectoryStatus d : dirs) {
      String root = d.getFullPath().toString();
      String dot = (root.equals("/") ? "" : root) + "/.snapshot";
      List<String> names = new ArrayList<>();
      DirectoryListing l = nn.getListing(dot, HdfsFileStatus.EMPTY_NAME, false);
      for (HdfsFileStatus s : l == null ? new HdfsFileStatus[0] : l.getPartialListing()) {
        names.add(s.getLocalName());
        String p = dot + "/" + s.getLocalName();
        Canon c = new Canon();
        Canon.status(c, "", s);
        Canon.summary(c, "summary.", nn.getContentSummary(p));
        out.put(p, c);
        walk(nn, p, out, maxEntries);
      }
      Collections.sort(names);
      names.add("");
      for (int i = 0; i + 1 < names.size(); i++) {
        for (String to : new String[] {names.get(i + 1), ""}) {
          out.put(
              "diff:" + root + ":" + names.get(i) + ":" + to,
              Canon.of(nn.getSnapshotDiffReport(root, names.get(i), to)));
          if (to.isEmpty()) {
            break;
          }
        }
      }
    }
  }

  /** Everything below {@code start}, breadth first, into {@code out}. */
  private static void walk(ClientProtocol nn, String start, Map<String, Canon> out, int maxEntries)
      throws IOException {
    Deque<String> dirs = new ArrayDeque<>();
    dirs.add(start);
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
