package org.nvmnn.workload;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class LogFillTest {
  @Test
  public void theBoundIsTheNativeLibrarysCheckpointSize() {
    long log = 128L << 20;
    assertEquals(32L << 20, LogFill.bound(log, 0)); // a quarter by default
    assertEquals(8L << 20, LogFill.bound(log, 8L << 20));
    assertEquals(64L << 20, LogFill.bound(log, 100L << 20)); // at most half
  }

  @Test
  public void aChunkAimsBelowTheBoundAndStopsInTheWindow() {
    long bound = 1_000_000, margin = 10_000;
    // 995,000 - 0 bytes at 500 each, 90% of it
    assertEquals(1791, LogFill.nextOps(0, bound, margin, 500));
    assertEquals(0, LogFill.nextOps(990_000, bound, margin, 500));
    assertEquals(0, LogFill.nextOps(999_999, bound, margin, 500));
    assertEquals(1, LogFill.nextOps(989_999, bound, margin, 50_000)); // one more, however large
    assertEquals(
        1, LogFill.nextOps(1_000_000, bound, margin, 500)); // at the bound: let it checkpoint
  }

  @Test
  public void theBeansAttributesAreReadFromItsJson() {
    String json =
        "{\"beans\":[{\"name\":\"Hadoop:service=NameNode,name=NvmNamespace\",\"LogUsedBytes\" : 4096,"
            + "\"LogBytesWritten\":123456789012,\"LogRecords\":7,\"Checkpoints\":0,"
            + "\"LastRecoveryLogRecords\":99,\"LogCapacityBytes\":134217728}]}";
    LogFill.Reading r = new LogFill.Reading(json);
    assertEquals(4096, r.used);
    assertEquals(123456789012L, r.written);
    assertEquals(7, r.records);
    assertEquals(0, r.checkpoints);
    assertEquals(134217728, r.capacity);
    assertEquals(-1, LogFill.attr(json, "Missing"));
  }
}
