package org.nvmnn.workload.ha;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.Test;

public class ExpectedNamespaceTest {
  private static ExpectedNamespace replay(String... lines) {
    List<LogLine> log = new ArrayList<>();
    for (String l : lines) {
      log.add(LogLine.parse(l));
    }
    return ExpectedNamespace.replay(log);
  }

  @Test
  public void aRenamedFileIsExpectedAtItsTargetWithTheContentOfItsCreate() {
    ExpectedNamespace e =
        replay(
            "10 t0 ACK CREATE /l/t0/new/f000001 4096 # started 9",
            "20 t0 ACK RENAME /l/t0/new/f000001 /l/t0/moved/f000001 # started 11");
    assertEquals(1, e.files.size());
    ExpectedNamespace.File f = e.files.get("/l/t0/moved/f000001");
    assertEquals("/l/t0/new/f000001", f.created.op.path);
    assertEquals(4096, f.created.op.length);
    assertEquals(1, e.renames.size());
  }

  @Test
  public void onlyOperationsThatTookEffectAreExpected() {
    ExpectedNamespace e =
        replay(
            "10 t0 ACK CREATE /l/t0/new/f000001 100",
            "11 t1 INDOUBT CREATE /l/t1/new/f000001 200 # ConnectException: refused",
            "12 t0 INDOUBT RENAME /l/t0/new/f000001 /l/t0/moved/f000001 # EOFException",
            "13 t1 PARTIAL CREATE /l/t1/new/f000001 200 # was open, lease recovered, 0 bytes of 200",
            "14 t0 NOT_DONE RENAME /l/t0/new/f000001 /l/t0/moved/f000001 # source there",
            "15 t1 INDOUBT CREATE /l/t1/new/f000002 300 # EOFException",
            "16 t1 DONE CREATE /l/t1/new/f000002 300 # closed, 300 bytes");
    assertEquals(2, e.files.size());
    assertTrue(e.files.containsKey("/l/t0/new/f000001"));
    assertTrue(e.files.containsKey("/l/t1/new/f000002"));
    assertEquals(0, e.renames.size());
    assertEquals(1, e.tally.ackedCreates);
    assertEquals(3, e.tally.get(Outcome.INDOUBT));
    assertEquals(1, e.tally.get(Outcome.PARTIAL));
  }

  @Test
  public void anOperationIsWrittenAsItIsParsed() {
    for (LoadOp op :
        new LoadOp[] {
          LoadOp.create("/a/new/f000007", 1234), LoadOp.rename("/a/new/x", "/a/moved/x")
        }) {
      assertEquals(op.toString(), LoadOp.parse(("5 t0 ACK " + op).split(" "), 3).toString());
    }
  }
}
