package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;

import java.nio.charset.StandardCharsets;
import java.util.Comparator;
import java.util.List;
import org.apache.hadoop.hdfs.server.namenode.nvm.DiffEntryFormat;

/**
 * One record decoded for the dump, and its text and JSON forms: a delegation token (its identifier,
 * expiry date), a master key (id, expiry date, length: the key bytes are a secret and never
 * printed), a retry log page (its entries in use), a cache pool, a cache directive, the next cache
 * directive id, a truncate block (the file's inode id, the block's id, bytes and generation stamp),
 * a snapshot (its id, directory and payload length), the snapshot counter, an inode's snapshot
 * diffs (its id, the inodes its deleted lists hold and refer to, the payload length), an inode's
 * current reference (its id, its directory's), or a record of a type the format does not define
 * (its raw words). Each names its record id and page. What cannot be read (a broken chain, a
 * payload that is no token identifier or no cache pool or directive message) is marked as damaged
 * rather than guessed.
 */
final class RecordEntry {
  /**
   * By type (tokens by sequence number, master keys by id, retry log pages by index, cache pools by
   * name in UTF-8 byte order, cache directives by id, the cache ids record, truncate blocks by
   * inode id, then other types), then key, pool name (a pool without one first), value (a diff
   * entry's child), record id and page.
   */
  static final Comparator<RecordEntry> ORDER =
      new Comparator<RecordEntry>() {
        @Override
        public int compare(RecordEntry a, RecordEntry b) {
          int c = Long.compareUnsigned(a.type, b.type);
          c = c != 0 ? c : Long.compare(a.key, b.key);
          c = c != 0 ? c : comparePoolNames(a, b);
          c = c != 0 ? c : Long.compare(a.value, b.value); // diff entries: by child
          c = c != 0 ? c : Long.compare(a.recordId, b.recordId);
          return c != 0 ? c : Long.compare(a.page, b.page);
        }
      };

  private final long type;
  private final boolean token;
  private final boolean masterKey;
  private final boolean retryLog;
  private final boolean cachePool;
  private final boolean cacheDirective;
  private final boolean cacheIds;
  private final boolean truncateBlock;
  private final boolean snapshot;
  private final boolean snapshotIds;
  private final boolean inodeDiffs;
  private final boolean inodeRef;
  private final boolean diffEntry;
  private final boolean diff;

  /** The entries of a diff entry record, or null. */
  private final List<DiffEntryFormat.Entry> entries;

  /** The deleted-list ids at the head of an inode diffs record, or null. */
  private final DiffRecordHeader diffs;

  /** A retry log page's entries in use and its newest entry number. */
  private int retryEntries;

  private long retryNewest;
  private final long key;
  private final long value;
  private final long length;
  private final long recordId;
  private final long page;

  /** The decoded identifier of a token, or null. */
  private final TokenIdentifier identifier;

  /** The decoded pool of a cache pool record, or null. */
  private final CachePoolPayload pool;

  /** The decoded directive of a cache directive record, or null. */
  private final CacheDirectivePayload directive;

  /** The decoded truncate block of a truncate block record, or null. */
  private final TruncateBlock truncate;

  /**
   * "payload" (a broken chain), "identifier" (a token payload that does not decode), "poolInfo" or
   * "directiveInfo" (a cache pool or directive payload that does not parse), "block" (a truncate
   * block payload that is not 24 bytes), or null.
   */
  private final String damaged;

