package org.nvmnn.workload;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSClient;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.DirectoryListing;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.ipc.RemoteException;

/**
 * Reads a whole subtree as the NameNode reports it (listing, inode ids, permissions, replication,
 * lengths, mtimes, open or closed) and every closed file's bytes from the DataNode; and the same
 * for every snapshot of a snapshottable directory, read below its "<root>/.snapshot/<name>".
 */
final class SubtreeReader {
  private final DistributedFileSystem fs;

  SubtreeReader(DistributedFileSystem fs) {
    this.fs = fs;
  }

  Map<String, ObservedEntry> read(String root) throws IOException {
    Map<String, ObservedEntry> out = new TreeMap<>();
    DFSClient client = fs.getClient();
    HdfsFileStatus top = client.getFileInfo(root);
    if (top == null) {
      return out;
    }
    out.put(root, observe(root, top));
    Deque<String> dirs = new ArrayDeque<>();
    if (top.isDir()) {
      dirs.add(root);
    }
    while (!dirs.isEmpty()) {
      String dir = dirs.poll();
      byte[] after = HdfsFileStatus.EMPTY_NAME;
      DirectoryListing listing;
      do {
        listing = client.listPaths(dir, after);
        if (listing == null) {
          throw new IOException(
              dir + " vanished while being listed (only this worker writes below it)");
        }
        for (HdfsFileStatus s : listing.getPartialListing()) {
          String path = dir + "/" + s.getLocalName();
          out.put(path, observe(path, s));
          if (s.isDir()) {
            dirs.add(path);
          }
        }
        after = listing.getLastName();
      } while (listing.hasMore());
    }
    return out;
  }

  /**
   * Every snapshot of root, by name, each read whole (as {@link #read} reads the live tree) and
   * keyed by the paths its entries have in the live tree ("<root>/.snapshot/<name>/d1" as
   * "<root>/d1"); null if root is not snapshottable.
   */
  Map<String, Map<String, ObservedEntry>> readSnapshots(String root) throws IOException {
    List<String> names = new ArrayList<>();
    String dotSnapshot = Op.dotSnapshot(root);
    byte[] after = HdfsFileStatus.EMPTY_NAME;
    DirectoryListing listing;
    do {
      try {
        listing = fs.getClient().listPaths(dotSnapshot, after);
      } catch (RemoteException e) {
        if (e.getClassName().endsWith(".SnapshotException")) {
          return null; // 2.7.3: "Directory is not a snapshottable directory"
        }
        throw e;
      }
      if (listing == null) {
        throw new IOException(dotSnapshot + " vanished while being listed");
      }
      for (HdfsFileStatus s : listing.getPartialListing()) {
        names.add(s.getLocalName());
      }
      after = listing.getLastName();
    } while (listing.hasMore());
    Map<String, Map<String, ObservedEntry>> out = new TreeMap<>();
    for (String name : names) {
      String top = Op.snapshotPath(root, name);
      Map<String, ObservedEntry> tree = new TreeMap<>();
      for (Map.Entry<String, ObservedEntry> e : read(top).entrySet()) {
        tree.put(root + e.getKey().substring(top.length()), e.getValue());
      }
      out.put(name, tree);
    }
    return out;
  }

  private ObservedEntry observe(String path, HdfsFileStatus s) throws IOException {
    short perm = s.getPermission().toShort();
    if (s.isDir()) {
      return ObservedEntry.directory(s.getFileId(), perm);
    }
    boolean open = !fs.isFileClosed(new Path(path));
    long crc = -1;
    if (!open) {
      byte[] b = readAll(path);
      crc =
          FileContent.crc(
              b, b.length); // over what was served: a short read shows as a content mismatch
    }
    return new ObservedEntry(
        false,
        s.getFileId(),
        perm,
        s.getReplication(),
        s.getLen(),
        s.getModificationTime(),
        crc,
        open);
  }

  /** The file's bytes; the result's length is what the DataNode served. */
  byte[] readAll(String path) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    byte[] buf = new byte[4096];
    try (InputStream in = fs.open(new Path(path))) {
      for (int n; (n = in.read(buf)) > 0; ) {
        bytes.write(buf, 0, n);
      }
    }
    return bytes.toByteArray();
  }
}
