package org.apache.hadoop.hdfs.server.namenode;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout;
import org.junit.Test;

/** IdPageMap against a HashMap: dense creation, churn, sparse survivors, re-puts. */
public class IdPageMapTest {
  private static long page(long id) {
    return RegionLayout.DATA_OFFSET + 256L * (id % 1000003);
  }

  @Test
  public void matchesAHashMapUnderChurn() {
    Random r = new Random(7);
    IdPageMap m = new IdPageMap();
    Map<Long, Long> ref = new HashMap<Long, Long>();
    long nextId = 16385;
    for (int step = 0; step < 300000; step++) {
      int op = r.nextInt(10);
      if (op < 5 || nextId == 16385) {
        long id = nextId++;
        assertEquals(IdPageMap.MISSING, m.put(id, page(id)));
        ref.put(id, page(id));
      } else if (op < 9) {
        long id = 16385 + (long) (r.nextDouble() * (nextId - 16385));
        Long old = ref.remove(id);
        assertEquals(old == null ? IdPageMap.MISSING : old, m.remove(id));
      } else {
        long id = 16385 + (long) (r.nextDouble() * (nextId - 16385));
        long p = page(id + 1);
        Long old = ref.put(id, p);
        assertEquals(old == null ? IdPageMap.MISSING : old, m.put(id, p));
      }
      assertEquals(ref.size(), m.size());
    }
    for (long id = 1; id < nextId + 600; id++) {
      Long v = ref.get(id);
      assertEquals("id " + id, v == null ? IdPageMap.MISSING : v, m.get(id));
    }
    long[] keys = m.keys();
    Arrays.sort(keys);
    assertEquals(ref.size(), keys.length);
    for (long k : keys) {
      assertTrue(ref.containsKey(k));
    }
  }

  @Test
  public void denseIdsCostAboutFourBytesEach() {
    IdPageMap m = new IdPageMap();
    for (long id = 16385; id < 16385 + 1000000; id++) {
      m.put(id, page(id));
    }
    assertTrue("heap " + m.heapBytes(), m.heapBytes() < 4.2 * 1000000);
  }

  @Test
  public void sparseSurvivorsDoNotKeepWholeChunks() {
    IdPageMap m = new IdPageMap();
    for (long id = 16385; id < 16385 + 1000000; id++) {
      m.put(id, page(id));
    }
    for (long id = 16385; id < 16385 + 1000000; id++) {
      if (id % 1000 != 0) {
        m.remove(id);
      }
    }
    assertEquals(1000, m.size());
    assertTrue("heap " + m.heapBytes(), m.heapBytes() < 200000);
    assertEquals(page(17000), m.get(17000));
    assertEquals(IdPageMap.MISSING, m.get(17001));
  }

  @Test(expected = IllegalArgumentException.class)
  public void refusesAnUnalignedPage() {
    new IdPageMap().put(16385, RegionLayout.DATA_OFFSET + 3);
  }
}
