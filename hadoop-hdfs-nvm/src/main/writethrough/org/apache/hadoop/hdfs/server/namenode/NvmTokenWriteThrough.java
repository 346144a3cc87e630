package org.apache.hadoop.hdfs.server.namenode;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.hdfs.security.token.delegation.DelegationTokenIdentifier;
import org.apache.hadoop.hdfs.security.token.delegation.DelegationTokenSecretManager.SecretManagerState;
import org.apache.hadoop.hdfs.server.namenode.FsImageProto.SecretManagerSection;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeStore;
import org.apache.hadoop.hdfs.server.namenode.nvm.PageCodec;
import org.apache.hadoop.hdfs.server.namenode.nvm.RecordView;
import org.apache.hadoop.hdfs.server.namenode.nvm.Region;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout;
import org.apache.hadoop.hdfs.server.namenode.nvm.Txn;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.security.token.delegation.DelegationKey;

/**
 * The delegation token secret manager's state in the region (region-format.md §5.5): one record per
 * live token (key: its sequence number; value: its expiry date; payload: the identifier as HDFS
 * serialises it) and one per master key (key: its id; value: its expiry date; payload: the encoded
 * key), plus the two counters the fsimage's secret manager section carries ({@code
 * SB_TOKEN_SEQUENCE}, {@code SB_MASTER_KEY_ID}). Each edit the stock NameNode logs for the secret
 * manager is one batch, committed before the call returns, so before the RPC answers.
 *
 * <p>The stock secret manager logs master keys and expired tokens from its own thread without the
 * namesystem lock (and joins that thread while holding the lock when it stops), so these methods
 * must not take the namesystem lock: the store serialises their transactions with every other (see
 * {@link InodeStore#begin()}), and this object's monitor serialises them with each other and guards
 * the maps.
 */
final class NvmTokenWriteThrough {
  private final InodeStore store;

  /** Token sequence number &rarr; record page. */
  private final Map<Integer, Long> tokens = new HashMap<>();

  /** Master key id &rarr; record page. */
  private final Map<Integer, Long> keys = new HashMap<>();

  private NvmTokenWriteThrough(InodeStore store) {
    this.store = store;
  }

  /** For a new region: no tokens, no keys. */
  static NvmTokenWriteThrough empty(InodeStore store) {
    return new NvmTokenWriteThrough(store);
  }

  /**
   * For a recovered region: reads the token and key records and loads them into {@code fsn}'s
   * secret manager the way the stock NameNode loads an fsimage's secret manager section, before the
   * secret manager starts. Refuses a region whose records contradict each other (two tokens with
   * one sequence number, a record's key that differs from its payload).
   */
  static NvmTokenWriteThrough restore(FSNamesystem fsn, InodeStore store, long[] recordPages)
      throws IOException {
    NvmTokenWriteThrough t = new NvmTokenWriteThrough(store);
    List<SecretManagerSection.DelegationKey> keyList = new ArrayList<>();
    List<SecretManagerSection.PersistToken> tokenList = new ArrayList<>();
    for (long page : recordPages) {
      RecordView r = store.record(page);
      switch (r.type()) {
        case RegionLayout.RECORD_DELEGATION_TOKEN:
          DelegationTokenIdentifier id = decode(r);
          put(t.tokens, id.getSequenceNumber(), page, "delegation token sequence number");
          tokenList.add(persistToken(id, r.value()));
          break;
        case RegionLayout.RECORD_MASTER_KEY:
          put(t.keys, checkedKey(r), page, "master key id");
          SecretManagerSection.DelegationKey.Builder k =
              SecretManagerSection.DelegationKey.newBuilder()
                  .setId((int) r.key())
                  .setExpiryDate(r.value());
          if (r.payloadLength() > 0) {
            k.setKey(com.google.protobuf.ByteString.copyFrom(r.payload()));
          }
          keyList.add(k.build());
          break;
        case RegionLayout.RECORD_RETRY_LOG:
          break; // NvmRetryLog's
        case RegionLayout.RECORD_CACHE_POOL:
        case RegionLayout.RECORD_CACHE_DIRECTIVE:
        case RegionLayout.RECORD_CACHE_IDS:
          break; // NvmCacheWriteThrough's
        case RegionLayout.RECORD_TRUNCATE_BLOCK:
          break; // NvmTruncateRecords'
        case RegionLayout.RECORD_SNAPSHOT:
        case RegionLayout.RECORD_SNAPSHOT_IDS:
        case RegionLayout.RECORD_INODE_DIFFS:
        case RegionLayout.RECORD_INODE_REF:
        case RegionLayout.RECORD_DIFF_ENTRY:
        case RegionLayout.RECORD_DIFF:
          break; // SnapshotRestore's
        default:
          throw new IOException(
              "NVM region: record page "
                  + page
                  + " has record type "
                  + r.type()
                  + ", which this NameNode does not know (region-format.md §5.5)");
      }
    }
    SecretManagerSection section =
        SecretManagerSection.newBuilder()
            .setCurrentId((int) store.region().counter(RegionLayout.SB_MASTER_KEY_ID))
            .setTokenSequenceNumber((int) store.region().counter(RegionLayout.SB_TOKEN_SEQUENCE))
            .setNumKeys(keyList.size())
            .setNumTokens(tokenList.size())
            .build();
    fsn.loadSecretManagerState(section, keyList, tokenList);
    return t;
  }

