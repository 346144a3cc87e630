package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.PAGE_SIZE;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.hdfs.server.namenode.nvm.LongLongMap;
import org.apache.hadoop.hdfs.server.namenode.nvm.Region;

/**
 * The bytes step 1 of recovery would write (region-format.md §7.6, §12.5), applied in the order it
 * writes them (a later entry wins where two overlap): in a region with the redo log the entries of
 * the redo records it replays, in ascending seq (in a region from before it the old bytes an armed
 * undo record puts back), then the entries of the write-ahead log's records from the checkpoint on,
 * in LSN order, and the scan limit that replay raises.
 *
 * <p>Kept as patched copies of the 256-byte blocks of the file the entries touch: a replayed log
 * may hold tens of MiB of entries, and every entry lies inside one data page or inside the
 * superblock's counters (DATA_OFFSET and SUPERBLOCK_OFFSET are multiples of 256, so a data page is
 * one block). A range that crosses blocks is still patched correctly, block by block.
 */
final class RecoveryOverlay {
  static final RecoveryOverlay NONE =
      new RecoveryOverlay(new LongLongMap(), new ArrayList<byte[]>());

  private static final int BLOCK = PAGE_SIZE;
  private static final int BLOCKS_PER_CHUNK = 4096; // 1 MiB of copies per array

  /** block index + 1 (0 is the map's empty key) &rarr; slot of its patched copy. */
  private final LongLongMap slotOfBlock;

  private final List<byte[]> chunks;

  private RecoveryOverlay(LongLongMap slotOfBlock, List<byte[]> chunks) {
    this.slotOfBlock = slotOfBlock;
    this.chunks = chunks;
  }

  static Builder over(Region region) {
    return new Builder(region);
  }

  boolean isEmpty() {
    return slotOfBlock.size() == 0;
  }

  /** Whether any byte of [off, off + len) lies in a patched block. */
  boolean touches(long off, int len) {
    if (len <= 0 || isEmpty()) {
      return false;
    }
    for (long b = off / BLOCK; b <= (off + len - 1) / BLOCK; b++) {
      if (slotOfBlock.get(b + 1) != LongLongMap.MISSING) {
        return true;
      }
    }
    return false;
  }

  /** Overwrites dst[0, len) (the bytes at [off, off + len)) with those of the patched blocks. */
  void patch(long off, byte[] dst, int len) {
    if (len <= 0 || isEmpty()) {
      return;
    }
    for (long b = off / BLOCK; b <= (off + len - 1) / BLOCK; b++) {
      long slot = slotOfBlock.get(b + 1);
      if (slot == LongLongMap.MISSING) {
        continue;
      }
      long from = Math.max(off, b * BLOCK);
      long to = Math.min(off + len, (b + 1) * BLOCK);
      System.arraycopy(
          chunk(slot),
          offsetInChunk(slot) + (int) (from - b * BLOCK),
          dst,
          (int) (from - off),
          (int) (to - from));
    }
  }

  private byte[] chunk(long slot) {
    return chunks.get((int) (slot / BLOCKS_PER_CHUNK));
  }

  private static int offsetInChunk(long slot) {
    return (int) (slot % BLOCKS_PER_CHUNK) * BLOCK;
  }

  /** Collects the stores in the order recovery makes them. */
  static final class Builder {
    private final Region region;
    private final LongLongMap slotOfBlock = new LongLongMap();
    private final List<byte[]> chunks = new ArrayList<byte[]>();

    private Builder(Region region) {
      this.region = region;
    }

    /**
     * The store of {@code src[srcOff, srcOff + len)} at {@code target}, after every earlier one.
     */
    void put(long target, byte[] src, int srcOff, int len) {
      if (target < 0 || len < 0 || target > region.size() - len) {
        throw new IllegalArgumentException(
            "store of " + len + " bytes at " + target + " outside the region");
      }
      while (len > 0) {
        long b = target / BLOCK;
        int in = (int) (target - b * BLOCK);
        int n = Math.min(len, BLOCK - in);
        long slot = slotOf(b);
        System.arraycopy(
            src, srcOff, chunks.get((int) (slot / BLOCKS_PER_CHUNK)), offsetInChunk(slot) + in, n);
        target += n;
        srcOff += n;
        len -= n;
      }
    }

    void put(long target, byte[] bytes) {
      put(target, bytes, 0, bytes.length);
    }

    /** The rollback of an armed undo record (a region without the redo log). */
    void rollBack(UndoRecord undo) {
      for (UndoRecord.Entry e : undo.entries) {
        put(e.target, e.oldBytes);
      }
    }

    /** The replay of the redo records recovery replays (a region with the redo log). */
    void replay(RedoLog redo) {
      for (RedoLog.Record r : redo.replayed) {
        for (RedoLog.Entry e : r.entries) {
          put(e.target, e.bytes);
        }
      }
    }

    /** The slot of block {@code b}'s copy, made from the media on first use. */
    private long slotOf(long b) {
      long slot = slotOfBlock.get(b + 1);
      if (slot != LongLongMap.MISSING) {
        return slot;
      }
      slot = slotOfBlock.size();
      int idx = (int) (slot / BLOCKS_PER_CHUNK);
      // the first chunk starts small and grows: a redo record's overlay stays a few KiB
      if (idx == chunks.size()) {
        chunks.add(new byte[idx == 0 ? 16 * BLOCK : BLOCKS_PER_CHUNK * BLOCK]);
      } else if (chunks.get(idx).length < offsetInChunk(slot) + BLOCK) {
        chunks.set(
            idx,
            Arrays.copyOf(
                chunks.get(idx), Math.min(2 * chunks.get(idx).length, BLOCKS_PER_CHUNK * BLOCK)));
      }
      long start = b * BLOCK;
      int n = (int) Math.min(BLOCK, region.size() - start);
      region.getBytes(start, chunks.get((int) (slot / BLOCKS_PER_CHUNK)), offsetInChunk(slot), n);
      slotOfBlock.put(b + 1, slot);
      return slot;
    }

    RecoveryOverlay build() {
      return slotOfBlock.size() == 0 ? NONE : new RecoveryOverlay(slotOfBlock, chunks);
    }
  }
}
