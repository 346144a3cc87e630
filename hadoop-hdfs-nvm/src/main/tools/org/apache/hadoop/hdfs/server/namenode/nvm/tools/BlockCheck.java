package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;

import java.util.List;
import org.apache.hadoop.hdfs.server.namenode.nvm.LongLongMap;

/**
 * Block records of attached files against each other and the superblock counters. HDFS 2.7.3 calls
 * a block legacy if its generation stamp is below the V1 limit (BlockIdManager.isLegacyBlock):
 * legacy stamps come from SB_GENSTAMP_V1 and legacy ids are random; all other stamps come from
 * SB_GENSTAMP_V2 and their ids from the sequential SB_LAST_BLOCK_ID. A value above its counter
 * would be handed out again; a block id on two records makes the block map keep only one of them.
 * Recovery checks none of this. Of two records with one id the one at the higher offset is
 * reported.
 */
final class BlockCheck {
  private BlockCheck() {}

  static void run(RegionModel m, List<Finding> out) {
    long v1Limit = m.image.counter(SB_GENSTAMP_V1_LIMIT);
    long gsV1 = m.image.counter(SB_GENSTAMP_V1);
    long gsV2 = m.image.counter(SB_GENSTAMP_V2);
    long lastBlockId = m.image.counter(SB_LAST_BLOCK_ID);
    LongLongMap lowestRecord = new LongLongMap(1024);
    LongLongMap recordOwner = new LongLongMap(1024);
    boolean zeroSeen = false;
    long zeroRecord = 0;
    for (long page : m.tree.order) {
      InodePage f = m.inode(page);
      if (!f.isFile()) {
        continue;
      }
      long[] records = f.blockRecordOffsets(ExtChain.blocks(f, null));
      for (int i = 0; i < records.length; i++) {
        long rec = records[i];
        long id = m.image.getLong(rec + BR_ID);
        long gs = m.image.getLong(rec + BR_GENSTAMP);
        boolean legacy = gs < v1Limit;
        long gsMax = legacy ? gsV1 : gsV2;
        if (gs > gsMax) {
          out.add(
              new Finding(
                  Finding.Kind.GENSTAMP_ABOVE_COUNTER,
                  rec + BR_GENSTAMP,
                  which(m, page, i, id)
                      + ": generation stamp "
                      + gs
                      + " is above the superblock's "
                      + (legacy ? "SB_GENSTAMP_V1 " : "SB_GENSTAMP_V2 ")
                      + gsMax
                      + (legacy ? " (a legacy stamp, below the V1 limit " + v1Limit + ")" : "")
                      + "; the NameNode would hand it out again"));
        }
        if (!legacy && id > lastBlockId) {
          out.add(
              new Finding(
                  Finding.Kind.BLOCK_ID_ABOVE_COUNTER,
                  rec + BR_ID,
                  which(m, page, i, id)
                      + ": id "
                      + id
                      + " is above the superblock's SB_LAST_BLOCK_ID "
                      + lastBlockId
                      + "; the NameNode would allocate it again"));
        }
        long other;
        if (id == 0) { // 0 cannot be a map key
          other = zeroSeen ? zeroRecord : LongLongMap.MISSING;
          zeroSeen = true;
          zeroRecord = other == LongLongMap.MISSING ? rec : Math.min(rec, other);
        } else {
          other = lowestRecord.get(id);
          lowestRecord.put(id, other == LongLongMap.MISSING ? rec : Math.min(rec, other));
        }
        recordOwner.put(rec, page);
        if (other != LongLongMap.MISSING) {
          long reported = Math.max(rec, other);
          long kept = Math.min(rec, other);
          out.add(
              new Finding(
                  Finding.Kind.DUPLICATE_BLOCK_ID,
                  reported + BR_ID,
                  "block id "
                      + id
                      + " is on two records: at offset "
                      + reported
                      + " in "
                      + Paths.describe(m, recordOwner.get(reported))
                      + " and at offset "
                      + kept
                      + " in "
                      + Paths.describe(m, recordOwner.get(kept))
                      + "; the block map keeps one file per block id"));
        }
      }
    }
  }

  /**
   * Paths are built only for messages: walking up to the root for every block would cost O(blocks x
   * depth).
   */
  private static String which(RegionModel m, long page, int index, long id) {
    return "block " + index + " (id " + id + ") of " + Paths.describe(m, page);
  }
}
