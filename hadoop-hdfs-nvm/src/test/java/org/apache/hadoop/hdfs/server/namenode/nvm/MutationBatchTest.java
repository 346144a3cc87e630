package org.apache.hadoop.hdfs.server.namenode.nvm;

import static org.junit.Assert.*;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.Test;

/** The byte format of nvm_apply batches. */
public class MutationBatchTest {
  @Test
  public void encodesHeaderEntriesAndPadding() {
    MutationBatch b = new MutationBatch(64);
    b.putLong(4104, 77, Field.COUNTER);
    b.fresh(16384, new byte[] {1, 2, 3}, Field.PAGE);
    b.free(16640);
    assertEquals(3, b.entryCount());
    assertEquals(1, b.inplaceCount());
    assertEquals(8 + (24 + 8) + (24 + 8) + 24, b.length());
    ByteBuffer x = b.buffer().duplicate().order(ByteOrder.LITTLE_ENDIAN);
    assertEquals(3, x.getInt(0));
    assertEquals(0, x.getInt(4));
    assertEquals(MutationBatch.Op.INPLACE.code, x.getInt(8));
    assertEquals(Field.COUNTER.id(), x.getInt(12));
    assertEquals(4104, x.getLong(16));
    assertEquals(8, x.getInt(24));
    assertEquals(77, x.getLong(32));
    assertEquals(MutationBatch.Op.FRESH.code, x.getInt(40));
    assertEquals(3, x.getInt(56));
    assertEquals(1, x.get(64));
    assertEquals(0, x.get(67));
    assertEquals(MutationBatch.Op.FREE.code, x.getInt(72));
    assertEquals(0, x.getInt(88));
    assertTrue(b.buffer().isDirect());
  }

  @Test
  public void growsAndClears() {
    MutationBatch b = new MutationBatch(64);
    for (int i = 0; i < 1000; i++) {
      b.putBytes(16384 + 8 * i, new byte[13], Field.NAME);
    }
    assertEquals(1000, b.entryCount());
    assertEquals(8 + 1000 * (24 + 16), b.length());
    b.clear();
    assertEquals(0, b.entryCount());
    assertEquals(8, b.length());
    assertTrue(b.isEmpty());
  }

  @Test(expected = IllegalArgumentException.class)
  public void refusesUnalignedWords() {
    new MutationBatch().putLong(4105, 1, Field.COUNTER);
  }
}
