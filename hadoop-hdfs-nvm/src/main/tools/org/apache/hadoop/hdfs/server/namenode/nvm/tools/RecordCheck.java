package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The records (region-format.md §5.5) against each other and the record counters. Recovery keeps
 * every LIVE record and verifies only its RECORD_EXT chain ({@link ChainCheck}); the NameNode's
 * restore (NvmTokenWriteThrough.restore) refuses a record of an unknown type, a key outside int
 * range, a token payload that is not a delegation token identifier or whose sequence number is not
 * the record's key, and two tokens with one sequence number or two master keys with one id. A
 * record id used twice, or a record id, token sequence number or master key id above its counter
 * (they grow in the batch that writes the record) means a damaged field or counter: the NameNode
 * would hand the number out again. Of two records with one id or key, the one at the higher offset
 * is reported. Truncate block records: two for one inode are refused by the restore
 * (NvmTruncateRecords.restore) too; the rest is {@link TruncateRecordCheck}'s. Snapshot records:
 * two of one snapshot id or one inode's diffs are refused by the restore too; the rest is {@link
 * SnapshotRecordCheck}'s.
 *
 * <p>The cache records (NvmCacheWriteThrough.restore refuses what this reports, except where said):
 * a pool or directive payload that is not the protobuf message Hadoop 2.7.3 parses ({@link
 * CachePoolPayload}, {@link CacheDirectivePayload}), or lacks a field or has a value the cache
 * manager refuses; two pools of one name, two directives of one id, a directive whose key is not
 * its payload's id, a directive naming a pool no record holds, a second RECORD_CACHE_IDS record;
 * and what the writer never leaves (the restore does not read it, so the fields are damaged): a
 * pool or ids record with a key other than 0, a directive id at or above the ids record's next id
 * (or a directive without an ids record), an ids record whose next id is not positive.
 */
final class RecordCheck {
  private final RegionModel m;
  private final List<Finding> out;

  /** Record id, and per type the key, mapped to the lowest page seen with it. */
  private final Map<Long, Long> pageOfId = new HashMap<Long, Long>();

  private final Map<Long, Long> pageOfToken = new HashMap<Long, Long>();
  private final Map<Long, Long> pageOfMasterKey = new HashMap<Long, Long>();
  private final Map<Long, Long> pageOfRetryPage = new HashMap<Long, Long>();
  private final Map<Long, Long> pageOfDirective = new HashMap<Long, Long>();
  private final Map<Long, Long> pageOfTruncate = new HashMap<Long, Long>();
  private final Map<Long, Long> pageOfSnapshot = new HashMap<Long, Long>();
  private final Map<Long, Long> pageOfDiffs = new HashMap<Long, Long>();
  private final Map<Long, Long> pageOfRef = new HashMap<Long, Long>();
  private final SnapshotRecordCheck snapshots;

  /** Pool name mapped to the lowest page with it, and that page's offset of the name. */
  private final Map<String, Long> pageOfPool = new HashMap<String, Long>();

  private final Map<String, Long> poolNameOffset = new HashMap<String, Long>();

  /** A pool record whose name cannot be read: then no directive's pool is called missing. */
  private boolean unreadablePool;

  /** The lowest RECORD_CACHE_IDS page, or -1. */
  private long idsPage = -1;

  /** Directive record pages, for the checks against every record. */
  private final LongList directivePages = new LongList();

  /** Directive page mapped to its pool's name and the region offset of that field. */
  private final Map<Long, String> poolOfDirective = new HashMap<Long, String>();

  /** Diff entry records by directory and child: one per pair. */
  private final Map<Long, Map<Long, Long>> pageOfEntry = new HashMap<Long, Map<Long, Long>>();

  /** Inode id &rarr; (snapshot id &rarr; diff record page). */
  private final Map<Long, Map<Long, Long>> pageOfDiff = new HashMap<Long, Map<Long, Long>>();

  private final Map<Long, Long> poolFieldOffset = new HashMap<Long, Long>();

  private RecordCheck(RegionModel m, List<Finding> out) {
    this.m = m;
    this.out = out;
    this.snapshots = new SnapshotRecordCheck(m, out);
  }

