package org.nvmnn.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Compares a worker's model with what the NameNode reports for the whole subtree. Every difference
 * is blamed on the most recent operation the expected state depends on: a missing path on the op
 * that placed it there, a wrong attribute on the op that set it, a path that should not exist on
 * the op that removed it.
 */
final class ModelChecker {
  private ModelChecker() {}

  static List<Discrepancy> check(SubtreeModel model, Map<String, ObservedEntry> observed) {
    List<Discrepancy> out = new ArrayList<>();
    for (Map.Entry<String, ModelNode> e : model.nodes().entrySet()) {
      String path = e.getKey();
      ModelNode want = e.getValue();
      ObservedEntry got = observed.get(path);
      if (got == null) {
        out.add(new Discrepancy(path, "missing", want.placedBy));
      } else if (got.dir != want.dir) {
        out.add(
            new Discrepancy(
                path,
                (got.dir ? "a directory" : "a file") + ", expected the other",
                want.placedBy));
      } else {
        compare(path, want, got, out);
      }
    }
    for (String path : observed.keySet()) {
      if (model.get(path) == null) {
        String op = model.removedBy(path);
        out.add(
            new Discrepancy(path, "exists, should not", op != null ? op : "unexplained:" + path));
      }
    }
    return out;
  }

  private static void compare(
      String path, ModelNode want, ObservedEntry got, List<Discrepancy> out) {
    if (want.inodeId >= 0 && got.inodeId != want.inodeId) {
      // another inode at this path (e.g. a lost overwriting rename): its attributes say nothing
      // more
      out.add(
          new Discrepancy(
              path, "inode id " + got.inodeId + ", expected " + want.inodeId, want.placedBy));
      return;
    }
    if (got.permission != want.permission) {
      out.add(
          new Discrepancy(
              path,
              "permission " + octal(got.permission) + ", expected " + octal(want.permission),
              want.permissionBy));
    }
    if (want.dir) {
      return;
    }
    if (got.open) {
      out.add(new Discrepancy(path, "still under construction", want.contentBy));
    }
    if (got.length != want.length) {
      out.add(
          new Discrepancy(
              path, "length " + got.length + ", expected " + want.length, want.contentBy));
    } else if (got.crc >= 0 && got.crc != want.crc) {
      out.add(new Discrepancy(path, "content differs (crc32)", want.contentBy));
    }
    if (got.replication != want.replication) {
      out.add(
          new Discrepancy(
              path,
              "replication " + got.replication + ", expected " + want.replication,
              want.replicationBy));
    }
    if (want.mtime >= 0 && got.mtime != want.mtime) {
      out.add(
          new Discrepancy(path, "mtime " + got.mtime + ", expected " + want.mtime, want.mtimeBy));
    }
  }

  private static String octal(short permission) {
    return "0" + Integer.toOctalString(permission);
  }
}
