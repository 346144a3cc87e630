package org.nvmnn.workload.fuzz;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;

/**
 * The generator's rough picture of the namespace, so that most calls name paths that exist (or just
 * did): directories, files, open files with their lease holder, and recently deleted paths. It
 * follows the answers the NameNodes agreed on, is replaced by the real listing after every restart,
 * and may be wrong in between (a lease recovered by a heartbeat, a path in an unusual spelling): it
 * only steers the choice of arguments.
 */
final class Model {
  /** A set with O(1) add, remove and uniform random choice. */
  static final class IndexedSet {
    private final List<String> items = new ArrayList<>();
    private final Map<String, Integer> index = new HashMap<>();

    boolean add(String s) {
      if (index.containsKey(s)) {
        return false;
      }
      index.put(s, items.size());
      items.add(s);
      return true;
    }

    boolean remove(String s) {
      Integer i = index.remove(s);
      if (i == null) {
        return false;
      }
      String last = items.remove(items.size() - 1);
      if (i < items.size()) {
        items.set(i, last);
        index.put(last, i);
      }
      return true;
    }

    boolean contains(String s) {
      return index.containsKey(s);
    }

    int size() {
      return items.size();
    }

    String random(Random r) {
      return items.isEmpty() ? null : items.get(r.nextInt(items.size()));
    }

    void clear() {
      items.clear();
      index.clear();
    }
  }

  final IndexedSet dirs = new IndexedSet();
  final IndexedSet files = new IndexedSet();
  final IndexedSet open = new IndexedSet();
  final Map<String, String> holder = new HashMap<>();
  private final TreeSet<String> all = new TreeSet<>();
  final ArrayDeque<String> gone = new ArrayDeque<>();
  boolean safeMode;

  Model() {
    reset();
  }

  void reset() {
    dirs.clear();
    files.clear();
    open.clear();
    holder.clear();
    all.clear();
    gone.clear();
    safeMode = false;
    dirs.add("/");
    all.add("/");
  }

  int size() {
    return all.size();
  }

  boolean exists(String p) {
    return all.contains(p);
  }

  boolean isDir(String p) {
    return dirs.contains(p);
  }

  /**
   * Whether the model can follow a call on this path: absolute, no empty, "." or ".." components,
   * no trailing slash, not under /.reserved.
   */
  static boolean plain(String p) {
    if (p == null || !p.startsWith("/") || p.contains("//") || p.startsWith("/.reserved")) {
      return false;
    }
    if (p.equals("/")) {
      return true;
    }
    if (p.endsWith("/")) {
      return false;
    }
    for (String c : p.substring(1).split("/", -1)) {
      if (c.equals(".") || c.equals("..")) {
        return false;
      }
    }
    return true;
  }

  static String parent(String p) {
    int i = p.lastIndexOf('/');
    return i <= 0 ? "/" : p.substring(0, i);
  }

  void addDir(String p) {
    addAncestors(p);
    if (all.add(p)) {
      dirs.add(p);
    }
  }

  void addFile(String p, String client) {
    addAncestors(p);
    if (dirs.contains(p)) {
      return;
    }
    all.add(p);
    files.add(p);
    open.add(p);
    holder.put(p, client);
  }

  void opened(String p, String client) {
    if (files.contains(p)) {
      open.add(p);
      holder.put(p, client);
    }
  }

  void closed(String p) {
    open.remove(p);
    holder.remove(p);
  }

  private void addAncestors(String p) {
    for (String a = parent(p); !a.equals("/") && !all.contains(a); a = parent(a)) {
      all.add(a);
      dirs.add(a);
    }
  }

  /** The path and everything below it. */
  List<String> subtree(String p) {
    List<String> s = new ArrayList<>();
    if (p.equals("/")) {
      s.addAll(all);
      return s;
    }
    if (all.contains(p)) {
      s.add(p);
    }
    s.addAll(all.subSet(p + "/", p + "0")); // '0' follows '/'
    return s;
  }

  void removeSubtree(String p) {
    for (String x : subtree(p)) {
      if (x.equals("/")) {
        continue;
      }
      all.remove(x);
      dirs.remove(x);
      files.remove(x);
      closed(x);
    }
    remember(p);
  }

  void move(String src, String dst) {
    List<String> moved = subtree(src);
    if (moved.isEmpty() || src.equals("/")) {
      return;
    }
    removeSubtree(dst);
    List<String[]> again = new ArrayList<>();
    for (String x : moved) {
      String y = dst + x.substring(src.length());
      again.add(new String[] {y, dirs.contains(x) ? "d" : "f", holder.get(x)});
    }
    removeSubtree(src);
    addAncestors(dst);
    for (String[] e : again) {
      if (e[1].equals("d")) {
        addDir(e[0]);
      } else {
        addFile(e[0], e[2]);
        if (e[2] == null) {
          closed(e[0]);
        }
      }
    }
  }

  private void remember(String p) {
    gone.addLast(p);
    if (gone.size() > 64) {
      gone.removeFirst();
    }
  }

  /** The namespace as the stock NameNode listed it; lease holders kept where still open. */
  void resync(Map<String, Canon> listing) {
    Map<String, String> holders = new HashMap<>(holder);
    ArrayDeque<String> g = new ArrayDeque<>(gone);
    reset();
    gone.addAll(g);
    for (Map.Entry<String, Canon> e : listing.entrySet()) {
      String p = e.getKey();
      Canon c = e.getValue();
      if (p.equals("/")) {
        continue;
      }
      if ("dir".equals(c.get("type"))) {
        addDir(p);
      } else {
        addFile(p, holders.getOrDefault(p, "fz-a"));
        if (!"true".equals(c.get("blocks.uc"))) {
          closed(p);
        }
      }
    }
  }
}
