package org.nvmnn.workload.fuzz;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.Test;

public class TimeWindowsTest {
  private static TimeWindows windows(long... startEnd) {
    TimeWindows w = new TimeWindows();
    for (int i = 0; i < startEnd.length; i += 2) {
      w.add(startEnd[i], startEnd[i + 1]);
    }
    return w;
  }

  @Test
  public void aTimeMapsToTheCallsWhoseWindowHoldsIt() {
    TimeWindows w = windows(100, 105, 105, 105, 105, 110, 120, 130);
    assertArrayEquals(new long[] {-1, -1}, w.position(99));
    assertArrayEquals(new long[] {0, 0}, w.position(101));
    assertArrayEquals(new long[] {0, 4}, w.position(105)); // calls 0, 1 and 2 share that ms
    assertArrayEquals(new long[] {5, 5}, w.position(115)); // between call 2 and call 3
    assertArrayEquals(new long[] {6, 6}, w.position(130));
    assertArrayEquals(new long[] {8, 8}, w.position(131)); // after the last call
  }

  @Test
  public void timesFromTheSameCallAgreeAcrossClocksOfTwoProcesses() {
    // call 1 ran at 200..201 on stock and 202..204 on nvm: both took "now" inside their window
    TimeWindows stock = windows(100, 101, 200, 201, 300, 301);
    TimeWindows nvm = windows(102, 103, 202, 204, 302, 303);
    assertTrue(TimeWindows.sameMoment(201, stock, 203, nvm));
    // nvm reports a time of call 0 where stock has call 1: a time that was not updated
    assertFalse(TimeWindows.sameMoment(201, stock, 103, nvm));
    // a time a client set is the same number on both
    assertTrue(TimeWindows.sameMoment(978307200000L, stock, 978307200000L, nvm));
    // before the run, and a client-set time against a clock time, are never "the same moment"
    assertFalse(TimeWindows.sameMoment(50, stock, 60, nvm));
    assertFalse(TimeWindows.sameMoment(978307200000L, stock, 202, nvm));
  }

  @Test
  public void compareReportsTheFirstDifferingFieldAndAcceptsSameMomentTimes() {
    TimeWindows stock = windows(100, 101, 200, 201);
    TimeWindows nvm = windows(102, 103, 202, 204);
    Canon a = new Canon();
    a.put("name", "\"f\"");
    a.time("mtime", 201);
    a.put("owner", "\"root\"");
    Canon b = new Canon();
    b.put("name", "\"f\"");
    b.time("mtime", 204);
    b.put("owner", "\"root\"");
    assertNull(Compare.canon(a, stock, b, nvm));
    Canon c = new Canon();
    c.put("name", "\"f\"");
    c.time("mtime", 103);
    c.put("owner", "\"x\"");
    String d = Compare.canon(a, stock, c, nvm);
    assertTrue(d, d.startsWith("mtime: stock 201 (call 1) vs nvm 103 (call 0)"));
  }

  @Test
  public void listingDifferencesNameThePathAndTheField() {
    TimeWindows w = windows(1, 2);
    Map<String, Canon> a = new LinkedHashMap<>();
    Map<String, Canon> b = new LinkedHashMap<>();
    Canon x = new Canon();
    x.put("owner", "\"root\"");
    Canon y = new Canon();
    y.put("owner", "\"other\"");
    a.put("/a\u0000b", x);
    b.put("/a\u0000b", y);
    a.put("/only-stock", x);
    java.util.List<String> diffs = Compare.listings(a, w, b, w, 10);
    assertEquals(2, diffs.size());
    assertEquals("\"/a\\u0000b\": owner: stock \"root\" vs nvm \"other\"", diffs.get(0));
    assertEquals("owner", Compare.aspect(diffs.get(0)));
    assertEquals("/a\u0000b", Compare.pathOf(diffs.get(0)));
    assertEquals("only in stock", Compare.aspect(diffs.get(1)));
  }
}