  private static void put(Map<Integer, Long> m, int key, long page, String what)
      throws IOException {
    Long other = m.put(key, page);
    if (other != null) {
      throw new IOException(
          "NVM region: record pages " + other + " and " + page + " have one " + what + " " + key);
    }
  }

  private static int checkedKey(RecordView r) throws IOException {
    if (r.key() < Integer.MIN_VALUE || r.key() > Integer.MAX_VALUE) {
      throw new IOException("NVM region: record page " + r.page() + " has key " + r.key());
    }
    return (int) r.key();
  }

  private static DelegationTokenIdentifier decode(RecordView r) throws IOException {
    DelegationTokenIdentifier id = new DelegationTokenIdentifier();
    id.readFields(new DataInputStream(new ByteArrayInputStream(r.payload())));
    if (id.getSequenceNumber() != checkedKey(r)) {
      throw new IOException(
          "NVM region: token record page "
              + r.page()
              + " has key "
              + r.key()
              + " but its identifier has sequence number "
              + id.getSequenceNumber());
    }
    return id;
  }

  private static SecretManagerSection.PersistToken persistToken(
      DelegationTokenIdentifier id, long expiry) {
    return SecretManagerSection.PersistToken.newBuilder()
        .setOwner(id.getOwner().toString())
        .setRenewer(id.getRenewer().toString())
        .setRealUser(id.getRealUser().toString())
        .setIssueDate(id.getIssueDate())
        .setMaxDate(id.getMaxDate())
        .setSequenceNumber(id.getSequenceNumber())
        .setMasterKeyId(id.getMasterKeyId())
        .setExpiryDate(expiry)
        .build();
  }

  static byte[] encode(DelegationTokenIdentifier id) {
    ByteArrayOutputStream b = new ByteArrayOutputStream(64);
    try (DataOutputStream out = new DataOutputStream(b)) {
      id.write(out);
    } catch (IOException e) {
      throw new IllegalStateException(e); // a byte array does not fail
    }
    return b.toByteArray();
  }

  // ---- import (NvmImportWriter) and its verification

  /** The identifier a stock fsimage's token stands for, built as 2.7.3's image loader builds it. */
  static DelegationTokenIdentifier identifier(SecretManagerSection.PersistToken t) {
    DelegationTokenIdentifier id =
        new DelegationTokenIdentifier(
            new Text(t.getOwner()), new Text(t.getRenewer()), new Text(t.getRealUser()));
    id.setIssueDate(t.getIssueDate());
    id.setMaxDate(t.getMaxDate());
    id.setSequenceNumber(t.getSequenceNumber());
    id.setMasterKeyId(t.getMasterKeyId());
    return id;
  }

