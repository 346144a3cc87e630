package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Arrays;
import org.apache.hadoop.hdfs.security.token.delegation.DelegationTokenIdentifier;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeStore;
import org.apache.hadoop.hdfs.server.namenode.nvm.NvmException;
import org.apache.hadoop.hdfs.server.namenode.nvm.ShmDir;
import org.apache.hadoop.hdfs.server.namenode.nvm.Txn;
import org.apache.hadoop.io.Text;

/**
 * Records written through the store into a {@link SampleNamespace} region, as the NameNode writes
 * them (NvmTokenWriteThrough): master key 1 (a 64-byte key), token 1 with a short identifier
 * (inline), token 2 whose renewer is 1,000 bytes (a RECORD_EXT chain of 4 pages), and the counters
 * raised to cover them. Token payloads are serialised by HDFS's own DelegationTokenIdentifier, so
 * the tools' decoder is held to the real format.
 */
final class RecordSample {
  static final String LONG_RENEWER;

  static {
    char[] c = new char[1000];
    Arrays.fill(c, 'r');
    LONG_RENEWER = new String(c);
  }

  static final long KEY_EXPIRY = 1800000000000L;
  static final long TOKEN_EXPIRY = 1700000086400000L;

  /** The pages of master key 1, token 1 and token 2 (the chained one). */
  long masterKey;

  long shortToken;
  long longToken;

  /** The RECORD_EXT pages of token 2, in chain order. */
  long[] longTokenExt;

  /** Token 2's record id. */
  long longTokenId;

  private RecordSample() {}

  static RecordSample add(ShmDir shm) throws NvmException {
    RecordSample r = new RecordSample();
    try (InodeStore s = shm.reopen("r")) {
      try (Txn t = s.begin()) {
        r.masterKey = t.createRecord(RECORD_MASTER_KEY, 1, KEY_EXPIRY, key(64));
        t.raiseCounter(SB_MASTER_KEY_ID, 1);
        t.commit();
      }
      r.shortToken = token(s, identifier("alice", "yarn", "", 1, 1));
      r.longToken = token(s, identifier("bob", LONG_RENEWER, "oozie", 2, 1));
      r.longTokenExt = s.record(r.longToken).extPages();
      r.longTokenId = s.record(r.longToken).id();
    }
    return r;
  }

  /** Creates a token record keyed by the identifier's sequence number and raises the counter. */
  static long token(InodeStore s, DelegationTokenIdentifier id) throws NvmException {
    try (Txn t = s.begin()) {
      long page =
          t.createRecord(
              RECORD_DELEGATION_TOKEN, id.getSequenceNumber(), TOKEN_EXPIRY, payload(id));
      t.raiseCounter(SB_TOKEN_SEQUENCE, id.getSequenceNumber());
      t.commit();
      return page;
    }
  }

  /** An identifier issued at 1.7e12 ms, valid for a week. */
  static DelegationTokenIdentifier identifier(
      String owner, String renewer, String realUser, int seq, int keyId) {
    DelegationTokenIdentifier id =
        new DelegationTokenIdentifier(new Text(owner), new Text(renewer), new Text(realUser));
    id.setIssueDate(1700000000000L);
    id.setMaxDate(1700000000000L + 7 * 86400000L);
    id.setSequenceNumber(seq);
    id.setMasterKeyId(keyId);
    return id;
  }

  /** The identifier as DelegationTokenIdentifier.write serialises it: a token record's payload. */
  static byte[] payload(DelegationTokenIdentifier id) {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(b)) {
      id.write(out);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    return b.toByteArray();
  }

  static byte[] key(int len) {
    byte[] k = new byte[len];
    for (int i = 0; i < len; i++) {
      k[i] = (byte) (0xa5 ^ i);
    }
    return k;
  }
}
