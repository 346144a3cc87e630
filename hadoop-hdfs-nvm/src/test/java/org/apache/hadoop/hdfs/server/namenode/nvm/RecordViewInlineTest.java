package org.apache.hadoop.hdfs.server.namenode.nvm;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;
import static org.junit.Assert.*;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.Rule;
import org.junit.Test;

/**
 * A record's inline payload read in place (RecordView.inlineLong/inlineInt/inlineBytes, what the
 * retry log's restore reads its slots with): the bytes the payload was written with, little-endian,
 * and nothing past the payload's inline part.
 */
public class RecordViewInlineTest {
  @Rule public ShmDir shm = new ShmDir();

  @Test
  public void readsThePayloadInPlaceAndNotPastIt() throws Exception {
    ByteBuffer b =
        ByteBuffer.allocate(RETRY_SLOTS * RETRY_ENTRY_SIZE).order(ByteOrder.LITTLE_ENDIAN);
    b.putLong(8, 0x1122334455667788L).putInt(20, 0xcafebabe);
    for (int i = 0; i < 16; i++) {
      b.put(32 + i, (byte) (i + 1));
    }
    try (InodeStore s = shm.createStore("r", ShmDir.MEDIUM)) {
      long page;
      try (Txn t = s.begin()) {
        page = t.createRecord(RECORD_RETRY_LOG, 0, 0, b.array());
        t.commit();
      }
      RecordView r = s.record(page);
      assertEquals(0x1122334455667788L, r.inlineLong(8));
      assertEquals(0xcafebabe, r.inlineInt(20));
      byte[] id = new byte[16];
      r.inlineBytes(32, id);
      for (int i = 0; i < 16; i++) {
        assertEquals(i + 1, id[i]);
      }
      int len = b.capacity();
      assertEquals(0L, r.inlineLong(len - 8));
      try {
        r.inlineLong(len - 4);
        fail("a u64 across the payload's end");
      } catch (IndexOutOfBoundsException expected) {
        // refused
      }
      try {
        r.inlineInt(-1);
        fail("a negative offset");
      } catch (IndexOutOfBoundsException expected) {
        // refused
      }
    }
  }

  @Test
  public void aChainedPayloadIsReadInPlaceOnlyInItsInlinePart() throws Exception {
    byte[] big = new byte[RECORD_INLINE_MAX + 100];
    big[RECORD_INLINE_MAX - 1] = 7;
    try (InodeStore s = shm.createStore("r", ShmDir.MEDIUM)) {
      long page;
      try (Txn t = s.begin()) {
        page = t.createRecord(RECORD_RETRY_LOG, 0, 0, big);
        t.commit();
      }
      RecordView r = s.record(page);
      byte[] last = new byte[1];
      r.inlineBytes(RECORD_INLINE_MAX - 1, last);
      assertEquals(7, last[0]);
      try {
        r.inlineBytes(RECORD_INLINE_MAX, last);
        fail("past the inline part: in the chain");
      } catch (IndexOutOfBoundsException expected) {
        // refused
      }
    }
  }
}
