package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;

import java.util.Comparator;

/**
 * One record decoded for the dump, and its text and JSON forms: a delegation token (its identifier,
 * expiry date), a master key (id, expiry date, length: the key bytes are a secret and never
 * printed), or a record of a type the format does not define (its raw words). Each names its record
 * id and page. What cannot be read (a broken chain, a payload that is no token identifier) is
 * marked as damaged rather than guessed.
 */
final class RecordEntry {
  /** Tokens by sequence number, then master keys by id, then other types; then id and page. */
  static final Comparator<RecordEntry> ORDER =
      new Comparator<RecordEntry>() {
        @Override
        public int compare(RecordEntry a, RecordEntry b) {
          int c = Long.compareUnsigned(a.type, b.type);
          c = c != 0 ? c : Long.compare(a.key, b.key);
          c = c != 0 ? c : Long.compare(a.recordId, b.recordId);
          return c != 0 ? c : Long.compare(a.page, b.page);
        }
      };

  private final long type;
  private final boolean token;
  private final boolean masterKey;
  private final boolean retryLog;

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

  /** "payload" (a broken chain), "identifier" (a token payload that does not decode), or null. */
  private final String damaged;

  RecordEntry(RecordPage r) {
    type = r.type();
    token = r.isToken();
    masterKey = r.isMasterKey();
    retryLog = r.isRetryLog();
    key = r.key();
    value = r.value();
    length = r.length();
    recordId = r.id();
    page = r.page;
    byte[] payload = r.payload();
    identifier = token && payload != null ? decode(payload) : null;
    damaged = payload == null ? "payload" : token && identifier == null ? "identifier" : null;
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

  private static TokenIdentifier decode(byte[] payload) {
    try {
      return TokenIdentifier.decode(payload);
    } catch (WritableInput.Malformed e) {
      return null;
    }
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
}
