package org.apache.hadoop.hdfs.server.namenode;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeStore;
import org.apache.hadoop.hdfs.server.namenode.nvm.RecordView;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionUsage;
import org.apache.hadoop.hdfs.server.namenode.nvm.Txn;
import org.apache.hadoop.ipc.Server;

/**
 * The retry cache across restarts (region-format.md §5.5, "The retry log"). The stock NameNode logs
 * the RPC client id and call id with every edit of a call a client may retry (create, append,
 * rename, delete, updatePipeline, …) and rebuilds its retry cache from them when it replays the
 * edit log, so a call retried after a restart gets the original answer. The region has no edit log:
 * each such call writes an entry — its ids, its time, what it answered about — into a ring of
 * record pages, in the batch of the edit itself, so the entry is durable exactly when the change
 * is. At start-up every entry younger than the retry cache's expiry goes back into the retry cache
 * as 2.7.3's replay puts it there ({@code addCacheEntry}, {@code addCacheEntryWithPayload}).
 *
 * <p>The ring holds the newest {@code capacity} entries (rounded up to whole pages, and at most one
 * page in {@link #REGION_SHARE} of the region); like the stock retry cache, which is bounded by a
 * share of the heap, it forgets the oldest beyond that. Its pages are allocated when the NameNode
 * starts, before it serves, so that an entry is always written in place and a client's operation
 * never competes with the ring for room; a region too full for the whole ring gets a smaller one.
 * {@link #stage} runs inside the caller's transaction, under the namesystem write lock.
 */
final class NvmRetryLog {
  static final Log LOG = LogFactory.getLog(NvmRetryLog.class);

  /** An entry: the ids of a call (its sequence number is 0 until the log has written it). */
  static final class Entry {
    final long seq;
    final byte[] clientId;
    final int callId;
    final int kind;
    final long inodeId;
    final long time;

    Entry(long seq, byte[] clientId, int callId, int kind, long inodeId, long time) {
      this.seq = seq;
      this.clientId = clientId;
      this.callId = callId;
      this.kind = kind;
      this.inodeId = inodeId;
      this.time = time;
    }
  }

  /**
   * The call an HA standby is applying an edit of (its RPC ids as the active logged them), which
   * stands in for the current RPC call while the edit's batch is staged; see {@link #replaying}.
   */
  private static final ThreadLocal<Entry> REPLAYED_CALL = new ThreadLocal<>();

  /**
   * HA standby: until {@link #replayed()}, {@link #forCurrentCall} answers with these ids (those an
   * edit carries), so the region keeps the entry the active kept for the same call.
   */
  static void replaying(byte[] clientId, int callId) {
    if (clientId == null || clientId.length != RETRY_CLIENT_ID_LEN || callId < 0) {
      REPLAYED_CALL.remove();
    } else {
      REPLAYED_CALL.set(new Entry(0, clientId.clone(), callId, 0, 0, System.currentTimeMillis()));
    }
  }

  static void replayed() {
    REPLAYED_CALL.remove();
  }

  /** The ring takes at most one page in this many of the region. */
  static final int REGION_SHARE = 64;

  /** Ring pages created per batch at start-up (each page's commit is one log entry). */
  static final int PAGES_PER_BATCH = 128;

  private final long[] pages; // ring page index -> record page; the ring is pages[0, ring)
  private int ring;
  private long nextSeq = 1;

  /** The thread answering the restored create and append entries; null if there were none. */
  private NvmRetryAnswers answers;

  private NvmRetryLog(int capacityPages) {
    this.pages = new long[capacityPages];
  }

  /** Ring pages for {@code entries} entries in a region of {@code pageCount} pages. */
  static int ringPages(int entries, long pageCount) {
    long want = (entries + (long) RETRY_SLOTS - 1) / RETRY_SLOTS;
    return (int) Math.max(0, Math.min(want, pageCount / REGION_SHARE));
  }