  RecordEntry(RecordPage r) {
    type = r.type();
    token = r.isToken();
    masterKey = r.isMasterKey();
    retryLog = r.isRetryLog();
    cachePool = r.isCachePool();
    cacheDirective = r.isCacheDirective();
    cacheIds = r.isCacheIds();
    truncateBlock = r.isTruncateBlock();
    snapshot = r.isSnapshot();
    snapshotIds = r.isSnapshotIds();
    inodeDiffs = r.isInodeDiffs();
    inodeRef = r.isInodeRef();
    diffEntry = r.isDiffEntry();
    diff = r.isDiff();
    key = r.key();
    value = r.value();
    length = r.length();
    recordId = r.id();
    page = r.page;
    byte[] payload = r.payload();
    identifier = token && payload != null ? decode(payload) : null;
    pool = cachePool && payload != null ? decodePool(payload) : null;
    directive = cacheDirective && payload != null ? decodeDirective(payload) : null;
    truncate = truncateBlock ? TruncateBlock.decode(payload) : null;
    diffs = inodeDiffs ? DiffRecordHeader.decode(payload) : null;
    entries = diffEntry && payload != null ? decodeEntries(payload) : null;
    if (payload == null) {
      damaged = "payload";
    } else if (token && identifier == null) {
      damaged = "identifier";
    } else if (cachePool && pool == null) {
      damaged = "poolInfo";
    } else if (cacheDirective && directive == null) {
      damaged = "directiveInfo";
    } else if (truncateBlock && truncate == null) {
      damaged = "block";
    } else if (inodeDiffs && diffs == null) {
      damaged = "deletedList";
    } else if (diffEntry && entries == null) {
      damaged = "entries";
    } else if (diff && payload.length < 8) {
      damaged = "head";
    } else {
      damaged = null;
    }
    if (retryLog && payload != null) {
      java.nio.ByteBuffer b =
          java.nio.ByteBuffer.wrap(payload).order(java.nio.ByteOrder.LITTLE_ENDIAN);
      for (int s = 0; s + RETRY_ENTRY_SIZE <= payload.length; s += RETRY_ENTRY_SIZE) {
        long seq = b.getLong(s + RE_SEQ);
        if (seq != 0) {
          retryEntries++;
          retryNewest = Math.max(retryNewest, seq);
        }
      }
    }
  }

  private static List<DiffEntryFormat.Entry> decodeEntries(byte[] payload) {
    try {
      return DiffEntryFormat.decode(payload);
    } catch (java.io.IOException e) {
      return null;
    }
  }

  /** "s3:created:name,s1:deleted:name" (snapshot id, kind, name) for the dump. */
  private String describeEntries() {
    StringBuilder b = new StringBuilder();
    for (DiffEntryFormat.Entry e : entries) {
      b.append(b.length() == 0 ? "" : ",").append('s').append(e.snapshotId).append(':');
      b.append(
          e.kind == DiffEntryFormat.CREATED
              ? "created"
              : e.kind == DiffEntryFormat.DELETED ? "deleted" : "deletedReference");
      b.append(':').append(TextEscape.value(new String(e.name, StandardCharsets.UTF_8)));
    }
    return b.toString();
  }

  private static TokenIdentifier decode(byte[] payload) {
    try {
      return TokenIdentifier.decode(payload);
    } catch (WritableInput.Malformed e) {
      return null;
    }
  }

  private static CachePoolPayload decodePool(byte[] payload) {
    try {
      return CachePoolPayload.decode(payload);
    } catch (ProtoInput.Malformed e) {
      return null;
    }
  }

  private static CacheDirectivePayload decodeDirective(byte[] payload) {
    try {
      return CacheDirectivePayload.decode(payload);
    } catch (ProtoInput.Malformed e) {
      return null;
    }
  }

  private static int comparePoolNames(RecordEntry a, RecordEntry b) {
    String x = a.pool != null ? a.pool.name : null;
    String y = b.pool != null ? b.pool.name : null;
    if (x == null || y == null) {
      return x == null ? (y == null ? 0 : -1) : 1;
    }
    return NameCheck.compareBytes(
        x.getBytes(StandardCharsets.UTF_8), y.getBytes(StandardCharsets.UTF_8));
  }

  /** A string field of a cache record: "-" when absent, else escaped like an owner. */
  private static String field(String s) {
    return s == null ? "-" : TextEscape.value(s);
  }

  /** A number field of a cache record: "-" when absent. */
  private static String field(Number n) {
    return n == null ? "-" : n.toString();
  }

  /** A directive's path: "-" when absent, else escaped like an inode path (a leading '-' too). */
  private static String pathField(String s) {
    if (s == null) {
      return "-";
    }
    String e = TextEscape.path(s);
    return e.startsWith("-") ? "\\x2d" + e.substring(1) : e;
  }