  private static byte[] keyBytes(SecretManagerSection.DelegationKey k) {
    return k.hasKey() ? k.getKey().toByteArray() : new byte[0];
  }

  /** Pages the secret manager state takes as records (the import's room check). */
  static long pages(SecretManagerState st) {
    long n = 0;
    for (SecretManagerSection.DelegationKey k : st.keys) {
      n += 1 + PageCodec.recordExtPages(keyBytes(k).length);
    }
    for (SecretManagerSection.PersistToken t : st.tokens) {
      n += 1 + PageCodec.recordExtPages(encode(identifier(t)).length);
    }
    return n;
  }

  /**
   * Writes a stock namespace's secret manager state (what its fsimage section holds) as records:
   * the two counters first, then the keys and tokens, {@link RecordBatches#RECORDS_PER_BATCH} per
   * batch.
   */
  static void importState(InodeStore store, SecretManagerState st) throws IOException {
    try (Txn t = store.begin()) {
      t.raiseCounter(RegionLayout.SB_MASTER_KEY_ID, st.section.getCurrentId());
      t.raiseCounter(RegionLayout.SB_TOKEN_SEQUENCE, st.section.getTokenSequenceNumber());
      t.commit();
    }
    List<RecordBatches.Stage> records = new ArrayList<>();
    for (SecretManagerSection.DelegationKey k : st.keys) {
      records.add(
          t ->
              t.createRecord(
                  RegionLayout.RECORD_MASTER_KEY, k.getId(), k.getExpiryDate(), keyBytes(k)));
    }
    for (SecretManagerSection.PersistToken tok : st.tokens) {
      byte[] payload = encode(identifier(tok));
      records.add(
          t ->
              t.createRecord(
                  RegionLayout.RECORD_DELEGATION_TOKEN,
                  tok.getSequenceNumber(),
                  tok.getExpiryDate(),
                  payload));
    }
    RecordBatches.commitInBatches(store, records);
  }

  /** The secret manager state as sorted lines: two counters, every key and token. */
  static List<String> describe(SecretManagerState st) {
    List<String> out = new ArrayList<>();
    out.add(counters(st.section.getCurrentId(), st.section.getTokenSequenceNumber()));
    for (SecretManagerSection.DelegationKey k : st.keys) {
      out.add(line(RegionLayout.RECORD_MASTER_KEY, k.getId(), k.getExpiryDate(), keyBytes(k)));
    }
    for (SecretManagerSection.PersistToken t : st.tokens) {
      out.add(
          line(
              RegionLayout.RECORD_DELEGATION_TOKEN,
              t.getSequenceNumber(),
              t.getExpiryDate(),
              encode(identifier(t))));
    }
    Collections.sort(out);
    return out;
  }

  /** The same lines from a region's token and key records (opened read-only). */
  static List<String> describe(Region region) {
    List<String> out = new ArrayList<>();
    out.add(
        counters(
            region.counter(RegionLayout.SB_MASTER_KEY_ID),
            region.counter(RegionLayout.SB_TOKEN_SEQUENCE)));
    for (long page : RecordView.scan(region)) {
      RecordView r = new RecordView(region, page);
      if (r.type() == RegionLayout.RECORD_MASTER_KEY
          || r.type() == RegionLayout.RECORD_DELEGATION_TOKEN) {
        out.add(line(r.type(), r.key(), r.value(), r.payload()));
      }
    }
    Collections.sort(out);
    return out;
  }

  private static String counters(long keyId, long sequence) {
    return "counters masterKeyId=" + keyId + " tokenSequence=" + sequence;
  }