  static void run(RegionModel m, List<Finding> out) {
    RecordCheck c = new RecordCheck(m, out);
    LongList records = m.census.liveRecords; // empty without the records feature
    for (int i = 0; i < records.size(); i++) {
      c.check(m.record(records.get(i)));
    }
    c.cacheReferences();
    c.snapshots.finish();
  }

  private void check(RecordPage r) {
    long lastId = m.image.counter(SB_LAST_RECORD_ID);
    if (Long.compareUnsigned(r.id(), lastId) > 0) {
      add(
          Finding.Kind.RECORD_ABOVE_COUNTER,
          r.page + RC_ID,
          r.describe()
              + ": id "
              + Long.toUnsignedString(r.id())
              + " is above the superblock's "
              + "SB_LAST_RECORD_ID "
              + lastId
              + "; the NameNode would hand it out again");
    }
    duplicate(pageOfId, r.id(), r, RC_ID, Finding.Kind.DUPLICATE_RECORD_ID, "record id");
    if (r.isRetryLog()) {
      retryLog(r);
      return;
    }
    if (r.isCachePool()) {
      cachePool(r);
      return;
    }
    if (r.isCacheDirective()) {
      cacheDirective(r);
      return;
    }
    if (r.isCacheIds()) {
      cacheIds(r);
      return;
    }
    if (r.isTruncateBlock()) {
      duplicate(
          pageOfTruncate,
          r.key(),
          r,
          RC_KEY,
          Finding.Kind.DUPLICATE_RECORD_KEY,
          "truncate block inode id");
      TruncateRecordCheck.check(m, r, out);
      return;
    }
    if (r.isSnapshot()) {
      duplicate(
          pageOfSnapshot, r.key(), r, RC_KEY, Finding.Kind.DUPLICATE_RECORD_KEY, "snapshot id");
      snapshots.snapshot(r);
      return;
    }
    if (r.isSnapshotIds()) {
      snapshots.counter(r);
      return;
    }
    if (r.isInodeDiffs()) {
      duplicate(
          pageOfDiffs, r.key(), r, RC_KEY, Finding.Kind.DUPLICATE_RECORD_KEY, "diff list inode id");
      snapshots.diffs(r);
      return;
    }
    if (r.isInodeRef()) {
      duplicate(
          pageOfRef, r.key(), r, RC_KEY, Finding.Kind.DUPLICATE_RECORD_KEY, "referred inode id");
      snapshots.reference(r);
      return;
    }
    if (r.isDiffEntry()) {
      duplicate(
          pageOfEntry.computeIfAbsent(r.key(), k -> new HashMap<Long, Long>()),
          r.value(),
          r,
          RC_VALUE,
          Finding.Kind.DUPLICATE_RECORD_KEY,
          "child inode id (in directory " + r.key() + ")");
      snapshots.entry(r);
      return;
    }
    if (r.isDiff()) {
      duplicate(
          pageOfDiff.computeIfAbsent(r.key(), k -> new HashMap<Long, Long>()),
          r.value(),
          r,
          RC_VALUE,
          Finding.Kind.DUPLICATE_RECORD_KEY,
          "snapshot id (of the diffs of inode " + r.key() + ")");
      snapshots.diff(r);
      return;
    }
    if (!r.isToken() && !r.isMasterKey()) {
      add(
          Finding.Kind.BAD_RECORD,
          r.page + RC_TYPE,
          r.describe()
              + ": RC_TYPE "
              + Long.toUnsignedString(r.type())
              + " is none of "
              + RECORD_DELEGATION_TOKEN
              + " (delegation token), "
              + RECORD_MASTER_KEY
              + " (master key), "
              + RECORD_RETRY_LOG
              + " (retry log), "
              + RECORD_CACHE_POOL
              + " (cache pool), "
              + RECORD_CACHE_DIRECTIVE
              + " (cache directive), "
              + RECORD_CACHE_IDS
              + " (cache ids), "
              + RECORD_TRUNCATE_BLOCK
              + " (truncate block), "
              + RECORD_SNAPSHOT
              + " (snapshot), "
              + RECORD_SNAPSHOT_IDS
              + " (snapshot ids), "
              + RECORD_INODE_DIFFS
              + " (inode diffs), "
              + RECORD_INODE_REF
              + " (inode reference), "
              + RECORD_DIFF_ENTRY
              + " (diff entry) and "
              + RECORD_DIFF
              + " (diff); the NameNode refuses to start");
      return;
    }
    if (r.key() < Integer.MIN_VALUE || r.key() > Integer.MAX_VALUE) {
      add(
          Finding.Kind.BAD_RECORD,
          r.page + RC_KEY,
          r.describe()
              + ": key "
              + r.key()
              + " is outside int range (a "
              + (r.isToken() ? "sequence number" : "key id")
              + " is an int); the NameNode "
              + "refuses to start");
      return;
    }
    if (r.isToken()) {
      token(r);
      duplicate(
          pageOfToken,
          r.key(),
          r,
          RC_KEY,
          Finding.Kind.DUPLICATE_RECORD_KEY,
          "delegation token sequence number");
      aboveCounter(r, SB_TOKEN_SEQUENCE, "sequence number");
    } else {
      duplicate(
          pageOfMasterKey, r.key(), r, RC_KEY, Finding.Kind.DUPLICATE_RECORD_KEY, "master key id");
      aboveCounter(r, SB_MASTER_KEY_ID, "key id");
    }
  }