  /** A pool's mode in octal, at least four digits, as an inode's. */
  private static String mode(Integer mode) {
    return mode == null ? null : String.format("%04o", mode);
  }

  /** A Text of the identifier: "-" when empty (HDFS's "none", e.g. no real user). */
  private static String text(String s) {
    return s.isEmpty() ? "-" : TextEscape.value(s);
  }

  String text() {
    StringBuilder b = new StringBuilder();
    if (token) {
      b.append("token sequenceNumber=")
          .append(identifier != null ? identifier.sequenceNumber : key);
      if (identifier != null) {
        b.append(" owner=")
            .append(text(identifier.owner))
            .append(" renewer=")
            .append(text(identifier.renewer))
            .append(" realUser=")
            .append(text(identifier.realUser))
            .append(" issueDate=")
            .append(identifier.issueDate)
            .append(" maxDate=")
            .append(identifier.maxDate)
            .append(" masterKeyId=")
            .append(identifier.masterKeyId);
      }
      b.append(" expiryDate=").append(value);
    } else if (masterKey) {
      b.append("masterKey keyId=").append(key).append(" expiryDate=").append(value);
      b.append(" keyLength=").append(Long.toUnsignedString(length));
    } else if (retryLog) {
      b.append("retryLog index=").append(key).append(" entries=").append(retryEntries);
      b.append(" newestEntry=").append(retryNewest);
    } else if (cachePool) {
      b.append("cachePool");
      if (pool != null) {
        b.append(" name=").append(field(pool.name));
        b.append(" owner=").append(field(pool.owner));
        b.append(" group=").append(field(pool.group));
        b.append(" mode=").append(pool.mode == null ? "-" : mode(pool.mode));
        b.append(" limit=").append(field(pool.limit));
        b.append(" maxRelativeExpiry=").append(field(pool.maxRelativeExpiry));
      }
    } else if (cacheDirective) {
      b.append("cacheDirective id=")
          .append(directive != null ? field(directive.id) : String.valueOf(key));
      if (directive != null) {
        b.append(" path=").append(pathField(directive.path));
        b.append(" pool=").append(field(directive.pool));
        b.append(" replication=")
            .append(
                directive.replication == null
                    ? "-"
                    : Integer.toUnsignedString(directive.replication));
        b.append(" expiry=").append(field(directive.expiryMs));
        b.append(" expiryRelative=")
            .append(directive.relative == null ? "-" : directive.relative.toString());
      }
    } else if (cacheIds) {
      b.append("cacheIds nextDirectiveId=").append(value);
    } else if (truncateBlock) {
      b.append("truncateBlock inodeId=").append(key);
      if (truncate != null) {
        b.append(" blockId=").append(truncate.blockId);
        b.append(" numBytes=").append(truncate.numBytes);
        b.append(" generationStamp=").append(truncate.generationStamp);
      }
    } else if (snapshot) {
      b.append("snapshot id=").append(key).append(" directoryInodeId=").append(value);
      b.append(" length=").append(Long.toUnsignedString(length));
    } else if (snapshotIds) {
      b.append("snapshotIds counter=").append(value);
    } else if (inodeDiffs) {
      b.append("inodeDiffs inodeId=").append(key).append(" deletedInodes=");
      b.append(diffs == null ? "-" : java.util.Arrays.toString(diffs.deleted).replace(" ", ""));
      b.append(" referredInodes=");
      b.append(diffs == null ? "-" : java.util.Arrays.toString(diffs.referred).replace(" ", ""));
      b.append(" length=").append(Long.toUnsignedString(length));
    } else if (inodeRef) {
      b.append("inodeReference inodeId=").append(key).append(" parentInodeId=").append(value);
      b.append(" length=").append(Long.toUnsignedString(length));
    } else if (diffEntry) {
      b.append("diffEntry directoryInodeId=").append(key).append(" inodeId=").append(value);
      if (entries != null) {
        b.append(" entries=").append(describeEntries());
      }
      b.append(" length=").append(Long.toUnsignedString(length));
    } else if (diff) {
      b.append("diff inodeId=").append(key).append(" snapshotId=").append(value);
      b.append(" length=").append(Long.toUnsignedString(length));
    } else {
      b.append("record type=").append(Long.toUnsignedString(type)).append(" key=").append(key);
      b.append(" value=").append(value).append(" length=").append(Long.toUnsignedString(length));
    }
    b.append(" recordId=").append(recordId).append(" page=").append(page);
    if (damaged != null) {
      b.append(" damaged=").append(damaged);
    }
    return b.toString();
  }

