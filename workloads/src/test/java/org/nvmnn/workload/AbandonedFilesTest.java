package org.nvmnn.workload;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.junit.Test;

/** The rules of {@link AbandonedFiles} against a namespace the test controls. */
public class AbandonedFilesTest {
  private static final long DEADLINE = 17000;

  /** Path &rarr; {closed 0/1, length, crc}; a missing path is absent. */
  private final Map<String, long[]> state = new HashMap<>();

  private final AbandonedFiles.Namespace ns =
      new AbandonedFiles.Namespace() {
        @Override
        public Boolean closed(String path) {
          long[] s = state.get(path);
          return s == null ? null : s[0] == 1;
        }

        @Override
        public long[] lengthAndCrc(String path) {
          long[] s = state.get(path);
          return new long[] {s[1], s[2]};
        }
      };

  private AbandonedFiles files(String... paths) {
    AbandonedFiles f = new AbandonedFiles(DEADLINE);
    String[] lines = new String[paths.length];
    for (int i = 0; i < paths.length; i++) {
      lines[i] = paths[i] + "\t100\t7";
      state.put(paths[i], new long[] {0, 100, 7});
    }
    f.addManifest(1, Arrays.asList(lines));
    return f;
  }

  private void close(String path) {
    state.get(path)[0] = 1;
  }

  @Test
  public void closedByLeaseRecoveryAfterTheRestartWithinTheDeadline() throws Exception {
    AbandonedFiles f = files("/open/w1/a");
    assertTrue(f.poll(1, 1000, 1100, ns).isEmpty());
    assertFalse(f.settledThrough(1));
    close("/open/w1/a");
    f.poll(1, 1000, 7000, ns);
    AbandonedFiles.Entry e = f.entries().get(0);
    assertEquals(AbandonedFiles.Verdict.CLOSED_AFTER_RESTART, e.verdict);
    assertEquals(6000, e.closedAfterMs);
    assertTrue(f.settledThrough(1));
    assertEquals(0, f.failures());
  }

  /** A NameNode that never recovers the lease fails the run once the deadline has passed. */
  @Test
  public void stillOpenAfterTheDeadlineIsAFailure() throws Exception {
    AbandonedFiles f = files("/open/w1/a", "/open/w1/b");
    close("/open/w1/b");
    f.poll(1, 1000, 1100, ns);
    assertFalse(f.settledThrough(1));
    f.poll(1, 1000, 1000 + DEADLINE, ns);
    assertFalse("not yet past the deadline", f.settledThrough(1));
    f.poll(1, 1000, 1001 + DEADLINE, ns);
    assertTrue(f.settledThrough(1));
    assertEquals(AbandonedFiles.Verdict.NOT_CLOSED_IN_TIME, f.entries().get(0).verdict);
    assertEquals(AbandonedFiles.Verdict.CLOSED_AT_FIRST_LOOK, f.entries().get(1).verdict);
    assertEquals(1, f.failures());
  }

  @Test
  public void aKillBeforeTheDeadlineMakesTheFileDueAnewAfterTheNextRestart() throws Exception {
    AbandonedFiles f = files("/open/w1/a");
    f.poll(1, 1000, 5000, ns);
    // killed at 6000; restart 2 announced at 20000 (past restart 1's deadline: not counted)
    f.poll(2, 20000, 20100, ns);
    assertFalse(f.settledThrough(2));
    close("/open/w1/a");
    f.poll(2, 20000, 26000, ns);
    AbandonedFiles.Entry e = f.entries().get(0);
    assertEquals(AbandonedFiles.Verdict.CLOSED_AFTER_RESTART, e.verdict);
    assertEquals(1, e.interruptedDeadlines);
    assertEquals(6000, e.closedAfterMs);
    assertEquals(2, e.decidedEpoch);
  }

  @Test
  public void wrongBytesOrAGoneFileAreFailures() throws Exception {
    AbandonedFiles f = files("/open/w1/a", "/open/w1/b");
    state.put("/open/w1/a", new long[] {1, 99, 7});
    state.remove("/open/w1/b");
    f.poll(1, 1000, 1100, ns);
    assertEquals(AbandonedFiles.Verdict.WRONG_CONTENT, f.entries().get(0).verdict);
    assertEquals(AbandonedFiles.Verdict.ABSENT, f.entries().get(1).verdict);
    assertEquals(2, f.failures());
  }

  /** A writer killed before kill k is due from restart k on; before that its files may be open. */
  @Test
  public void aWriterIsDueOnlyFromTheRestartAfterItsKill() throws Exception {
    AbandonedFiles f = new AbandonedFiles(DEADLINE);
    state.put("/open/w3/a", new long[] {0, 100, 7});
    f.addManifest(3, Arrays.asList("/open/w3/a\t100\t7"));
    assertTrue(f.poll(2, 1000, 1000 + 10 * DEADLINE, ns).isEmpty());
    assertTrue(f.settledThrough(2));
    assertFalse(f.settledThrough(3));
    assertEquals(AbandonedFiles.Verdict.PENDING, f.entries().get(0).verdict);
  }

  @Test
  public void filesNotCheckedWhenTheRunEndsWithTheNameNodeDownAreFailures() throws Exception {
    AbandonedFiles f = files("/open/w1/a");
    assertEquals(1, f.giveUp(1, "down"));
    assertTrue(f.settledThrough(1));
    assertEquals(1, f.failures());
  }
}
