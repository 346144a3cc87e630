package org.apache.hadoop.hdfs.server.namenode.nvm;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Stable string ids for user, group, client and machine names. Ids start at 1 (0 means none) and
 * are never reused: SB_LAST_STRING_ID only grows. New strings are staged into the caller's batch
 * and become visible to lookups only after {@link #commitStaged()}; {@link #abortStaged()} forgets
 * them if the batch failed.
 */
public final class StringTable {
  private final Region region;
  private final Map<String, Long> ids = new HashMap<String, Long>();
  private final Map<Long, String> strings = new HashMap<Long, String>();
  private final Map<String, Long> staged = new LinkedHashMap<String, Long>();
  private long lastId;

  private StringTable(Region region) {
    this.region = region;
  }

  /** Rebuilds the table from the string pages recovery found (or, read-only, by a page scan). */
  public static StringTable load(Region region) {
    StringTable t = new StringTable(region);
    long[] pages = region.isReadOnly() ? scan(region) : region.recoveredStrings();
    for (long p : pages) {
      long id = region.getLong(p + ST_ID);
      int len = (int) region.getLong(p + ST_LEN);
      if (len < 0 || len > STRING_MAX) {
        throw new IllegalStateException("string page " + p + " has length " + len);
      }
      String s = new String(region.getBytes(p + ST_BYTES, len), StandardCharsets.UTF_8);
      t.ids.put(s, id);
      t.strings.put(id, s);
      t.lastId = Math.max(t.lastId, id);
    }
    t.lastId = Math.max(t.lastId, region.lastStringId());
    return t;
  }

  private static long[] scan(Region region) {
    long n = region.pageCount();
    long[] out = new long[16];
    int k = 0;
    for (long i = 0; i < n; i++) {
      long p = pageOffset(i);
      long w = region.getLong(p);
      if (magicOf(w) == PAGE_MAGIC && kindOf(w) == KIND_STRING && stateOf(w) == STATE_LIVE) {
        if (k == out.length) {
          out = java.util.Arrays.copyOf(out, k * 2);
        }
        out[k++] = p;
      }
    }
    return java.util.Arrays.copyOf(out, k);
  }

  /** The UTF-8 bytes of {@code s}, or an ETOOLONG NvmException if they exceed STRING_MAX. */
  static byte[] encode(String s) throws NvmException {
    if (s == null) {
      throw new NullPointerException("string");
    }
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    if (b.length > STRING_MAX) {
      throw new NvmException(
          NvmException.ErrorCode.ETOOLONG,
          "string of "
              + b.length
              + " UTF-8 bytes exceeds the limit of "
              + STRING_MAX
              + ": "
              + s.substring(0, Math.min(32, s.length()))
              + "...");
    }
    return b;
  }

  /** Throws ETOOLONG if {@code s} cannot be stored; call before staging anything. */
  static void check(String s) throws NvmException {
    if (s != null) {
      encode(s);
    }
  }

  /** The id of {@code s}, or 0 if it is not in the table (staged strings included). */
  public long lookup(String s) {
    Long id = ids.get(s);
    if (id == null) {
      id = staged.get(s);
    }
    return id == null ? 0 : id;
  }

  /** The string of {@code id}, or null (also for 0). */
  public String get(long id) {
    return strings.get(id);
  }

  /** Whether {@code s} would need a new page. */
  boolean isNew(String s) {
    return lookup(s) == 0;
  }

  /**
   * Returns the id of {@code s}, staging a new STRING page if needed: a FRESH PENDING image plus an
   * INPLACE commit of its state word to LIVE. The SB_LAST_STRING_ID update is staged once per batch
   * by {@link #stageCounter}.
   */
  public long idFor(String s, MutationBatch batch, PageReserver reserver) throws NvmException {
    long id = lookup(s);
    if (id != 0) {
      return id;
    }
    byte[] b = encode(s);
    long page = reserver.next();
    id = lastId + staged.size() + 1;
    batch.fresh(page, PageCodec.string(id, b), Field.PAGE);
    batch.putLong(page + PG_STATE, stateWord(KIND_STRING, STATE_LIVE), Field.STATE);
    staged.put(s, id);
    return id;
  }

  /** Stages SB_LAST_STRING_ID if strings were staged (one counter store per batch). */
  void stageCounter(MutationBatch batch) {
    if (!staged.isEmpty()) {
      batch.putLong(SB_LAST_STRING_ID, lastId + staged.size(), Field.COUNTER);
    }
  }

  /** The staged strings were applied. */
  void commitStaged() {
    for (Map.Entry<String, Long> e : staged.entrySet()) {
      ids.put(e.getKey(), e.getValue());
      strings.put(e.getValue(), e.getKey());
    }
    lastId += staged.size();
    staged.clear();
  }

  void abortStaged() {
    staged.clear();
  }

  public int size() {
    return ids.size();
  }

  public long lastId() {
    return lastId;
  }
}