  String json() {
    Json j = new Json();
    if (token) {
      j.put("type", "token")
          .put("sequenceNumber", identifier != null ? identifier.sequenceNumber : key);
      if (identifier != null) {
        j.put("owner", identifier.owner)
            .put("renewer", identifier.renewer)
            .put("realUser", identifier.realUser)
            .put("issueDate", identifier.issueDate)
            .put("maxDate", identifier.maxDate)
            .put("masterKeyId", (long) identifier.masterKeyId);
      }
      j.put("expiryDate", value);
    } else if (masterKey) {
      j.put("type", "masterKey").put("keyId", key).put("expiryDate", value);
      j.put("keyLength", length);
    } else if (retryLog) {
      j.put("type", "retryLog").put("index", key).put("entries", (long) retryEntries);
      j.put("newestEntry", retryNewest);
    } else if (cachePool) {
      j.put("type", "cachePool");
      if (pool != null) {
        j.put("name", pool.name).put("owner", pool.owner).put("group", pool.group);
        j.put("mode", mode(pool.mode));
        number(j, "limit", pool.limit);
        number(j, "maxRelativeExpiry", pool.maxRelativeExpiry);
      }
    } else if (cacheDirective) {
      j.put("type", "cacheDirective");
      if (directive != null) {
        number(j, "id", directive.id);
        j.put("path", directive.path).put("pool", directive.pool);
        number(
            j,
            "replication",
            directive.replication == null ? null : directive.replication & 0xffffffffL);
        number(j, "expiry", directive.expiryMs);
        j.putRaw("expiryRelative", String.valueOf(directive.relative));
      } else {
        j.put("id", key);
      }
    } else if (cacheIds) {
      j.put("type", "cacheIds").put("nextDirectiveId", value);
    } else if (truncateBlock) {
      j.put("type", "truncateBlock").put("inodeId", key);
      if (truncate != null) {
        j.put("blockId", truncate.blockId)
            .put("numBytes", truncate.numBytes)
            .put("generationStamp", truncate.generationStamp);
      }
    } else if (snapshot) {
      j.put("type", "snapshot").put("id", key).put("directoryInodeId", value);
      j.put("length", length);
    } else if (snapshotIds) {
      j.put("type", "snapshotIds").put("counter", value);
    } else if (inodeDiffs) {
      j.put("type", "inodeDiffs").put("inodeId", key);
      if (diffs != null) {
        j.putRaw("deletedInodes", java.util.Arrays.toString(diffs.deleted).replace(" ", ""));
        j.putRaw("referredInodes", java.util.Arrays.toString(diffs.referred).replace(" ", ""));
      }
      j.put("length", length);
    } else if (inodeRef) {
      j.put("type", "inodeReference").put("inodeId", key).put("parentInodeId", value);
      j.put("length", length);
    } else if (diffEntry) {
      j.put("type", "diffEntry").put("directoryInodeId", key).put("inodeId", value);
      if (entries != null) {
        j.put("entries", describeEntries());
      }
      j.put("length", length);
    } else if (diff) {
      j.put("type", "diff").put("inodeId", key).put("snapshotId", value);
      j.put("length", length);
    } else {
      j.put("type", "record").put("recordType", type).put("key", key).put("value", value);
      j.put("length", length);
    }
    j.put("recordId", recordId).put("page", page);
    if (damaged != null) {
      j.putRaw("damaged", "[" + Json.quote(damaged) + "]");
    }
    return j.toString();
  }

  /** A number, or null when absent. */
  private static void number(Json j, String k, Long v) {
    if (v == null) {
      j.putRaw(k, "null");
    } else {
      j.put(k, (long) v);
    }
  }
}
