package org.nvmnn.workload;

import java.util.Map;
import java.util.TreeMap;

/** Test helper: a model read back as if it were the NameNode's answer. */
final class Namespaces {
  private Namespaces() {}

  static Map<String, ObservedEntry> observe(SubtreeModel namespace) {
    Map<String, ObservedEntry> out = new TreeMap<>();
    for (Map.Entry<String, ModelNode> e : namespace.nodes().entrySet()) {
      ModelNode n = e.getValue();
      out.put(
          e.getKey(),
          n.dir
              ? ObservedEntry.directory(n.inodeId, n.permission)
              : new ObservedEntry(
                  false,
                  n.inodeId,
                  n.permission,
                  n.replication,
                  n.length,
                  Math.max(n.mtime, 0),
                  n.crc,
                  false));
    }
    return out;
  }

  /** The model's snapshots as {@link SubtreeReader#readSnapshots} reports them. */
  static Map<String, Map<String, ObservedEntry>> observeSnapshots(SubtreeModel namespace) {
    Map<String, Map<String, ObservedEntry>> out = new TreeMap<>();
    for (Map.Entry<String, SnapshotCopies.Copy> e : namespace.snapshots().byName().entrySet()) {
      out.put(e.getKey(), observe(e.getValue().tree));
    }
    return out;
  }
}