  private static String line(int type, long key, long value, byte[] payload) {
    StringBuilder b = new StringBuilder();
    b.append(type == RegionLayout.RECORD_MASTER_KEY ? "key " : "token ")
        .append(key)
        .append(" expiry=")
        .append(value)
        .append(" sha256=");
    try { // a digest, not the bytes: a master key is a secret, and the lines may be printed
      for (byte x : java.security.MessageDigest.getInstance("SHA-256").digest(payload)) {
        b.append(Character.forDigit((x >> 4) & 0xf, 16)).append(Character.forDigit(x & 0xf, 16));
      }
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e); // every JRE has SHA-256
    }
    return b.toString();
  }

  private void persist(String what, RecordBatches.Stage op) {
    RecordBatches.persistOrStop(store, what, op);
  }

  /** OP_GET_DELEGATION_TOKEN: the new token and the sequence number. */
  synchronized void tokenIssued(DelegationTokenIdentifier id, long expiryTime) {
    byte[] payload = encode(id);
    int seq = id.getSequenceNumber();
    long[] page = new long[1];
    persist(
        "getDelegationToken (sequence number " + seq + ")",
        t -> {
          if (tokens.containsKey(seq)) {
            throw new IOException("a token with sequence number " + seq + " is already stored");
          }
          page[0] = t.createRecord(RegionLayout.RECORD_DELEGATION_TOKEN, seq, expiryTime, payload);
          t.raiseCounter(RegionLayout.SB_TOKEN_SEQUENCE, seq);
        });
    tokens.put(seq, page[0]);
  }

  /** OP_RENEW_DELEGATION_TOKEN: the token's new expiry date. */
  synchronized void tokenRenewed(DelegationTokenIdentifier id, long expiryTime) {
    int seq = id.getSequenceNumber();
    persist(
        "renewDelegationToken (sequence number " + seq + ")",
        t -> {
          Long page = tokens.get(seq);
          if (page == null) {
            throw new IOException("no stored token with sequence number " + seq);
          }
          t.setRecordValue(page, expiryTime);
        });
  }

  /** OP_CANCEL_DELEGATION_TOKEN, for a cancel and for an expired token's removal. */
  synchronized void tokenCancelled(DelegationTokenIdentifier id) {
    int seq = id.getSequenceNumber();
    persist(
        "cancelDelegationToken (sequence number " + seq + ")",
        t -> {
          Long page = tokens.get(seq);
          if (page != null) { // 2.7.3 logs an expired token's removal only for a stored token
            t.removeRecord(page);
          }
        });
    tokens.remove(seq);
  }

  /**
   * OP_UPDATE_MASTER_KEY: the new key and the key id counter, in one batch with what the secret
   * manager changed about its other keys since the last update without logging it (2.7.3 records
   * those changes only in its next fsimage): the retiring key's final expiry date, and the removal
   * of expired keys. {@code keysNow} is the secret manager's key set, without the new key.
   */
  synchronized void masterKeyUpdated(DelegationKey key, DelegationKey[] keysNow) {
    byte[] encoded = key.getEncodedKey() == null ? new byte[0] : key.getEncodedKey();
    Set<Integer> kept = new HashSet<>();
    long[] page = new long[1];
    persist(
        "updateMasterKey (key id " + key.getKeyId() + ")",
        t -> {
          for (DelegationKey k : keysNow) {
            Long p = keys.get(k.getKeyId());
            if (p != null && k.getKeyId() != key.getKeyId()) {
              t.setRecordValue(p, k.getExpiryDate());
              kept.add(k.getKeyId());
            }
          }
          for (Map.Entry<Integer, Long> e : keys.entrySet()) {
            if (!kept.contains(e.getKey())) {
              t.removeRecord(e.getValue());
            }
          }
          page[0] =
              t.createRecord(
                  RegionLayout.RECORD_MASTER_KEY, key.getKeyId(), key.getExpiryDate(), encoded);
          t.raiseCounter(RegionLayout.SB_MASTER_KEY_ID, key.getKeyId());
        });
    keys.keySet().retainAll(kept);
    keys.put(key.getKeyId(), page[0]);
  }

  /** Live token records (for tests and the metrics). */
  synchronized int tokenCount() {
    return tokens.size();
  }

  synchronized int keyCount() {
    return keys.size();
  }
}
