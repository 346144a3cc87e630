package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;

import java.util.List;

/**
 * The DI_SNAPSHOT word of attached directories (region-format.md §5.2): 0, or DI_SNAPSHOTTABLE in a
 * region with FEATURE_SNAPSHOTS. Recovery does not read it; the NameNode's rebuild reads its
 * DI_SNAPSHOTTABLE bit alone, so another bit is a damaged word whose meaning nobody can tell, and a
 * bit in a region from before the feature was never written by a NameNode.
 */
final class SnapshotWordCheck {
  private SnapshotWordCheck() {}

  static void run(RegionModel m, List<Finding> out) {
    boolean feature = m.image.hasSnapshots();
    for (long page : m.tree.order) {
      InodePage inode = m.inode(page);
      if (!inode.isDirectory()) {
        continue;
      }
      long w = inode.snapshotWord();
      if (w == 0 || (feature && w == DI_SNAPSHOTTABLE)) {
        continue;
      }
      out.add(
          new Finding(
              Finding.Kind.BAD_SNAPSHOT_WORD,
              page + DI_SNAPSHOT,
              Paths.describe(m, page)
                  + ": its snapshot word is 0x"
                  + Long.toHexString(w)
                  + (feature
                      ? ", neither 0 nor DI_SNAPSHOTTABLE (1)"
                      : " in a region without the snapshots feature, where it is reserved (0)")
                  + "; the NameNode would read its lowest bit as whether snapshots are allowed"));
    }
  }
}