  /**
   * The ids of the RPC call this thread serves, as an entry of {@code kind}; null when there is no
   * call a client could retry (not an RPC, or one without a client id or call id: the stock retry
   * cache skips those too).
   */
  Entry forCurrentCall(int kind, long inodeId) {
    Entry replayed = REPLAYED_CALL.get();
    if (replayed != null) {
      return new Entry(0, replayed.clientId, replayed.callId, kind, inodeId, replayed.time);
    }
    if (!Server.isRpcInvocation() || Server.getCallId() < 0) {
      return null;
    }
    byte[] id = Server.getClientId();
    if (id == null || id.length != RETRY_CLIENT_ID_LEN) {
      return null;
    }
    return new Entry(0, id.clone(), Server.getCallId(), kind, inodeId, System.currentTimeMillis());
  }

  /**
   * Stages {@code e} into {@code t}: in place into its ring slot, or with the slot's page if the
   * ring has not reached it yet. A region too full for that page costs the entry, never the batch:
   * the retry cache is a best effort in 2.7.3 too.
   */
  void stage(Txn t, Entry e) throws IOException {
    if (ring == 0) {
      return; // a region with no room for a ring: no entry is kept
    }
    long seq = nextSeq;
    long slot = (seq - 1) % ((long) ring * RETRY_SLOTS);
    int offset = (int) (slot % RETRY_SLOTS) * RETRY_ENTRY_SIZE;
    t.setRecordPayload(pages[(int) (slot / RETRY_SLOTS)], offset, encode(seq, e));
    nextSeq = seq + 1;
  }

  private static byte[] encode(long seq, Entry e) {
    ByteBuffer b = ByteBuffer.allocate(RETRY_ENTRY_SIZE).order(ByteOrder.LITTLE_ENDIAN);
    b.putLong(RE_SEQ, seq).putLong(RE_TIME, e.time);
    b.position(RE_CLIENT_ID);
    b.put(e.clientId);
    b.putInt(RE_CALL_ID, e.callId).putInt(RE_KIND, e.kind).putLong(RE_INODE, e.inodeId);
    return b.array();
  }

  /**
   * The retry log of a region at start-up: the ring's recovered pages ({@code recordPages}; null
   * for a new region), every entry younger than {@code expiryMs} back into {@code fsn}'s retry
   * cache, oldest first (a create's or an append's in progress, answered by {@link NvmRetryAnswers}
   * once the load releases the write lock), pages past a smaller ring removed (their entries
   * restored first), and the missing pages of a ring of {@code capacityPages} created while the
   * region has more than {@code reservePages} free.
   */
  static NvmRetryLog open(
      FSNamesystem fsn,
      InodeStore store,
      long[] recordPages,
      int capacityPages,
      long expiryMs,
      long reservePages)
      throws IOException {
    NvmRetryLog log =
        recordPages == null
            ? new NvmRetryLog(capacityPages)
            : restore(fsn, store, recordPages, capacityPages, expiryMs);
    log.allocate(store, reservePages);
    return log;
  }

  /** Creates the ring's missing pages, {@link #PAGES_PER_BATCH} per batch, while there is room. */
  private void allocate(InodeStore store, long reservePages) throws IOException {
    int missing = 0;
    for (long p : pages) {
      missing += p == 0 ? 1 : 0;
    }
    if (missing > 0) {
      RegionUsage u = store.region().usage();
      long room = u.pagesFree() - reservePages;
      byte[] empty = new byte[RETRY_SLOTS * RETRY_ENTRY_SIZE];
      int index = 0;
      while (missing > 0 && room > 0) {
        try (Txn t = store.begin()) {
          for (int n = 0; n < PAGES_PER_BATCH && missing > 0 && room > 0; index++) {
            if (pages[index] == 0) {
              pages[index] = t.createRecord(RECORD_RETRY_LOG, index, 0, empty);
              missing--;
              room--;
              n++;
            }
          }
          t.commit();
        }
      }
    }
    ring = 0;
    while (ring < pages.length && pages[ring] != 0) {
      ring++;
    }
    if (ring < pages.length) {
      LOG.warn(
          "NVM region: room for "
              + ring
              + " of "
              + pages.length
              + " retry log pages; the retry cache keeps the newest "
              + (long) ring * RETRY_SLOTS
              + " calls across restarts");
    }
  }

