package org.nvmnn.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Compares the snapshots a worker's model expects with those the NameNode reports under the root's
 * ".snapshot": the same names, and each snapshot's tree equal to its copy, compared as {@link
 * ModelChecker} compares the live tree. A missing name is blamed on the operation that gave it (its
 * createSnapshot or renameSnapshot), a name that should be gone on the one that removed it
 * (deleteSnapshot or renameSnapshot), a difference inside a snapshot on its createSnapshot (the
 * problem names the operation the expected state comes from).
 */
final class SnapshotChecker {
  private SnapshotChecker() {}

  /**
   * observed: name to tree, keyed by live paths ({@link SubtreeReader#readSnapshots}); null if the
   * root is not snapshottable.
   */
  static List<Discrepancy> check(
      SubtreeModel model, Map<String, Map<String, ObservedEntry>> observed) {
    List<Discrepancy> out = new ArrayList<>();
    String root = model.root();
    SnapshotCopies expected = model.snapshots();
    if (observed == null) {
      // the root was made snapshottable by the worker's setup, op #0, as its mkdirs
      out.add(new Discrepancy(root, "not snapshottable", model.get(root).placedBy));
      return out;
    }
    for (Map.Entry<String, SnapshotCopies.Copy> e : expected.byName().entrySet()) {
      String name = e.getKey();
      SnapshotCopies.Copy copy = e.getValue();
      Map<String, ObservedEntry> tree = observed.get(name);
      if (tree == null) {
        out.add(new Discrepancy(Op.snapshotPath(root, name), "snapshot missing", copy.namedBy));
        continue;
      }
      for (Discrepancy d : ModelChecker.check(copy.tree, tree)) {
        String why = d.blamedOp.startsWith("unexplained:") ? "" : ", state of " + d.blamedOp;
        out.add(
            new Discrepancy(
                Op.snapshotPath(root, name) + d.path.substring(root.length()),
                d.problem + why + " (snapshot " + name + " created by " + copy.createdBy + ")",
                copy.createdBy));
      }
    }
    for (String name : observed.keySet()) {
      if (expected.get(name) == null) {
        String op = expected.removedBy(name);
        out.add(
            new Discrepancy(
                Op.snapshotPath(root, name),
                "snapshot exists, should not",
                op != null ? op : "unexplained:" + Op.snapshotPath(root, name)));
      }
    }
    return out;
  }

  /** Number of entries in all snapshots (for the counts). */
  static long entries(Map<String, Map<String, ObservedEntry>> observed) {
    long n = 0;
    for (Map<String, ObservedEntry> tree : observed.values()) {
      n += tree.size();
    }
    return n;
  }
}