  /**
   * A retry log page: a ring index (an int, once per ring) and a payload of RETRY_SLOTS entries,
   * which the NameNode writes in place and reads slot by slot; an entry in use (RE_SEQ not 0) has a
   * kind the restore knows (NvmRetryLog.addToRetryCache: success, create, append, cache directive;
   * it takes any other for an append).
   */
  private void retryLog(RecordPage r) {
    if (r.key() < 0 || r.key() > Integer.MAX_VALUE) {
      add(
          Finding.Kind.BAD_RECORD,
          r.page + RC_KEY,
          r.describe() + ": ring index " + r.key() + " is not a non-negative int");
    } else {
      duplicate(
          pageOfRetryPage,
          r.key(),
          r,
          RC_KEY,
          Finding.Kind.DUPLICATE_RECORD_KEY,
          "retry ring index");
    }
    if (r.length() != (long) RETRY_SLOTS * RETRY_ENTRY_SIZE) {
      add(
          Finding.Kind.BAD_RECORD,
          r.page + RC_LEN,
          r.describe()
              + ": payload length "
              + Long.toUnsignedString(r.length())
              + " is not "
              + RETRY_SLOTS * RETRY_ENTRY_SIZE
              + " ("
              + RETRY_SLOTS
              + " entries)");
      return;
    }
    byte[] payload = r.payload();
    if (payload == null) {
      return; // a broken chain: ChainCheck reports it
    }
    ByteBuffer b = ByteBuffer.wrap(payload).order(ByteOrder.LITTLE_ENDIAN);
    for (int s = 0; s + RETRY_ENTRY_SIZE <= payload.length; s += RETRY_ENTRY_SIZE) {
      int kind = b.getInt(s + RE_KIND);
      if (b.getLong(s + RE_SEQ) != 0 && (kind < RETRY_SUCCESS || kind > RETRY_CREATE_SNAPSHOT)) {
        add(
            Finding.Kind.BAD_RECORD,
            r.payloadOffset(s + RE_KIND),
            r.describe()
                + ": retry entry "
                + Long.toUnsignedString(b.getLong(s + RE_SEQ))
                + " (slot "
                + s / RETRY_ENTRY_SIZE
                + ") has RE_KIND "
                + Integer.toUnsignedString(kind)
                + ", none of "
                + RETRY_SUCCESS
                + ".."
                + RETRY_CREATE_SNAPSHOT
                + "; the NameNode would answer its retry as an append's");
      }
    }
  }

