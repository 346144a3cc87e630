package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;

import java.util.List;
import org.apache.hadoop.hdfs.server.namenode.nvm.LongLongMap;

/**
 * Ids of attached inodes: unique (recovery refuses duplicates) and not above SB_LAST_INODE_ID
 * (counters grow in the same batch as the state that uses them, so a larger id means a damaged id
 * or counter, and the NameNode could hand the id out again). Of two pages with one id the one at
 * the higher offset is reported.
 */
final class InodeIdCheck {
  private InodeIdCheck() {}

  static void run(RegionModel m, List<Finding> out) {
    long last = m.image.counter(SB_LAST_INODE_ID);
    LongLongMap lowestPage = new LongLongMap(Math.max(16, m.tree.order.length));
    for (long page : m.tree.order) {
      long id = m.inode(page).id();
      if (Long.compareUnsigned(id, last) > 0) {
        out.add(
            new Finding(
                Finding.Kind.INODE_ID_ABOVE_COUNTER,
                page + IN_ID,
                Paths.describe(m, page)
                    + ": id "
                    + id
                    + " is above the superblock's last inode id "
                    + last));
      }
      if (id == 0) {
        continue; // not a key the map can hold; a 0 id is caught by the counter check only if the
        // counter is 0 too
      }
      long other = lowestPage.get(id);
      if (other == LongLongMap.MISSING) {
        lowestPage.put(id, page);
        continue;
      }
      long reported = Math.max(page, other);
      long kept = Math.min(page, other);
      lowestPage.put(id, kept);
      out.add(
          new Finding(
              Finding.Kind.DUPLICATE_INODE_ID,
              reported + IN_ID,
              Paths.describe(m, reported)
                  + ": id "
                  + id
                  + " is also the id of the inode at page "
                  + kept
                  + " ("
                  + Paths.of(m, kept)
                  + "); recovery refuses the region"));
    }
  }
}
