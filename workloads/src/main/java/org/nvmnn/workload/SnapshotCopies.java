package org.nvmnn.workload;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * The snapshots a worker's root must have, by name, each with a copy of the worker's model taken
 * when the snapshot was created. A worker is the only writer of its subtree, so a snapshot an
 * acknowledged createSnapshot made holds exactly the model's state at that moment, whatever happens
 * to the live tree afterwards. A rename moves the copy to the new name, a delete drops it. Like
 * paths, names are never reused, so a removed name never legitimately comes back.
 */
final class SnapshotCopies {
  /** One expected snapshot. */
  static final class Copy {
    /** The tree the snapshot holds (paths as in the live tree, below the worker's root). */
    final SubtreeModel tree;

    /** The createSnapshot that fixed its content. */
    final String createdBy;

    /** The operation that gave it its current name: its createSnapshot or the last rename. */
    String namedBy;

    Copy(SubtreeModel tree, String createdBy) {
      this.tree = tree;
      this.createdBy = createdBy;
      this.namedBy = createdBy;
    }
  }

  private final TreeMap<String, Copy> byName = new TreeMap<>();

  /** For every name a delete or rename removed, that operation. */
  private final Map<String, String> removedBy = new HashMap<>();

  int size() {
    return byName.size();
  }

  Copy get(String name) {
    return byName.get(name);
  }

  /** Name to copy, in name order. */
  NavigableMap<String, Copy> byName() {
    return Collections.unmodifiableNavigableMap(byName);
  }

  List<String> names() {
    return new ArrayList<>(byName.keySet());
  }

  /** The delete or rename that removed this name; null if none did. */
  String removedBy(String name) {
    return removedBy.get(name);
  }

  void create(String name, SubtreeModel tree, String op) {
    requireNew(name);
    byName.put(name, new Copy(tree, op));
  }

  void rename(String from, String to, String op) {
    Copy c = require(from);
    requireNew(to);
    byName.remove(from);
    removedBy.put(from, op);
    c.namedBy = op;
    byName.put(to, c);
  }

  void delete(String name, String op) {
    require(name);
    byName.remove(name);
    removedBy.put(name, op);
  }

  private Copy require(String name) {
    Copy c = byName.get(name);
    if (c == null) {
      throw new IllegalStateException("model: no snapshot " + name);
    }
    return c;
  }

  private void requireNew(String name) {
    if (byName.containsKey(name) || removedBy.containsKey(name)) {
      throw new IllegalStateException("model: snapshot name " + name + " used before");
    }
  }
}