  /** A pool: key 0, a CachePoolInfoProto the cache manager takes, a name no other pool has. */
  private void cachePool(RecordPage r) {
    zeroKey(r, "a pool is found by the name in its payload");
    byte[] payload = r.payload();
    if (payload == null) {
      unreadablePool = true; // a broken chain: ChainCheck reports it
      return;
    }
    CachePoolPayload p;
    try {
      p = CachePoolPayload.decode(payload);
    } catch (ProtoInput.Malformed e) {
      unreadablePool = true;
      badPayload(r, payload, e, "CachePoolInfoProto", "does not parse");
      return;
    }
    for (ProtoInput.Malformed e : p.problems()) {
      badPayload(r, payload, e, "pool", "is refused");
    }
    if (p.name == null) {
      unreadablePool = true;
      return;
    }
    long nameOffset = r.payloadOffset(p.nameAt);
    Long other = pageOfPool.get(p.name);
    if (other == null) {
      pageOfPool.put(p.name, r.page);
      poolNameOffset.put(p.name, nameOffset);
      return;
    }
    long reported = Math.max(other, r.page);
    long kept = Math.min(other, r.page);
    long at = reported == r.page ? nameOffset : poolNameOffset.get(p.name);
    pageOfPool.put(p.name, kept);
    poolNameOffset.put(p.name, reported == r.page ? poolNameOffset.get(p.name) : nameOffset);
    add(
        Finding.Kind.DUPLICATE_CACHE_POOL,
        at,
        m.record(reported).describe()
            + ": cache pool "
            + quote(p.name)
            + " is also that of "
            + m.record(kept).describe()
            + "; the NameNode refuses to start");
  }

  /**
   * A directive: a CacheDirectiveInfoProto the cache manager takes, whose id is the record's key
   * and no other directive's; its pool and the next id are checked against every record at the end.
   */
  private void cacheDirective(RecordPage r) {
    duplicate(
        pageOfDirective,
        r.key(),
        r,
        RC_KEY,
        Finding.Kind.DUPLICATE_CACHE_DIRECTIVE,
        "cache directive id");
    directivePages.add(r.page);
    byte[] payload = r.payload();
    if (payload == null) {
      return; // a broken chain: ChainCheck reports it
    }
    CacheDirectivePayload d;
    try {
      d = CacheDirectivePayload.decode(payload);
    } catch (ProtoInput.Malformed e) {
      badPayload(r, payload, e, "CacheDirectiveInfoProto", "does not parse");
      return;
    }
    for (ProtoInput.Malformed e : d.problems()) {
      badPayload(r, payload, e, "directive", "is refused");
    }
    if (d.id != null && d.id != r.key()) {
      add(
          Finding.Kind.BAD_CACHE_KEY,
          r.payloadOffset(d.idAt),
          r.describe()
              + ": the directive's id "
              + d.id
              + " is not the record's key "
              + r.key()
              + " (RC_KEY at offset "
              + (r.page + RC_KEY)
              + "); the NameNode refuses to start");
    }
    if (d.pool != null) {
      poolOfDirective.put(r.page, d.pool);
      poolFieldOffset.put(r.page, r.payloadOffset(d.poolAt));
    }
  }

  /** The next directive id: key 0, a positive value, one record per region. */
  private void cacheIds(RecordPage r) {
    zeroKey(r, "there is one ids record");
    if (r.value() < 1) {
      add(
          Finding.Kind.BAD_CACHE_RECORD,
          r.page + RC_VALUE,
          r.describe()
              + ": the next cache directive id "
              + r.value()
              + " is not positive; the NameNode would give a new directive an id the cache "
              + "manager refuses");
    }
    if (idsPage < 0) {
      idsPage = r.page;
      return;
    }
    long reported = Math.max(idsPage, r.page);
    long kept = Math.min(idsPage, r.page);
    idsPage = kept;
    add(
        Finding.Kind.DUPLICATE_CACHE_IDS,
        reported + RC_TYPE,
        m.record(reported).describe()
            + ": a second cache ids record besides "
            + m.record(kept).describe()
            + "; the NameNode refuses to start");
  }

  /** A pool's or the ids record's key, which the writer always makes 0 and the restore ignores. */
  private void zeroKey(RecordPage r, String why) {
    if (r.key() != 0) {
      add(
          Finding.Kind.BAD_CACHE_KEY,
          r.page + RC_KEY,
          r.describe()
              + ": key "
              + r.key()
              + " is not 0 ("
              + why
              + "; the NameNode writes 0): the field is damaged");
    }
  }

  private void badPayload(
      RecordPage r, byte[] payload, ProtoInput.Malformed e, String what, String verdict) {
    add(
        Finding.Kind.BAD_CACHE_RECORD,
        r.payloadOffset(e.at),
        r.describe()
            + ": the payload ("
            + payload.length
            + " bytes) "
            + (verdict.equals("does not parse") ? "is not a " + what + ": it " : "")
            + e.getMessage()
            + " (payload byte "
            + e.at
            + "); the NameNode refuses to start");
  }

