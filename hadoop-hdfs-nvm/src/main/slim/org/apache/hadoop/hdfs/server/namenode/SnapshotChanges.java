package org.apache.hadoop.hdfs.server.namenode;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hdfs.server.namenode.nvm.LongLongMap;

/**
 * What the running operation changed in directories' created and deleted lists, as their snapshot
 * branches reported it ({@link NvmINodeDirectory}): per directory, the children an addChild,
 * removeChild, replaceChild or saveChild2Snapshot passed, with the names they had; and the
 * directories a stock walk passed, whose lists are compared whole. The write-through's batch
 * rewrites the entry records of those children only ({@code NvmEntryRecords}).
 */
final class SnapshotChanges {
  /** Directory id &rarr; child id &rarr; the names the child had in those calls. */
  private final Map<Long, Map<Long, List<byte[]>>> children =
      new HashMap<Long, Map<Long, List<byte[]>>>();

  /** Directories compared whole. */
  private final LongLongMap whole = new LongLongMap();

  void child(long dirId, INode child) {
    children
        .computeIfAbsent(dirId, k -> new HashMap<Long, List<byte[]>>())
        .computeIfAbsent(child.getId(), k -> new ArrayList<byte[]>(1))
        .add(child.getLocalNameBytes());
  }

  void whole(long dirId) {
    whole.put(dirId, 1);
  }

  /** The children reported for {@code dirId} (child id &rarr; names), or null. */
  Map<Long, List<byte[]>> children(long dirId) {
    return children.get(dirId);
  }

  boolean isWhole(long dirId) {
    return whole.containsKey(dirId);
  }

  boolean isEmpty() {
    return children.isEmpty() && whole.size() == 0;
  }
}
