package org.apache.hadoop.hdfs.server.namenode.snapshot;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hdfs.server.namenode.INode;
import org.apache.hadoop.hdfs.server.namenode.INodeDirectory;
import org.apache.hadoop.hdfs.server.namenode.INodeFile;
import org.apache.hadoop.hdfs.util.Diff;

/**
 * The snapshot state the NVM side persists and restores (region-format.md §13) that 2.7.3 exposes
 * only to its own package: the {@link SnapshotManager}'s counters (its fsimage saver and loader use
 * the same accessors) and the files a directory's created lists hold.
 */
public final class NvmSnapshotAccess {
  private NvmSnapshotAccess() {}

  /** The last snapshot id handed out (ids are never reused). */
  public static int counter(SnapshotManager sm) {
    return sm.getSnapshotCounter();
  }

  public static INodeDirectory[] snapshottableDirs(SnapshotManager sm) {
    return sm.getSnapshottableDirs();
  }

  /** After a restore: the number of snapshots and the counter, as the fsimage loader sets them. */
  public static void restored(SnapshotManager sm, int numSnapshots, int counter) {
    sm.setNumSnapshots(numSnapshots);
    sm.setSnapshotCounter(counter);
  }

  /** The files (not references) in the created lists of {@code dir}'s diffs. */
  public static List<INodeFile> createdFiles(INodeDirectory dir) {
    List<INodeFile> out = new ArrayList<INodeFile>();
    DirectoryWithSnapshotFeature sf = dir.getDirectoryWithSnapshotFeature();
    if (sf != null) {
      for (DirectoryWithSnapshotFeature.DirectoryDiff d : sf.getDiffs()) {
        for (INode c : d.getChildrenDiff().getList(Diff.ListType.CREATED)) {
          if (!c.isReference() && c.isFile()) {
            out.add(c.asFile());
          }
        }
      }
    }
    return out;
  }
}
