package org.nvmnn.workload;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSClient;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.DirectoryListing;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;

/**
 * Reads a whole subtree as the NameNode reports it (listing, inode ids, permissions, replication,
 * lengths, mtimes, open or closed) and every closed file's bytes from the DataNode.
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
