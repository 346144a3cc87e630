package org.nvmnn.workload;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * What one worker's subtree must look like after every acknowledged operation: path to node, plus
 * for every path that an operation removed (delete, or the source of a rename) the id of that
 * operation, so a path that reappears can be blamed on it. Names are never reused, so a removed
 * path never legitimately comes back. The root's snapshots are in {@link #snapshots()}: each holds
 * a copy of this model as it was when the snapshot was created.
 */
final class SubtreeModel {
  static final short DIR_PERMISSION = 0755; // 0777 under the default umask 022
  static final short FILE_PERMISSION = 0644; // 0666 under the default umask 022

  private final String root;
  private final TreeMap<String, ModelNode> nodes = new TreeMap<>();
  private final Map<String, String> removedBy = new HashMap<>();
  private final SnapshotCopies snapshots = new SnapshotCopies();

  SubtreeModel(String root, String rootOp) {
    this.root = root;
    nodes.put(root, ModelNode.directory(DIR_PERMISSION, rootOp));
  }

  private SubtreeModel(String root) {
    this.root = root;
  }

  /**
   * The tree as it is now, with every node copied: what a snapshot taken now holds. Without the
   * removed paths (nothing is removed from a snapshot) and without snapshots.
   */
  SubtreeModel copyTree() {
    SubtreeModel copy = new SubtreeModel(root);
    for (Map.Entry<String, ModelNode> e : nodes.entrySet()) {
      copy.nodes.put(e.getKey(), e.getValue().copy());
    }
    return copy;
  }

  /** The root's snapshots: name to the copy of this model taken when it was created. */
  SnapshotCopies snapshots() {
    return snapshots;
  }

  void createSnapshot(String name, String op) {
    snapshots.create(name, copyTree(), op);
  }

  String root() {
    return root;
  }

  ModelNode get(String path) {
    return nodes.get(path);
  }

  int size() {
    return nodes.size();
  }

  /** All nodes, root included, in path order. */
  Map<String, ModelNode> nodes() {
    return Collections.unmodifiableMap(nodes);
  }

  List<String> paths(boolean dirs) {
    List<String> out = new ArrayList<>();
    for (Map.Entry<String, ModelNode> e : nodes.entrySet()) {
      if (e.getValue().dir == dirs) {
        out.add(e.getKey());
      }
    }
    return out;
  }

  /**
   * Strictly below path. Every string starting with path + "/" sorts in [path + "/", path + "0").
   */
  NavigableMap<String, ModelNode> descendants(String path) {
    return nodes.subMap(path + "/", true, path + "0", false);
  }

  static String parent(String path) {
    return path.substring(0, path.lastIndexOf('/'));
  }

  /** The operation that removed this path or one of its ancestors; null if none did. */
  String removedBy(String path) {
    for (String p = path; p.length() > 0; p = parent(p)) {
      String op = removedBy.get(p);
      if (op != null) {
        return op;
      }
    }
    return null;
  }

  void mkdir(String path, String op) {
    requireNew(path);
    nodes.put(path, ModelNode.directory(DIR_PERMISSION, op));
  }

  void createFile(String path, long seed, long length, long crc, long inodeId, String op) {
    requireNew(path);
    ModelNode n = ModelNode.file(FILE_PERMISSION, (short) 1, length, crc, seed, op);
    n.inodeId = inodeId;
    nodes.put(path, n);
  }

  /**
   * Moves src and its subtree to dst. dst may exist only as a file replaced by the file src
   * (overwrite).
   */
  void rename(String src, String dst, String op) {
    ModelNode moving = require(src);
    ModelNode replaced = nodes.get(dst);
    if (replaced != null && (replaced.dir || moving.dir)) {
      throw new IllegalStateException("model: rename " + src + " onto existing " + dst);
    }
    requireDir(parent(dst));
    if (dst.startsWith(src + "/")) {
      throw new IllegalStateException("model: rename " + src + " into its own subtree " + dst);
    }
    TreeMap<String, ModelNode> moved = new TreeMap<>();
    moved.put(src, moving);
    moved.putAll(descendants(src));
    for (Map.Entry<String, ModelNode> e : moved.entrySet()) {
      nodes.remove(e.getKey());
      removedBy.put(e.getKey(), op);
    }
    for (Map.Entry<String, ModelNode> e : moved.entrySet()) {
      ModelNode n = e.getValue();
      n.placedBy = op;
      nodes.put(dst + e.getKey().substring(src.length()), n);
    }
  }

  void delete(String path, String op) {
    require(path);
    if (path.equals(root)) {
      throw new IllegalStateException("model: the worker's root is never deleted");
    }
    List<String> gone = new ArrayList<>(descendants(path).keySet());
    gone.add(path);
    for (String p : gone) {
      nodes.remove(p);
      removedBy.put(p, op);
    }
  }

  void setPermission(String path, short permission, String op) {
    ModelNode n = require(path);
    n.permission = permission;
    n.permissionBy = op;
  }

  void setReplication(String path, short replication, String op) {
    ModelNode n = requireFile(path);
    n.replication = replication;
    n.replicationBy = op;
  }

  void setMtime(String path, long mtime, String op) {
    ModelNode n = requireFile(path);
    n.mtime = mtime;
    n.mtimeBy = op;
  }

  private ModelNode require(String path) {
    ModelNode n = nodes.get(path);
    if (n == null) {
      throw new IllegalStateException("model: no " + path);
    }
    return n;
  }

  private ModelNode requireFile(String path) {
    ModelNode n = require(path);
    if (n.dir) {
      throw new IllegalStateException("model: " + path + " is a directory");
    }
    return n;
  }

  private void requireDir(String path) {
    if (!require(path).dir) {
      throw new IllegalStateException("model: " + path + " is not a directory");
    }
  }

  private void requireNew(String path) {
    if (nodes.containsKey(path)) {
      throw new IllegalStateException("model: " + path + " exists");
    }
    requireDir(parent(path));
  }
}