  /**
   * Every directive against every record: its pool has a record (unless a pool's name cannot be
   * read), and its id is below the next id of the (lowest) ids record.
   */
  private void cacheReferences() {
    long next = idsPage < 0 ? 0 : m.record(idsPage).value();
    for (int i = 0; i < directivePages.size(); i++) {
      long page = directivePages.get(i);
      RecordPage r = m.record(page);
      String pool = poolOfDirective.get(page);
      if (pool != null && !unreadablePool && !pageOfPool.containsKey(pool)) {
        add(
            Finding.Kind.DANGLING_CACHE_POOL,
            poolFieldOffset.get(page),
            r.describe()
                + ": the directive names cache pool "
                + quote(pool)
                + ", which no record holds; the NameNode refuses to start");
      }
      if (idsPage < 0) {
        add(
            Finding.Kind.DIRECTIVE_ID_ABOVE_COUNTER,
            page + RC_KEY,
            r.describe()
                + ": directive id "
                + r.key()
                + " but no cache ids record: the batch that adds a directive writes the next "
                + "id, so a record is lost or damaged");
      } else if (r.key() >= next) {
        add(
            Finding.Kind.DIRECTIVE_ID_ABOVE_COUNTER,
            page + RC_KEY,
            r.describe()
                + ": directive id "
                + r.key()
                + " is not below the next directive id "
                + next
                + " of "
                + m.record(idsPage).describe()
                + " (RC_VALUE at offset "
                + (idsPage + RC_VALUE)
                + "): the batch that adds a directive raises it, so the key or the value is "
                + "damaged");
      }
    }
  }

  /** A pool name for a message: quoted, control characters and quotes escaped. */
  private static String quote(String s) {
    return Json.quote(s);
  }

  /** The payload is a token identifier whose sequence number is the key (if the chain is sound). */
  private void token(RecordPage r) {
    byte[] payload = r.payload();
    if (payload == null) {
      return; // a broken chain: ChainCheck reports it
    }
    TokenIdentifier id;
    try {
      id = TokenIdentifier.decode(payload);
    } catch (WritableInput.Malformed e) {
      add(
          Finding.Kind.BAD_RECORD,
          r.payloadOffset(e.at),
          r.describe()
              + ": the payload ("
              + payload.length
              + " bytes) is not a delegation token "
              + "identifier: it "
              + e.getMessage()
              + " (payload byte "
              + e.at
              + "); the NameNode "
              + "refuses to start");
      return;
    }
    if (id.sequenceNumber != r.key()) {
      add(
          Finding.Kind.BAD_RECORD,
          r.payloadOffset(id.sequenceNumberAt),
          r.describe()
              + ": the identifier's sequence number "
              + id.sequenceNumber
              + " is not the record's key "
              + r.key()
              + " (RC_KEY at offset "
              + (r.page + RC_KEY)
              + "); the NameNode refuses to start");
    }
  }

  private void aboveCounter(RecordPage r, int counter, String what) {
    long last = m.image.counter(counter);
    if (r.key() > last) {
      add(
          Finding.Kind.RECORD_ABOVE_COUNTER,
          r.page + RC_KEY,
          r.describe()
              + ": "
              + what
              + " "
              + r.key()
              + " is above the superblock's "
              + Seals.counterName(counter)
              + " "
              + last
              + "; the NameNode would hand it out again");
    }
  }

  private void duplicate(
      Map<Long, Long> seen, long value, RecordPage r, int field, Finding.Kind kind, String what) {
    Long other = seen.get(value);
    if (other == null) {
      seen.put(value, r.page);
      return;
    }
    long reported = Math.max(other, r.page);
    long kept = Math.min(other, r.page);
    seen.put(value, kept);
    add(
        kind,
        reported + field,
        m.record(reported).describe()
            + ": "
            + what
            + " "
            + value
            + " is also that of "
            + m.record(kept).describe()
            + (kind == Finding.Kind.DUPLICATE_RECORD_ID
                ? "; record ids are never reused"
                : "; the NameNode refuses to start"));
  }

  private void add(Finding.Kind kind, long offset, String message) {
    out.add(new Finding(kind, offset, message));
  }
}
