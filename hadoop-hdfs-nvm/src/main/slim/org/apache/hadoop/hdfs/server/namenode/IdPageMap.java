package org.apache.hadoop.hdfs.server.namenode;

import org.apache.hadoop.hdfs.server.namenode.nvm.LongLongMap;

/**
 * Inode id &rarr; page offset, about 4 bytes per live inode. HDFS hands inode ids out in increasing
 * order, so ids are dense: the map is an array of chunks of {@value #CHUNK} ids, each an {@code
 * int[]} of page numbers (offset / 256; 0 = no entry). A chunk is dropped when its last id is
 * removed; a chunk left with at most {@value #SPARSE} live ids (a few long-lived files among many
 * deleted ones) moves them to a small hash map, so a sparse range never costs a whole chunk per
 * survivor.
 *
 * <p>Pages are 256-byte aligned and the region is at most 512 GiB, so a page number fits in an int.
 * Not thread-safe: writers hold the namesystem write lock.
 */
public final class IdPageMap {
  /** Returned by {@link #get} for an id without a page. */
  public static final long MISSING = LongLongMap.MISSING;

  static final int SHIFT = 8;
  static final int CHUNK = 1 << SHIFT;
  static final int SPARSE = 8;
  private static final long MAX_OFFSET = (1L << 39) - 1;

  private int[][] chunks = new int[64][];
  private short[] live = new short[64];
  private final LongLongMap sparse = new LongLongMap();
  private int size;
  private long newestChunk;

  public int size() {
    return size;
  }

  public long get(long id) {
    if (id > 0) {
      long c = id >>> SHIFT;
      if (c < chunks.length) {
        int[] chunk = chunks[(int) c];
        if (chunk != null) {
          int v = chunk[(int) (id & (CHUNK - 1))];
          if (v != 0) {
            return (long) v << 8;
          }
        }
      }
    }
    return sparse.size() == 0 ? MISSING : sparse.get(id);
  }

  public boolean containsKey(long id) {
    return get(id) != MISSING;
  }

  /** Sets the page of {@code id}; returns the previous page or {@link #MISSING}. */
  public long put(long id, long page) {
    if (id <= 0) {
      throw new IllegalArgumentException("inode id " + id);
    }
    if (page <= 0 || page > MAX_OFFSET || (page & 0xff) != 0) {
      throw new IllegalArgumentException(
          "page offset " + page + " is not a 256-byte aligned offset below 512 GiB");
    }
    long old = sparse.size() == 0 ? MISSING : sparse.remove(id);
    if (old != MISSING) {
      size--;
    }
    int c = chunkFor(id);
    int[] chunk = chunks[c];
    if (chunk == null) {
      chunk = chunks[c] = new int[CHUNK];
    }
    int i = (int) (id & (CHUNK - 1));
    if (chunk[i] != 0) {
      old = (long) chunk[i] << 8;
    } else {
      live[c]++;
      size++;
    }
    chunk[i] = (int) (page >>> 8);
    return old;
  }

  /** Removes {@code id}; returns its page or {@link #MISSING}. */
  public long remove(long id) {
    if (id > 0) {
      long c = id >>> SHIFT;
      if (c < chunks.length && chunks[(int) c] != null) {
        int[] chunk = chunks[(int) c];
        int i = (int) (id & (CHUNK - 1));
        if (chunk[i] != 0) {
          long old = (long) chunk[i] << 8;
          chunk[i] = 0;
          size--;
          // the newest chunk is still being filled by new ids: it is never spilled
          if (--live[(int) c] <= SPARSE && c < newestChunk) {
            spill((int) c);
          }
          return old;
        }
      }
    }
    long old = sparse.size() == 0 ? MISSING : sparse.remove(id);
    if (old != MISSING) {
      size--;
    }
    return old;
  }

  /** Moves a nearly empty chunk's ids into the sparse map and drops the chunk. */
  private void spill(int c) {
    int[] chunk = chunks[c];
    long base = (long) c << SHIFT;
    for (int i = 0; i < CHUNK; i++) {
      if (chunk[i] != 0) {
        sparse.put(base + i, (long) chunk[i] << 8);
      }
    }
    chunks[c] = null;
    live[c] = 0;
  }

  private int chunkFor(long id) {
    long c = id >>> SHIFT;
    newestChunk = Math.max(newestChunk, c);
    if (c >= Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException("inode id " + id + " is beyond this map's range");
    }
    if (c >= chunks.length) {
      int cap = chunks.length;
      while (cap <= c) {
        cap = cap + (cap >> 1) + 1;
      }
      chunks = java.util.Arrays.copyOf(chunks, cap);
      live = java.util.Arrays.copyOf(live, cap);
    }
    return (int) c;
  }

  /** The ids, in no particular order (a copy). */
  public long[] keys() {
    long[] out = new long[size];
    int n = 0;
    for (int c = 0; c < chunks.length; c++) {
      int[] chunk = chunks[c];
      if (chunk != null) {
        for (int i = 0; i < CHUNK; i++) {
          if (chunk[i] != 0) {
            out[n++] = ((long) c << SHIFT) + i;
          }
        }
      }
    }
    for (long k : sparse.keys()) {
      out[n++] = k;
    }
    return out;
  }

  /** Heap bytes of the arrays. */
  public long heapBytes() {
    long b = 4L * chunks.length + 2L * live.length + sparse.heapBytes();
    for (int[] c : chunks) {
      if (c != null) {
        b += 16 + 4L * CHUNK;
      }
    }
    return b;
  }
}
