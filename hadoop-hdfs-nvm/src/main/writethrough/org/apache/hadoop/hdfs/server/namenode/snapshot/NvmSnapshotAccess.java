package org.apache.hadoop.hdfs.server.namenode.snapshot;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hdfs.server.namenode.INode;
import org.apache.hadoop.hdfs.server.namenode.INodeDirectory;
import org.apache.hadoop.hdfs.server.namenode.INodeFile;
import org.apache.hadoop.hdfs.server.namenode.INodeReference;
import org.apache.hadoop.hdfs.server.namenode.NvmDirectoryCopies;
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

  /**
   * The access times of {@code dir}'s diff copies, newest diff first as the encoder wrote them
   * (NvmSnapshotEncoder): each copy with a time not 0 is made again with it.
   */
  public static void restoreCopyAccessTimes(INodeDirectory dir, long[] newestFirst) {
    DirectoryWithSnapshotFeature sf = dir.getDirectoryWithSnapshotFeature();
    if (sf == null) {
      return;
    }
    List<DirectoryWithSnapshotFeature.DirectoryDiff> list = sf.getDiffs().asList();
    for (int k = 0; k < newestFirst.length && k < list.size(); k++) {
      DirectoryWithSnapshotFeature.DirectoryDiff d = list.get(list.size() - 1 - k);
      if (newestFirst[k] != 0 && d.snapshotINode != null && !d.isSnapshotRoot()) {
        d.snapshotINode =
            NvmDirectoryCopies.withAccessTime(dir.getId(), d.snapshotINode, newestFirst[k]);
      }
    }
  }

  /** The references in the deleted lists of {@code dir}'s diffs (renamed inodes' old places). */
  public static List<INodeReference> deletedReferences(INodeDirectory dir) {
    List<INodeReference> out = new ArrayList<INodeReference>();
    DirectoryWithSnapshotFeature sf = dir.getDirectoryWithSnapshotFeature();
    if (sf != null) {
      for (DirectoryWithSnapshotFeature.DirectoryDiff d : sf.getDiffs()) {
        for (INode c : d.getChildrenDiff().getList(Diff.ListType.DELETED)) {
          if (c.isReference()) {
            out.add(c.asReference());
          }
        }
      }
    }
    return out;
  }
}
