package org.nvmnn.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Picks a worker's next operation from its model: always one the model says must succeed. A create
 * with data spends ~0.4 s in close() (2.7.3's client waits 400 ms before asking complete() again
 * when the DataNode's block report trails), the other ops a few ms; so a worker writing data is
 * almost always inside a create when the NameNode dies, and workers creating empty files are what
 * puts the other operations in doubt. New names come from the op sequence number, so no path is
 * ever used twice. The subtree is kept small (maxEntries, maxDepth) so a full verification after
 * every restart stays cheap. With maxSnapshots above 0 the root's snapshots are created, renamed
 * and deleted too (7 % of the draws), at most maxSnapshots at a time, each verified whole after
 * every restart; snapshot names come from the op sequence number as well ("s<n>").
 */
final class OpChooser {
  private static final short[] DIR_PERMISSIONS = {0700, 0711, 0750, 0755, 0770};
  private static final short[] FILE_PERMISSIONS = {0400, 0600, 0640, 0644, 0664};
  private static final long YEAR_2001_MS = 978307200000L;
  private static final long DAY_MS = 86400000L;

  private final Random random;
  private final String thread;
  private final int maxEntries;
  private final int maxDepth;

  /** At most this many snapshots of the root at a time; 0: no snapshot operations. */
  private final int maxSnapshots;

  /**
   * false: files are created empty (create + close, no block), so no op dominates the thread's
   * time.
   */
  private final boolean writeData;

  private long seq;

  OpChooser(
      long seed, String thread, int maxEntries, int maxDepth, boolean writeData, int maxSnapshots) {
    this.random = new Random(seed);
    this.thread = thread;
    this.maxEntries = maxEntries;
    this.maxDepth = maxDepth;
    this.writeData = writeData;
    this.maxSnapshots = maxSnapshots;
  }

  Op next(SubtreeModel m) {
    boolean full = m.size() >= maxEntries;
    while (true) {
      Op op = tryKind(m, pickKind(full), thread + "#" + (++seq));
      if (op != null) {
        return op;
      }
    }
  }

  private Op.Kind pickKind(boolean full) {
    if (maxSnapshots > 0) {
      // a draw of its own: without snapshots a seed chooses the same operations as before them
      int s = random.nextInt(100);
      if (s < 3) return Op.Kind.CREATE_SNAPSHOT;
      if (s < 5) return Op.Kind.RENAME_SNAPSHOT;
      if (s < 7) return Op.Kind.DELETE_SNAPSHOT;
    }
    int r = random.nextInt(100);
    if (full) {
      return r < 60
          ? Op.Kind.DELETE
          : r < 70
              ? Op.Kind.RENAME
              : r < 80
                  ? Op.Kind.SET_PERMISSION
                  : r < 90 ? Op.Kind.RENAME_OVERWRITE : Op.Kind.SET_TIMES;
    }
    if (r < 12) return Op.Kind.MKDIR;
    if (r < 40) return Op.Kind.CREATE;
    if (r < 48) return Op.Kind.RENAME;
    if (r < 53) return Op.Kind.RENAME_OLD_API;
    if (r < 58) return Op.Kind.RENAME_OVERWRITE;
    if (r < 68) return Op.Kind.DELETE;
    if (r < 80) return Op.Kind.SET_PERMISSION;
    if (r < 88) return Op.Kind.SET_REPLICATION;
    return Op.Kind.SET_TIMES;
  }

  private Op tryKind(SubtreeModel m, Op.Kind kind, String id) {
    String name = id.substring(id.indexOf('#') + 1);
    switch (kind) {
      case MKDIR:
        {
          String parent = pick(parentDirs(m));
          return parent == null ? null : new Op(id, kind, parent + "/d" + name, null, 0, 0);
        }
      case CREATE:
        {
          String parent = pick(parentDirs(m));
          return parent == null
              ? null
              : new Op(
                  id,
                  kind,
                  parent + "/f" + name,
                  null,
                  random.nextLong(),
                  writeData ? 100 + random.nextInt(701) : 0);
        }
      case RENAME:
      case RENAME_OLD_API:
        return random.nextInt(10) < 6
            ? renameFile(m, kind, id, name)
            : renameDir(m, kind, id, name);
      case RENAME_OVERWRITE:
        {
          List<String> files = m.paths(false);
          if (files.size() < 2) return null;
          String src = pick(files);
          String dst = pick(files);
          return src.equals(dst) ? null : new Op(id, kind, src, dst, 0, 0);
        }
      case DELETE:
        return random.nextBoolean() ? deleteFile(m, id) : deleteSmallDir(m, id);
      case SET_PERMISSION:
        {
          String path = pick(nonRoot(m));
          if (path == null) return null;
          ModelNode n = m.get(path);
          short[] choices = n.dir ? DIR_PERMISSIONS : FILE_PERMISSIONS;
          short perm = choices[random.nextInt(choices.length)];
          return perm == n.permission ? null : new Op(id, kind, path, null, perm, 0);
        }
      case SET_REPLICATION:
        {
          String path = pick(m.paths(false));
          if (path == null) return null;
          return new Op(id, kind, path, null, m.get(path).replication == 1 ? 2 : 1, 0);
        }
      case SET_TIMES:
        {
          String path = pick(m.paths(false));
          long mtime =
              YEAR_2001_MS + random.nextInt(20 * 365) * DAY_MS + random.nextInt((int) DAY_MS);
          return path == null ? null : new Op(id, kind, path, null, mtime, 0);
        }
      case CREATE_SNAPSHOT:
        return m.snapshots().size() >= maxSnapshots
            ? null
            : new Op(id, kind, Op.snapshotPath(m.root(), "s" + name), null, 0, 0);
      case RENAME_SNAPSHOT:
        {
          String old = pick(m.snapshots().names());
          return old == null
              ? null
              : new Op(
                  id,
                  kind,
                  Op.snapshotPath(m.root(), old),
                  Op.snapshotPath(m.root(), "s" + name),
                  0,
                  0);
        }
      case DELETE_SNAPSHOT:
        {
          String old = pick(m.snapshots().names());
          return old == null ? null : new Op(id, kind, Op.snapshotPath(m.root(), old), null, 0, 0);
        }
      default:
        throw new IllegalArgumentException(kind.name());
    }
  }

  private Op renameFile(SubtreeModel m, Op.Kind kind, String id, String name) {
    String src = pick(m.paths(false));
    String parent = pick(parentDirs(m));
    return src == null || parent == null ? null : new Op(id, kind, src, parent + "/f" + name, 0, 0);
  }

  /** A directory into a directory outside its own subtree, keeping the tree within maxDepth. */
  private Op renameDir(SubtreeModel m, Op.Kind kind, String id, String name) {
    String src = pick(nonRootDirs(m));
    if (src == null) return null;
    int height = 0;
    for (String d : m.descendants(src).keySet()) {
      height = Math.max(height, depth(m, d) - depth(m, src));
    }
    List<String> targets = new ArrayList<>();
    for (String d : m.paths(true)) {
      if (!d.equals(src) && !d.startsWith(src + "/") && depth(m, d) + 1 + height <= maxDepth) {
        targets.add(d);
      }
    }
    String parent = pick(targets);
    return parent == null ? null : new Op(id, kind, src, parent + "/d" + name, 0, 0);
  }

  private Op deleteFile(SubtreeModel m, String id) {
    String path = pick(m.paths(false));
    return path == null ? null : new Op(id, Op.Kind.DELETE, path, null, 0, 0);
  }

  private Op deleteSmallDir(SubtreeModel m, String id) {
    String path = pick(nonRootDirs(m));
    return path == null || m.descendants(path).size() > 12
        ? null
        : new Op(id, Op.Kind.DELETE, path, null, 0, 0);
  }

  /** Directories a new entry may go into (depth below maxDepth). */
  private List<String> parentDirs(SubtreeModel m) {
    List<String> out = new ArrayList<>();
    for (String d : m.paths(true)) {
      if (depth(m, d) < maxDepth) {
        out.add(d);
      }
    }
    return out;
  }

  private static List<String> nonRootDirs(SubtreeModel m) {
    List<String> dirs = m.paths(true);
    dirs.remove(m.root());
    return dirs;
  }

  private static List<String> nonRoot(SubtreeModel m) {
    List<String> all = new ArrayList<>(m.nodes().keySet());
    all.remove(m.root());
    return all;
  }

  private static int depth(SubtreeModel m, String path) {
    int d = 0;
    for (int i = m.root().length(); i < path.length(); i++) {
      if (path.charAt(i) == '/') d++;
    }
    return d;
  }

  private String pick(List<String> from) {
    return from.isEmpty() ? null : from.get(random.nextInt(from.size()));
  }
}