  private static NvmRetryLog restore(
      FSNamesystem fsn, InodeStore store, long[] recordPages, int capacityPages, long expiryMs)
      throws IOException {
    NvmRetryLog log = new NvmRetryLog(capacityPages);
    List<Long> stale = new ArrayList<>();
    List<Entry> live = new ArrayList<>();
    long now = System.currentTimeMillis();
    for (long page : recordPages) {
      RecordView r = store.record(page);
      if (r.type() != RECORD_RETRY_LOG) {
        continue;
      }
      if (r.key() >= 0 && r.key() < log.pages.length) {
        log.pages[(int) r.key()] = page;
      } else {
        stale.add(page);
      }
      int slots = (int) Math.min(RETRY_SLOTS, r.payloadLength() / RETRY_ENTRY_SIZE);
      for (int s = 0; s < slots * RETRY_ENTRY_SIZE; s += RETRY_ENTRY_SIZE) {
        long seq = r.inlineLong(s + RE_SEQ);
        if (seq == 0) {
          continue;
        }
        log.nextSeq = Math.max(log.nextSeq, seq + 1);
        long time = r.inlineLong(s + RE_TIME);
        if (time + expiryMs <= now) {
          continue; // expired: the stock cache would have dropped it too
        }
        byte[] id = new byte[RETRY_CLIENT_ID_LEN];
        r.inlineBytes(s + RE_CLIENT_ID, id);
        live.add(
            new Entry(
                seq,
                id,
                r.inlineInt(s + RE_CALL_ID),
                r.inlineInt(s + RE_KIND),
                r.inlineLong(s + RE_INODE),
                time));
      }
    }
    live.sort(Comparator.comparingLong(e -> e.seq)); // oldest first, as a replay adds them
    List<Entry> toAnswer = new ArrayList<>();
    for (Entry e : live) {
      if (e.kind == RETRY_SUCCESS) {
        fsn.addCacheEntry(e.clientId, e.callId);
      } else if (e.kind == RETRY_CACHE_DIRECTIVE) { // the id addCacheDirective answered
        fsn.addCacheEntryWithPayload(e.clientId, e.callId, e.inodeId);
      } else if (e.kind == RETRY_CREATE_SNAPSHOT) { // the path createSnapshot answered
        // (the snapshots are restored by now; one renamed since answers with its new name, one
        // deleted since with none, where a stock replay keeps the path the call answered)
        fsn.addCacheEntryWithPayload(
            e.clientId, e.callId, SnapshotRestore.snapshotPath(fsn, (int) e.inodeId));
      } else {
        toAnswer.add(e); // a create's or an append's: answered after the load
      }
    }
    log.answers = NvmRetryAnswers.start(fsn, fsn.getRetryCache(), toAnswer, expiryMs * 1_000_000L);
    for (int from = 0; from < stale.size(); from += PAGES_PER_BATCH) {
      try (Txn t = store.begin()) {
        for (long p : stale.subList(from, Math.min(stale.size(), from + PAGES_PER_BATCH))) {
          t.removeRecord(p);
        }
        t.commit();
      }
    }
    LOG.info(
        "NVM region: "
            + live.size()
            + " retry cache entries younger than "
            + expiryMs
            + " ms restored ("
            + toAnswer.size()
            + " create/append calls answered after the load); retry log of "
            + log.pages.length
            + " pages, next entry "
            + log.nextSeq);
    return log;
  }

  /**
   * Stops answering the restored create and append entries ({@link NvmRetryAnswers}); called before
   * the region closes.
   */
  void stopAnswering() {
    NvmRetryAnswers a = answers;
    if (a != null) {
      a.stop();
    }
  }

  /** The restored entries' answers (null when none were restored), for tests. */
  NvmRetryAnswers answers() {
    return answers;
  }

  /** Pages in the ring (for tests and the log). */
  int ringPages() {
    return ring;
  }
}
