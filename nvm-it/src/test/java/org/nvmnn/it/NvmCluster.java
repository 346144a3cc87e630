package org.nvmnn.it;

import static org.junit.Assert.fail;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.ContentSummary;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSClient;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.protocol.DirectoryListing;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;
import org.apache.hadoop.hdfs.protocol.SnapshottableDirectoryStatus;
import org.apache.hadoop.hdfs.server.namenode.nvm.NvmConfigKeys;
import org.junit.Assume;

/**
 * JUnit helpers for MiniDFSCluster tests of the NVM NameNode (drop-in jar on the class path): a
 * configuration with NVM on, a cluster builder, and namespace snapshots that can be compared field
 * by field with a readable diff.
 */
public final class NvmCluster {
  /** Region size used by {@link #nvmConf()}: 64 MiB. */
  public static final String TEST_REGION_SIZE = "64m";

  /** The message of NvmNamesystemLoader's placeholder, until the NVM namesystem lands. */
  public static final String PLACEHOLDER_MESSAGE = "not available in this build yet";

  private NvmCluster() {}

  /** A new {@link HdfsConfiguration} with NVM mode on, emulated persistence, a 64 MiB region. */
  public static Configuration nvmConf() {
    return nvmConf(new HdfsConfiguration());
  }

  /**
   * Inode cache size of test NameNodes: tiny, so every test runs with files being evicted and
   * materialized again from their pages (-Dnvm.test.cache.inodes=N to change it).
   */
  public static final int TEST_CACHE_INODES = Integer.getInteger("nvm.test.cache.inodes", 16);

  /**
   * Puts {@code conf} into NVM mode (emulated persistence, 64 MiB region, a tiny inode cache) and
   * returns it.
   */
  public static Configuration nvmConf(Configuration conf) {
    conf.setBoolean(NvmConfigKeys.NVM_ENABLED_KEY, true);
    conf.set(NvmConfigKeys.NVM_PERSIST_MODE_KEY, "emulated");
    conf.set(NvmConfigKeys.NVM_REGION_SIZE_KEY, TEST_REGION_SIZE);
    conf.setInt(NvmConfigKeys.NVM_CACHE_INODES_KEY, TEST_CACHE_INODES);
    return conf;
  }

  /**
   * A MiniDFSCluster builder for {@code conf} with {@code dataNodes} DataNodes (formats on build).
   */
  public static MiniDFSCluster.Builder builder(Configuration conf, int dataNodes) {
    return new MiniDFSCluster.Builder(conf).numDataNodes(dataNodes);
  }

  /**
   * Builds {@code builder} and waits until the cluster is active. If the NameNode cannot start only
   * because the NVM loader is still the placeholder, the calling test is skipped (Assume); any
   * other failure is rethrown.
   */
  public static MiniDFSCluster buildOrSkipIfPlaceholder(MiniDFSCluster.Builder builder)
      throws IOException {
    try {
      MiniDFSCluster cluster = builder.build();
      cluster.waitActive();
      return cluster;
    } catch (IOException e) {
      Assume.assumeFalse(
          "NVM namesystem not in this build yet: " + e.getMessage(), isPlaceholder(e));
      throw e;
    }
  }

