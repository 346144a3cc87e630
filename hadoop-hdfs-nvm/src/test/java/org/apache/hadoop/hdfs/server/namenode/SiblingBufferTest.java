package org.apache.hadoop.hdfs.server.namenode;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.hdfs.DFSUtil;
import org.junit.Test;

/** SiblingBuffer's sort against a sort by HDFS's own name comparison (DFSUtil.compareBytes). */
public class SiblingBufferTest {
  private static final Comparator<byte[]> HDFS_ORDER = DFSUtil::compareBytes;

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /**
   * Adds the names in the given order (value = position in that order + 16385) and checks the
   * index.
   */
  private static void assertIndexesInHdfsOrder(List<byte[]> input) {
    SiblingBuffer buf = new SiblingBuffer();
    for (int i = 0; i < input.size(); i++) {
      buf.add(input.get(i), 16385 + i);
    }
    List<Integer> want = new ArrayList<Integer>();
    for (int i = 0; i < input.size(); i++) {
      want.add(i);
    }
    Collections.sort(want, (x, y) -> HDFS_ORDER.compare(input.get(x), input.get(y)));
    ChildIndex idx = buf.toIndex();
    assertEquals(input.size(), idx.size());
    for (int i = 0; i < want.size(); i++) {
      assertArrayEquals("entry " + i, input.get(want.get(i)), idx.name(i));
      assertEquals("entry " + i, 16385 + want.get(i), idx.id(i));
    }
  }

  private static List<byte[]> distinctRandomNames(Random r, int n, String common) {
    java.util.TreeSet<byte[]> set = new java.util.TreeSet<byte[]>(HDFS_ORDER);
    while (set.size() < n) {
      byte[] tail = new byte[r.nextInt(r.nextInt(10) == 0 ? 40 : 12)];
      for (int i = 0; i < tail.length; i++) {
        // mostly a few ASCII letters (long shared stretches), some bytes >= 0x80 (signed order),
        // some 0x80 itself (its key byte equals a short name's padding)
        int c = r.nextInt(10);
        tail[i] = (byte) (c == 0 ? 0x80 : c == 1 ? 0x81 + r.nextInt(127) : 'a' + r.nextInt(3));
      }
      byte[] name = new byte[common.length() + tail.length];
      System.arraycopy(bytes(common), 0, name, 0, common.length());
      System.arraycopy(tail, 0, name, common.length(), tail.length);
      if (name.length > 0) {
        set.add(name);
      }
    }
    return new ArrayList<byte[]>(set);
  }

  @Test
  public void randomNamesInAnyInputOrderComeOutInHdfsOrder() {
    Random r = new Random(7);
    for (String common : new String[] {"", "ThroughputBenchFile"}) {
      for (int n : new int[] {1, 2, 31, 32, 33, 100, 5000}) {
        List<byte[]> sorted = distinctRandomNames(r, n, common);
        assertIndexesInHdfsOrder(sorted);
        List<byte[]> reversed = new ArrayList<byte[]>(sorted);
        Collections.reverse(reversed);
        assertIndexesInHdfsOrder(reversed);
        List<byte[]> shuffled = new ArrayList<byte[]>(sorted);
        Collections.shuffle(shuffled, r);
        assertIndexesInHdfsOrder(shuffled);
      }
    }
  }

  /**
   * NNBench's names: decimal numbers created in numeric order by racing threads (runs by length,
   * local jitter).
   */
  @Test
  public void decimalNamesInCreationOrderComeOutInHdfsOrder() {
    Random r = new Random(11);
    List<byte[]> names = new ArrayList<byte[]>();
    for (int k = 0; k < 20000; k++) {
      names.add(bytes(Integer.toString(k)));
    }
    for (int i = 0; i + 1 < names.size(); i++) { // neighbours swapped now and then
      if (r.nextInt(4) == 0) {
        Collections.swap(names, i, i + 1);
      }
    }
    assertIndexesInHdfsOrder(names);
  }

  @Test
  public void shortNameSortsBeforeTheSameNameWithByte0x80() {
    // "ab" and "ab\u0080" have equal sort keys (padding zero = 0x80 flipped): the full compare
    // decides
    List<byte[]> names = new ArrayList<byte[]>();
    names.add(new byte[] {'a', 'b', (byte) 0x80});
    names.add(new byte[] {'a', 'b'});
    names.add(new byte[] {'a', 'b', (byte) 0x80, (byte) 0x80});
    names.add(new byte[] {'a', 'b', 0x7f});
    assertIndexesInHdfsOrder(names);
  }

  @Test
  public void duplicateNameIsRefusedByName() {
    SiblingBuffer buf = new SiblingBuffer();
    for (String s : new String[] {"c", "dup", "a", "dup", "b"}) {
      buf.add(bytes(s), 1);
    }
    try {
      buf.toIndex();
      fail("duplicate accepted");
    } catch (IllegalArgumentException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("duplicate name 'dup'"));
    }
  }

  @Test
  public void containsFindsExactNamesOnly() {
    SiblingBuffer buf = new SiblingBuffer();
    buf.add(bytes(".reserved"), 1);
    buf.add(bytes("x"), 2);
    assertTrue(buf.contains(bytes(".reserved")));
    assertFalse(buf.contains(bytes(".reserve")));
    assertFalse(buf.contains(bytes(".reservedx")));
    assertEquals(0, new SiblingBuffer().toIndex().size());
  }

  @Test
  public void nameOverTheIndexLimitIsRefused() {
    try {
      new SiblingBuffer().add(new byte[ChildIndex.MAX_NAME + 1], 1);
      fail("over-long name accepted");
    } catch (IllegalArgumentException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("longer than"));
    }
  }
}
