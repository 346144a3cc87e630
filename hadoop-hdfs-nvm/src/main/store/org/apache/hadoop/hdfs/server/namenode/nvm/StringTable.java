package org.apache.hadoop.hdfs.server.namenode.nvm;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Stable string ids for user, group, client and machine names (region-format.md §5.4). Strings of
 * any length are stored: up to STRING_MAX bytes in the STRING page, longer ones in a chain of
 * STRING_EXT pages. Each string counts the references live inodes hold to it (owner, group, client
 * name, client machine). A string without references is <em>idle</em>: it is kept, so a client that
 * opens one file after another does not write and free its name each time, until more than {@link
 * #IDLE_MAX} strings are idle (the oldest goes, in the batch that makes one too many), a sweep is
 * asked for ({@link #requestSweep}: a clean close, a nearly full region), or a crash leaves it for
 * recovery to reclaim. A freed id may be handed out again by a later batch: a new string takes the
 * lowest id no live string has, so ids stay below the number of live strings (owner and group ids
 * must fit 24 bits). Ids start at 1 (0 means none); SB_LAST_STRING_ID is the highest id ever handed
 * out.
 *
 * <p>Changes are staged with the caller's batch — new strings ({@link #ref}), dropped references
 * ({@link #unref}), the pages to free ({@link #stageFrees}) — and become visible only after {@link
 * #commitStaged()}; {@link #abortStaged()} forgets them if the batch failed. {@link #pagesNeeded}
 * may be called without the caller's lock (it reads only committed strings).
 */
public final class StringTable {
  /** Idle strings kept (beyond them the oldest is freed). */
  static final int IDLE_MAX = 256;

  private final Region region;

  /** Committed string -&gt; id; concurrent, for {@link #pagesNeeded} without the lock. */
  private final Map<String, Long> ids = new ConcurrentHashMap<String, Long>();

  private final Map<Long, String> strings = new HashMap<Long, String>();

  /** Committed id -&gt; its STRING page. */
  private final LongLongMap pages = new LongLongMap();

  /** Committed id -&gt; references from live inodes (absent = 0). */
  private final LongLongMap refs = new LongLongMap();

  /** Committed ids without references, oldest first. */
  private final IdleStrings idle = new IdleStrings();

  /** Ids of live strings, committed or staged (a new string takes the lowest clear bit). */
  private final BitSet usedIds = new BitSet();

  private long lastId;

  // ---- the open transaction's changes
  private final Map<String, Long> staged = new LinkedHashMap<String, Long>();
  private final LongLongMap stagedPages = new LongLongMap();

  /** Id -&gt; change of its reference count in the open transaction. */
  private final LongLongMap delta = new LongLongMap();

  private final List<Long> deltaIds = new ArrayList<Long>();
  private final List<Long> stagedIds = new ArrayList<Long>();
  private final List<Long> freedIds = new ArrayList<Long>();
  private long stagedLastId;
  private boolean sweep;

  private StringTable(Region region) {
    this.region = region;
  }

  /**
   * Rebuilds the table from the string pages recovery kept and their reference counts (or, for a
   * region opened read-only, from a page scan, without counts: such a table is never written).
   */
  public static StringTable load(Region region) {
    StringTable t = new StringTable(region);
    long[] found = region.isReadOnly() ? scan(region) : region.recoveredStrings();
    long[] counts = region.isReadOnly() ? new long[found.length] : region.recoveredStringRefs();
    for (int i = 0; i < found.length; i++) {
      long p = found[i];
      long id = region.getLong(p + ST_ID);
      String s = new String(read(region, p), StandardCharsets.UTF_8);
      t.ids.put(s, id);
      t.strings.put(id, s);
      t.pages.put(id, p);
      if (counts[i] > 0) {
        t.refs.put(id, counts[i]);
      } else if (!region.isReadOnly()) {
        t.idle.add(id); // recovery keeps only referenced strings; a created region has none
      }
      t.markUsed(id, true);
      t.lastId = Math.max(t.lastId, id);
    }
    t.lastId = Math.max(t.lastId, region.lastStringId());
    t.stagedLastId = t.lastId;
    return t;
  }

  private static long[] scan(Region region) {
    long n = region.pageCount();
    long[] out = new long[16];
    int k = 0;
    for (long i = 0; i < n; i++) {
      long p = pageOffset(i);
      long w = region.getLong(p);
      // a LIVE page's top half is its checksum (or, not upgraded yet, the magic)
      if ((w & 0xffff0000L) == 0 && kindOf(w) == KIND_STRING && stateOf(w) == STATE_LIVE) {
        if (k == out.length) {
          out = Arrays.copyOf(out, k * 2);
        }
        out[k++] = p;
      }
    }
    return Arrays.copyOf(out, k);
  }

  /** The bytes of the string at {@code page}: inline, or through its STRING_EXT chain. */
  private static byte[] read(Region region, long page) {
    long len = region.getLong(page + ST_LEN);
    if (len < 0 || len > Integer.MAX_VALUE - 8) {
      throw new IllegalStateException("string page " + page + " has length " + len);
    }
    if (len <= STRING_MAX) {
      return region.getBytes(page + ST_BYTES, (int) len);
    }
    byte[] b = new byte[(int) len];
    int at = 0;
    for (long e = region.getLong(page + ST_EXT); at < b.length && e != 0; ) {
      int n = (int) region.getLong(e + EXT_COUNT);
      System.arraycopy(region.getBytes(e + EXT_PAYLOAD, n), 0, b, at, n);
      at += n;
      e = region.getLong(e + EXT_NEXT);
    }
    return b;
  }

  /** STRING_EXT pages of the chained string at {@code page} (recovery verified the chain). */
  private long[] chain(long page) {
    long len = region.getLong(page + ST_LEN);
    if (len <= STRING_MAX) {
      return new long[0];
    }
    long[] out = new long[PageCodec.byteExtPages(len)];
    long e = region.getLong(page + ST_EXT);
    for (int i = 0; i < out.length; i++) {
      out[i] = e;
      e = region.getLong(e + EXT_NEXT);
    }
    return out;
  }

  /** The UTF-8 bytes of {@code s}. */
  static byte[] encode(String s) {
    if (s == null) {
      throw new NullPointerException("string");
    }
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /** Pages a new string {@code s} takes: its STRING page and, if it is long, its chain. */
  public static int pagesFor(String s) {
    int len = encode(s).length;
    return 1 + (len > STRING_MAX ? PageCodec.byteExtPages(len) : 0);
  }

  /** Pages storing {@code s} would take now: 0 if it is in the table (or null). Lock-free. */
  public int pagesNeeded(String s) {
    return s == null || ids.containsKey(s) ? 0 : pagesFor(s);
  }

  /** Idle strings (a sweep would free them). */
  public int idleCount() {
    return idle.size();
  }

  /** The next {@link #stageFrees} frees every idle string (the caller commits a batch for it). */
  void requestSweep() {
    sweep = true;
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

  /** The id a new string would get now: the lowest id no live or staged string has. */
  public long nextId() {
    return usedIds.nextClearBit(1);
  }

  /** Ids past the BitSet's range (never handed out by this table) are not tracked. */
  private void markUsed(long id, boolean used) {
    if (id > 0 && id < Integer.MAX_VALUE) {
      usedIds.set((int) id, used);
    }
  }

  /**
   * One more reference to {@code s}: returns its id, staging a new STRING page if needed (a FRESH
   * PENDING image plus an INPLACE commit of its state word to LIVE, and for a long string its
   * STRING_EXT chain, written LIVE out of place and reachable only through the string page). The
   * SB_LAST_STRING_ID update is staged once per batch by {@link #stageCounter}.
   */
  public long ref(String s, MutationBatch batch, PageReserver reserver) throws NvmException {
    long id = lookup(s);
    if (id == 0) {
      id = stage(s, batch, reserver);
    }
    addDelta(id, 1);
    return id;
  }

  /** One reference to string {@code id} less (0 = none: nothing to do). */
  public void unref(long id) {
    if (id != 0) {
      addDelta(id, -1);
    }
  }

  private void addDelta(long id, long d) {
    long cur = delta.get(id);
    if (cur == LongLongMap.MISSING) {
      cur = 0;
      deltaIds.add(id);
    }
    delta.put(id, cur + d);
  }

  private long stage(String s, MutationBatch batch, PageReserver reserver) throws NvmException {
    byte[] b = encode(s);
    long page = reserver.next();
    int n = b.length > STRING_MAX ? PageCodec.byteExtPages(b.length) : 0;
    long[] ext = new long[n];
    for (int i = 0; i < n; i++) {
      ext[i] = reserver.next();
    }
    long id = nextId();
    markUsed(id, true);
    stagedIds.add(id);
    stagedLastId = Math.max(stagedLastId, id);
    for (int i = 0; i < n; i++) {
      int off = i * NAME_EXT_MAX;
      batch.fresh(
          ext[i],
          PageCodec.stringExt(
              id, i + 1 < n ? ext[i + 1] : 0, b, off, Math.min(NAME_EXT_MAX, b.length - off)),
          Field.PAGE);
    }
    batch.fresh(page, PageCodec.string(id, b, n == 0 ? 0 : ext[0]), Field.PAGE);
    batch.putLong(page + PG_STATE, stateWord(KIND_STRING, STATE_LIVE), Field.STATE);
    staged.put(s, id);
    stagedPages.put(id, page);
    return id;
  }

  /**
   * Stages FREE of the idle strings that must go (their pages and chains; FREEs apply after the
   * commit): every one on a requested sweep, else the oldest beyond {@link #IDLE_MAX}, counting
   * those this transaction leaves without references. Call once, just before the batch is applied.
   */
  void stageFrees(MutationBatch batch) {
    int newlyIdle = 0;
    for (int i = 0; i < deltaIds.size(); i++) {
      if (becomesIdle(deltaIds.get(i))) {
        newlyIdle++;
      }
    }
    int excess = sweep ? Integer.MAX_VALUE : idle.size() + newlyIdle - IDLE_MAX;
    if (excess > 0) { // the common case frees nothing and walks no set
      for (long id = idle.oldest(); excess > 0 && id != 0; id = idle.after(id)) {
        long d = delta.get(id);
        if (d == LongLongMap.MISSING || d == 0) {
          free(batch, id);
          excess--;
        }
      }
    }
    if (sweep) {
      for (int i = 0; i < deltaIds.size(); i++) {
        long id = deltaIds.get(i);
        if (becomesIdle(id)) {
          free(batch, id);
        }
      }
    }
  }

  /** Whether committed string {@code id}, not idle now, has no references after this batch. */
  private boolean becomesIdle(long id) {
    return pages.containsKey(id) && count(id) + delta.get(id) == 0 && !idle.contains(id);
  }

  private void free(MutationBatch batch, long id) {
    long page = pages.get(id);
    for (long e : chain(page)) {
      batch.free(e);
    }
    batch.free(page);
    freedIds.add(id);
  }

  private long count(long id) {
    long c = refs.get(id);
    return c == LongLongMap.MISSING ? 0 : c;
  }

  /** Stages SB_LAST_STRING_ID if a new id above it was handed out (one store per batch). */
  void stageCounter(MutationBatch batch) {
    if (stagedLastId > lastId) {
      batch.putLong(SB_LAST_STRING_ID, stagedLastId, Field.COUNTER);
    }
  }

  /** The staged changes were applied. */
  void commitStaged() {
    if (!staged.isEmpty()) {
      for (Map.Entry<String, Long> e : staged.entrySet()) {
        ids.put(e.getKey(), e.getValue());
        strings.put(e.getValue(), e.getKey());
        pages.put(e.getValue(), stagedPages.get(e.getValue()));
      }
    }
    for (int i = 0; i < deltaIds.size(); i++) {
      long id = deltaIds.get(i);
      long c = count(id) + delta.get(id);
      if (c > 0) {
        refs.put(id, c);
        idle.remove(id);
      } else {
        refs.remove(id);
        idle.add(id);
      }
    }
    for (int i = 0; i < freedIds.size(); i++) {
      long id = freedIds.get(i);
      ids.remove(strings.remove(id));
      pages.remove(id);
      idle.remove(id);
      markUsed(id, false);
    }
    lastId = stagedLastId;
    clearStaged();
  }

  /** The staged changes were not applied. */
  void abortStaged() {
    for (int i = 0; i < stagedIds.size(); i++) {
      markUsed(stagedIds.get(i), false);
    }
    stagedLastId = lastId;
    clearStaged();
  }

  private void clearStaged() {
    sweep = false;
    staged.clear();
    stagedPages.clear();
    delta.clear();
    deltaIds.clear();
    stagedIds.clear();
    freedIds.clear();
  }

  public int size() {
    return ids.size();
  }

  public long lastId() {
    return lastId;
  }

  /** References live inodes hold to string {@code id} (committed state). */
  public long references(long id) {
    return count(id);
  }
}
