package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;

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
 * is reported.
 */
final class RecordCheck {
  private final RegionModel m;
  private final List<Finding> out;

  /** Record id, and per type the key, mapped to the lowest page seen with it. */
  private final Map<Long, Long> pageOfId = new HashMap<Long, Long>();

  private final Map<Long, Long> pageOfToken = new HashMap<Long, Long>();
  private final Map<Long, Long> pageOfMasterKey = new HashMap<Long, Long>();
  private final Map<Long, Long> pageOfRetryPage = new HashMap<Long, Long>();

  private RecordCheck(RegionModel m, List<Finding> out) {
    this.m = m;
    this.out = out;
  }

  static void run(RegionModel m, List<Finding> out) {
    RecordCheck c = new RecordCheck(m, out);
    LongList records = m.census.liveRecords; // empty without the records feature
    for (int i = 0; i < records.size(); i++) {
      c.check(m.record(records.get(i)));
    }
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
    if (!r.isToken() && !r.isMasterKey()) {
      add(
          Finding.Kind.BAD_RECORD,
          r.page + RC_TYPE,
          r.describe()
              + ": RC_TYPE "
              + Long.toUnsignedString(r.type())
              + " is neither "
              + RECORD_DELEGATION_TOKEN
              + " (delegation token), "
              + RECORD_MASTER_KEY
              + " (master key) nor "
              + RECORD_RETRY_LOG
              + " (retry log); the NameNode refuses to start");
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
   * which the NameNode writes in place and reads slot by slot.
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
    }
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