  /** True if {@code t} or one of its causes is the loader placeholder's IOException. */
  public static boolean isPlaceholder(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c instanceof IOException
          && c.getMessage() != null
          && c.getMessage().contains(PLACEHOLDER_MESSAGE)) {
        return true;
      }
    }
    return false;
  }

  /** The messages of {@code t} and all its causes, in one line (for assertions on refusals). */
  public static String messages(Throwable t) {
    StringBuilder s = new StringBuilder();
    for (Throwable c = t; c != null; c = c.getCause()) {
      s.append(c).append(" <- ");
    }
    return s.toString();
  }

  // ---------------------------------------------------------------------------------------------
  // Namespace snapshots

  /** Fields a snapshot records per entry (in this order). */
  public static final List<String> FIELDS =
      Collections.unmodifiableList(
          Arrays.asList(
              "type",
              "id",
              "perm",
              "owner",
              "group",
              "mtime",
              "atime",
              "repl",
              "blocksize",
              "len",
              "policy",
              "symlink",
              "children",
              "uc",
              "blocks",
              "nsQuota",
              "ssQuota",
              "files",
              "dirs",
              "length",
              "spaceConsumed"));

  /** Snapshot of the whole namespace (from "/"). */
  /**
   * The snapshottable directories the NameNode lists, each as "path quota" (a client-side {@link
   * #snapshot} does not list them).
   */
  public static List<String> snapshottableDirs(DistributedFileSystem fs) throws IOException {
    List<String> out = new ArrayList<>();
    SnapshottableDirectoryStatus[] dirs = fs.getSnapshottableDirListing();
    for (SnapshottableDirectoryStatus d :
        dirs == null ? new SnapshottableDirectoryStatus[0] : dirs) {
      out.add(d.getFullPath().toUri().getPath() + " " + d.getSnapshotQuota());
    }
    return out;
  }

  public static Snapshot snapshot(DistributedFileSystem fs) throws IOException {
    return snapshot(fs, "/");
  }

  /**
   * Snapshot of the subtree at {@code root}: one entry per inode, keyed and sorted by path. Files:
   * type, inode id, permission, owner, group, mtime, atime, replication, block size, length,
   * storage policy, under-construction flag and every block as {@code id:genstamp:bytes} ({@link
   * DFSClient#getLocatedBlocks}). Directories: the same attributes where they apply plus the number
   * of children, quotas and the content summary.
   */
  public static Snapshot snapshot(DistributedFileSystem fs, String root) throws IOException {
    DFSClient client = fs.getClient();
    TreeMap<String, Map<String, String>> entries = new TreeMap<>();
    HdfsFileStatus st = client.getFileInfo(root);
    if (st == null) {
      throw new IOException("no such path: " + root);
    }
    walk(fs, client, root, st, entries);
    return new Snapshot(entries);
  }

  private static void walk(
      DistributedFileSystem fs,
      DFSClient client,
      String path,
      HdfsFileStatus st,
      TreeMap<String, Map<String, String>> entries)
      throws IOException {
    Map<String, String> e = new LinkedHashMap<>();
    e.put("type", st.isDir() ? "DIR" : st.isSymlink() ? "SYMLINK" : "FILE");
    e.put("id", Long.toString(st.getFileId()));
    e.put("perm", st.getPermission().toString());
    e.put("owner", st.getOwner());
    e.put("group", st.getGroup());
    e.put("mtime", Long.toString(st.getModificationTime()));
    e.put("atime", Long.toString(st.getAccessTime()));
    e.put("repl", Short.toString(st.getReplication()));
    e.put("blocksize", Long.toString(st.getBlockSize()));
    e.put("len", Long.toString(st.getLen()));
    e.put("policy", Byte.toString(st.getStoragePolicy()));
    if (st.isSymlink()) {
      e.put("symlink", st.getSymlink());
    }
    if (st.isDir()) {
      e.put("children", Integer.toString(st.getChildrenNum()));
      ContentSummary cs = fs.getContentSummary(new Path(path));
      e.put("nsQuota", Long.toString(cs.getQuota()));
      e.put("ssQuota", Long.toString(cs.getSpaceQuota()));
      e.put("files", Long.toString(cs.getFileCount()));
      e.put("dirs", Long.toString(cs.getDirectoryCount()));
      e.put("length", Long.toString(cs.getLength()));
      e.put("spaceConsumed", Long.toString(cs.getSpaceConsumed()));
      entries.put(path, e);
      byte[] after = HdfsFileStatus.EMPTY_NAME;
      while (true) {
        DirectoryListing l = client.listPaths(path, after);
        if (l == null) {
          throw new IOException("directory vanished during the snapshot: " + path);
        }
        for (HdfsFileStatus c : l.getPartialListing()) {
          walk(fs, client, c.getFullName(path), c, entries);
        }
        if (!l.hasMore()) {
          break;
        }
        after = l.getLastName();
      }
    } else if (!st.isSymlink()) {
      LocatedBlocks lbs = client.getLocatedBlocks(path, 0, Long.MAX_VALUE);
      e.put("uc", Boolean.toString(lbs.isUnderConstruction()));
      StringBuilder b = new StringBuilder("[");
      for (LocatedBlock lb : lbs.getLocatedBlocks()) {
        if (b.length() > 1) {
          b.append(',');
        }
        b.append(lb.getBlock().getBlockId())
            .append(':')
            .append(lb.getBlock().getGenerationStamp())
            .append(':')
            .append(lb.getBlock().getNumBytes());
      }
      e.put("blocks", b.append(']').toString());
      entries.put(path, e);
    } else {
      entries.put(path, e);
    }
  }

  /** Fails with a readable diff unless the two snapshots are equal. */
  public static void assertSameNamespace(String message, Snapshot expected, Snapshot actual) {
    String d = expected.diff(actual);
    if (!d.isEmpty()) {
      fail(message + ": namespace differs (expected -> actual):\n" + d);
    }
  }

  /** An immutable namespace snapshot: path -> (field -> value), sorted by path. */
  public static final class Snapshot {
    private static final int MAX_DIFF_LINES = 50;
    private final TreeMap<String, Map<String, String>> entries;

    Snapshot(TreeMap<String, Map<String, String>> entries) {
      this.entries = entries;
    }

    /** Paths in the snapshot, sorted. */
    public Set<String> paths() {
      return Collections.unmodifiableSet(entries.keySet());
    }

    /** The fields of {@code path}, or null. */
    public Map<String, String> get(String path) {
      Map<String, String> e = entries.get(path);
      return e == null ? null : Collections.unmodifiableMap(e);
    }

    public int size() {
      return entries.size();
    }

    /** A copy without the named fields (e.g. "atime", or "id" across a re-format). */
    public Snapshot ignoring(String... fields) {
      Set<String> drop = new HashSet<>(Arrays.asList(fields));
      TreeMap<String, Map<String, String>> copy = new TreeMap<>();
      for (Map.Entry<String, Map<String, String>> en : entries.entrySet()) {
        Map<String, String> e = new LinkedHashMap<>(en.getValue());
        e.keySet().removeAll(drop);
        copy.put(en.getKey(), e);
      }
      return new Snapshot(copy);
    }

    /** A copy restricted to the subtree at {@code root} (paths equal to it or below it). */
    public Snapshot subtree(String root) {
      String prefix = root.endsWith("/") ? root : root + "/";
      TreeMap<String, Map<String, String>> copy = new TreeMap<>();
      for (Map.Entry<String, Map<String, String>> en : entries.entrySet()) {
        if (en.getKey().equals(root) || en.getKey().startsWith(prefix)) {
          copy.put(en.getKey(), en.getValue());
        }
      }
      return new Snapshot(copy);
    }

    /**
     * The differences, one line each: {@code - path} (only here), {@code + path} (only in {@code
     * other}), {@code ~ path: field a -> b, ...}. Empty if equal. At most 50 lines.
     */
    public String diff(Snapshot other) {
      List<String> lines = new ArrayList<>();
      Set<String> all = new java.util.TreeSet<>(entries.keySet());
      all.addAll(other.entries.keySet());
      int total = 0;
      for (String p : all) {
        Map<String, String> a = entries.get(p), b = other.entries.get(p);
        String line;
        if (b == null) {
          line = "- " + p + " " + a;
        } else if (a == null) {
          line = "+ " + p + " " + b;
        } else if (a.equals(b)) {
          continue;
        } else {
          StringBuilder s = new StringBuilder("~ ").append(p).append(':');
          Set<String> keys = new java.util.LinkedHashSet<>(a.keySet());
          keys.addAll(b.keySet());
          for (String k : keys) {
            String va = a.get(k), vb = b.get(k);
            if (va == null ? vb != null : !va.equals(vb)) {
              s.append(' ').append(k).append(' ').append(va).append(" -> ").append(vb).append(';');
            }
          }
          line = s.toString();
        }
        if (total++ < MAX_DIFF_LINES) {
          lines.add(line);
        }
      }
      if (total > MAX_DIFF_LINES) {
        lines.add("... and " + (total - MAX_DIFF_LINES) + " more differing paths");
      }
      return String.join("\n", lines);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Snapshot && entries.equals(((Snapshot) o).entries);
    }

    @Override
    public int hashCode() {
      return entries.hashCode();
    }

    /** One line per path: {@code path {field=value, ...}}. */
    @Override
    public String toString() {
      StringBuilder s = new StringBuilder();
      for (Map.Entry<String, Map<String, String>> en : entries.entrySet()) {
        s.append(en.getKey()).append(' ').append(en.getValue()).append('\n');
      }
      return s.toString();
    }
  }
}
