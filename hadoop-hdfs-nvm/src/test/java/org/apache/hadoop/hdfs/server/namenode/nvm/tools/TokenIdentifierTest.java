package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.junit.Assert.*;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.util.Arrays;
import org.apache.hadoop.hdfs.security.token.delegation.DelegationTokenIdentifier;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.WritableUtils;
import org.junit.Test;

/**
 * The tools' own reader of Hadoop's Writable encodings ({@link WritableInput}, {@link
 * TokenIdentifier}) against Hadoop's writers: every length class of a vlong, both signs, and
 * identifiers as DelegationTokenIdentifier serialises them; and every truncation of an identifier
 * is refused where Hadoop's reader would run out of bytes, never thrown.
 */
public class TokenIdentifierTest {
  private static final long[] VALUES = {
    0,
    1,
    -1,
    127,
    -112,
    128,
    -113,
    255,
    256,
    -256,
    -257,
    65535,
    65536,
    Integer.MAX_VALUE,
    Integer.MIN_VALUE,
    1L << 40,
    -(1L << 40),
    1700000000000L,
    Long.MAX_VALUE,
    Long.MIN_VALUE
  };

  @Test
  public void vlongsOfEveryLengthAndSign() throws Exception {
    for (long v : VALUES) {
      ByteArrayOutputStream b = new ByteArrayOutputStream();
      WritableUtils.writeVLong(new DataOutputStream(b), v);
      WritableInput in = new WritableInput(b.toByteArray());
      assertEquals(Long.toString(v), v, in.readVLong("value"));
      assertEquals(b.size(), in.position());
    }
  }

  @Test
  public void vintsOutsideIntRangeAreRefused() throws Exception {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    WritableUtils.writeVLong(new DataOutputStream(b), 1L << 31);
    try {
      new WritableInput(b.toByteArray()).readVInt("sequence number");
      fail("2^31 read as an int");
    } catch (WritableInput.Malformed e) {
      assertEquals(0, e.at);
      assertTrue(e.getMessage(), e.getMessage().contains("too long to fit in an int"));
    }
  }

  @Test
  public void identifiersAsHdfsWritesThem() throws Exception {
    for (long v : VALUES) {
      int seq = (int) v;
      DelegationTokenIdentifier id =
          new DelegationTokenIdentifier(
              new Text("owner\u00e9"), new Text(RecordSample.LONG_RENEWER), new Text(""));
      id.setIssueDate(v);
      id.setMaxDate(-v);
      id.setSequenceNumber(seq);
      id.setMasterKeyId(-seq);
      byte[] payload = RecordSample.payload(id);
      TokenIdentifier t = TokenIdentifier.decode(payload);
      assertEquals("owner\u00e9", t.owner);
      assertEquals(RecordSample.LONG_RENEWER, t.renewer);
      assertEquals("", t.realUser);
      assertEquals(v, t.issueDate);
      assertEquals(-v, t.maxDate);
      assertEquals(seq, t.sequenceNumber);
      assertEquals(-seq, t.masterKeyId);
      ByteArrayOutputStream tail = new ByteArrayOutputStream();
      DataOutputStream out = new DataOutputStream(tail);
      WritableUtils.writeVInt(out, seq);
      WritableUtils.writeVInt(out, -seq);
      assertEquals(payload.length - tail.size(), t.sequenceNumberAt);
    }
  }

  @Test
  public void everyTruncationIsRefusedAtItsEnd() throws Exception {
    byte[] whole = RecordSample.payload(RecordSample.identifier("alice", "yarn", "oozie", 7, 3));
    for (int len = 0; len < whole.length; len++) {
      try {
        TokenIdentifier.decode(Arrays.copyOf(whole, len));
        fail("a payload cut to " + len + " bytes decoded");
      } catch (WritableInput.Malformed e) {
        assertTrue(len + ": " + e.getMessage(), e.at <= len);
        assertTrue(len + ": " + e.getMessage(), e.getMessage().startsWith("ends "));
      }
    }
  }

  @Test
  public void aNegativeOrHugeTextLengthIsRefused() throws Exception {
    for (int len : new int[] {-1, WritableInput.TEXT_MAX_LEN}) {
      ByteArrayOutputStream b = new ByteArrayOutputStream();
      DataOutputStream out = new DataOutputStream(b);
      out.writeByte(TokenIdentifier.VERSION);
      WritableUtils.writeVInt(out, len);
      try {
        TokenIdentifier.decode(b.toByteArray());
        fail("owner length " + len);
      } catch (WritableInput.Malformed e) {
        assertEquals(1, e.at);
        assertTrue(e.getMessage(), e.getMessage().contains("owner length of " + len));
      }
    }
  }
}
