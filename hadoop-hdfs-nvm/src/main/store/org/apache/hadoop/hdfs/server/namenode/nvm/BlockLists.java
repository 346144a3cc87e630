package org.apache.hadoop.hdfs.server.namenode.nvm;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;

/**
 * A transaction's change of a file's block list (region-format.md §5.2, §5.3): the records that
 * changed are rewritten in place (a length alone, length and generation stamp as one 16-byte range,
 * or the whole record), new BLOCK_EXT pages are written LIVE out of place and linked inside the
 * commit, pages no longer needed are unlinked and freed after it.
 */
final class BlockLists {
  private final Region region;
  private final MutationBatch batch;
  private final Reservation res;

  BlockLists(Region region, MutationBatch batch, Reservation res) {
    this.region = region;
    this.batch = batch;
    this.res = res;
  }

  /**
   * Makes file {@code v}'s (at {@code page}) block list {@code blocks} (n id/len/stamp triples).
   */
  void set(InodeView v, long page, long[] blocks, int n) throws NvmException {
    int c = v.blockCount();
    long[] ext = v.blockExtPages();
    for (int i = 0; i < Math.min(n, BLOCKS_INLINE_MAX); i++) {
      stageRecord(page + FI_BLOCKS_INLINE + (long) BLOCK_RECORD_SIZE * i, i < c, blocks, i);
    }
    int need = InodeLimits.blockExtPages(n);
    int have = ext.length;
    for (int j = 0; j < Math.min(need, have); j++) {
      int first = BLOCKS_INLINE_MAX + j * BLOCKS_EXT_MAX;
      int count = Math.min(BLOCKS_EXT_MAX, n - first);
      for (int s = 0; s < count; s++) {
        stageRecord(
            ext[j] + EXT_PAYLOAD + (long) BLOCK_RECORD_SIZE * s, first + s < c, blocks, first + s);
      }
      if (region.getLong(ext[j] + EXT_COUNT) != count) {
        batch.putLong(ext[j] + EXT_COUNT, count, Field.BLOCK_COUNT);
      }
    }
    if (need > have) {
      long[] fresh = new long[need - have];
      for (int j = 0; j < fresh.length; j++) {
        fresh[j] = res.next();
      }
      for (int j = have; j < need; j++) {
        int first = BLOCKS_INLINE_MAX + j * BLOCKS_EXT_MAX;
        int count = Math.min(BLOCKS_EXT_MAX, n - first);
        long next = j + 1 < need ? fresh[j + 1 - have] : 0;
        // Written LIVE out of place; the link below (inside the commit) makes it reachable.
        batch.fresh(
            fresh[j - have], PageCodec.blockExt(v.id(), next, blocks, first, count), Field.PAGE);
      }
      long link = have == 0 ? page + FI_BLOCK_EXT : ext[have - 1] + EXT_NEXT;
      batch.putLong(link, fresh[0], Field.EXT_LINK);
    } else if (need < have) {
      long link = need == 0 ? page + FI_BLOCK_EXT : ext[need - 1] + EXT_NEXT;
      batch.putLong(link, 0, Field.EXT_LINK);
      for (int j = need; j < have; j++) {
        batch.free(ext[j]);
      }
    }
    if (n != c) {
      batch.putLong(page + FI_BLOCK_COUNT, n, Field.BLOCK_COUNT);
    }
  }

  private void stageRecord(long rec, boolean exists, long[] blocks, int i) {
    long id = blocks[3 * i];
    long len = blocks[3 * i + 1];
    long gs = blocks[3 * i + 2];
    if (exists
        && region.getLong(rec + BR_ID) == id
        && region.getLong(rec + BR_NUM_BYTES) == len
        && region.getLong(rec + BR_GENSTAMP) == gs) {
      return;
    }
    if (exists && region.getLong(rec + BR_ID) == id) {
      if (region.getLong(rec + BR_GENSTAMP) == gs) {
        batch.putLong(rec + BR_NUM_BYTES, len, Field.BLOCK);
      } else {
        batch.putBytes(rec + BR_NUM_BYTES, PageCodec.longs(len, gs), Field.BLOCK);
      }
      return;
    }
    batch.putBytes(rec, PageCodec.blockRecord(id, len, gs), Field.BLOCK);
  }
}
