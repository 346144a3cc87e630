package org.nvmnn.it.jdk17;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;

import java.io.InputStream;
import java.nio.ByteBuffer;
import org.apache.commons.io.IOUtils;
import org.apache.hadoop.crypto.CryptoStreamUtils;
import org.junit.Test;

/** The harness agent is active in this JVM and changes only freeDB's code in 2.7.3's class. */
public class CryptoStreamsAgentTest {
  @Test
  public void freeDbOfADirectBufferReturnsOnThisJdk() {
    // without the agent: NoSuchMethodError 'sun.misc.Cleaner sun.nio.ch.DirectBuffer.cleaner()'
    CryptoStreamUtils.freeDB(ByteBuffer.allocateDirect(16));
  }

  @Test
  public void onlyTheCodeOfFreeDbChanges() throws Exception {
    byte[] original;
    try (InputStream in =
        CryptoStreamUtils.class.getResourceAsStream("/" + CryptoStreamsAgent.CLASS + ".class")) {
      original = IOUtils.toByteArray(in);
    }
    byte[] patched = CryptoStreamsAgent.patch(original);
    assertNotNull("2.7.3's freeDB found", patched);
    assertEquals(original.length, patched.length);
    int changed = 0;
    for (int i = 0; i < original.length; i++) {
      if (original[i] != patched[i]) {
        assertEquals("changed bytes become nop", 0, patched[i]);
        changed++;
      }
    }
    // the 21 code bytes before the return are nop now; 6 of them (constant-pool index high bytes,
    // invokeinterface's trailing byte) were 0 already
    assertEquals(15, changed);
    // a class without that code is left alone
    assertNull(CryptoStreamsAgent.patch(new byte[] {1, 2, 3}));
    byte[] twice = new byte[2 * CryptoStreamsAgent.FREE_DB.length];
    System.arraycopy(CryptoStreamsAgent.FREE_DB, 0, twice, 0, CryptoStreamsAgent.FREE_DB.length);
    System.arraycopy(
        CryptoStreamsAgent.FREE_DB,
        0,
        twice,
        CryptoStreamsAgent.FREE_DB.length,
        CryptoStreamsAgent.FREE_DB.length);
    assertNull(CryptoStreamsAgent.patch(twice));
  }
}
