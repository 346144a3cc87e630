package org.apache.hadoop.hdfs.server.namenode;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.hadoop.hdfs.DFSUtil;
import org.junit.Test;

/** ChildIndex against a TreeMap ordered by HDFS's own name comparison (DFSUtil.compareBytes). */
public class ChildIndexTest {
  private static final java.util.Comparator<byte[]> HDFS_ORDER = DFSUtil::compareBytes;

  private static byte[] randomName(Random r) {
    byte[] b = new byte[1 + r.nextInt(r.nextInt(10) == 0 ? 300 : 12)];
    for (int i = 0; i < b.length; i++) {
      // mostly ASCII, some bytes >= 0x80 so that the signed order matters
      b[i] = (byte) (r.nextInt(8) == 0 ? 0x80 + r.nextInt(128) : 'a' + r.nextInt(4));
    }
    return b;
  }

  /**
   * Packs the names as the rebuild does (two length bytes, then the bytes) and builds the index.
   */
  private static ChildIndex ofSorted(byte[][] sortedNames, long[] values, int n) {
    java.io.ByteArrayOutputStream packed = new java.io.ByteArrayOutputStream();
    int[] offsets = new int[n];
    for (int i = 0; i < n; i++) {
      offsets[i] = packed.size();
      packed.write(sortedNames[i].length >>> 8);
      packed.write(sortedNames[i].length);
      packed.write(sortedNames[i], 0, sortedNames[i].length);
    }
    return ChildIndex.ofSortedPacked(packed.toByteArray(), offsets, values, n);
  }

  /** The index holds exactly the reference's entries, in its order, each found where it is. */
  private static void assertSameEntries(TreeMap<byte[], Long> ref, ChildIndex idx) {
    assertEquals(ref.size(), idx.size());
    int i = 0;
    for (Map.Entry<byte[], Long> e : ref.entrySet()) {
      assertArrayEquals(e.getKey(), idx.name(i));
      assertEquals((long) e.getValue(), idx.id(i));
      assertEquals(i, idx.search(e.getKey()));
      i++;
    }
  }

  @Test
  public void randomInsertsAndRemovesKeepHdfsOrderAndIds() {
    Random r = new Random(42);
    ChildIndex idx = new ChildIndex();
    TreeMap<byte[], Long> ref = new TreeMap<byte[], Long>(HDFS_ORDER);
    for (int step = 0; step < 40000; step++) {
      byte[] name = randomName(r);
      int pos = idx.search(name);
      assertEquals(ref.containsKey(name), pos >= 0);
      if (pos < 0 && r.nextInt(3) != 0) {
        long id = 16385 + step;
        idx.insert(-pos - 1, name, id);
        ref.put(name, id);
      } else if (pos >= 0) {
        assertEquals((long) ref.get(name), idx.id(pos));
        idx.remove(pos);
        ref.remove(name);
      }
      assertEquals(ref.size(), idx.size());
    }
    assertSameEntries(ref, idx);
  }

  @Test
  public void builtFromSortedNamesEqualsTheInsertedIndexAndTakesLaterChanges() {
    Random r = new Random(7);
    for (int round = 0; round < 200; round++) {
      TreeMap<byte[], Long> ref = new TreeMap<byte[], Long>(HDFS_ORDER);
      byte[] common = randomName(r);
      int n = r.nextInt(300);
      for (int k = 0; k < n; k++) {
        byte[] tail = randomName(r);
        byte[] name =
            r.nextInt(4) == 0 ? tail : concat(common, tail); // some break the shared prefix
        ref.put(name, r.nextInt(5) == 0 ? (1L << 33) + k : 16385L + k); // some ids need 8 bytes
      }
      byte[][] names = ref.keySet().toArray(new byte[0][]);
      long[] ids = new long[names.length];
      for (int k = 0; k < names.length; k++) {
        ids[k] = ref.get(names[k]);
      }
      ChildIndex built = ofSorted(names, ids, names.length);
      assertSameEntries(ref, built);
      // and it is an ordinary index afterwards
      byte[] extra = randomName(r);
      int pos = built.search(extra);
      if (pos < 0) {
        built.insert(-pos - 1, extra, 99);
        ref.put(extra, 99L);
      }
      assertSameEntries(ref, built);
    }
  }

  @Test
  public void sortedBuildRefusesDuplicatesAndDisorderNamingTheEntry() {
    byte[][] dup = {"a".getBytes(), "b".getBytes(), "b".getBytes()};
    byte[][] disorder = {"a".getBytes(), "c".getBytes(), "b".getBytes()};
    long[] ids = {1, 2, 3};
    try {
      ofSorted(dup, ids, 3);
      fail("duplicate accepted");
    } catch (IllegalArgumentException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("entry 2 is a duplicate of entry 1"));
    }
    try {
      ofSorted(disorder, ids, 3);
      fail("disorder accepted");
    } catch (IllegalArgumentException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("entry 2 is not above entry 1"));
    }
    assertEquals(0, ofSorted(new byte[0][], new long[0], 0).size());
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] c = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, c, a.length, b.length);
    return c;
  }

  @Test
  public void missReturnsInsertionPointLikeCollectionsBinarySearch() {
    ChildIndex idx = new ChildIndex();
    List<byte[]> names = new ArrayList<byte[]>();
    for (String s : new String[] {"b", "d", "f", "\u00e9"}) {
      names.add(DFSUtil.string2Bytes(s));
    }
    Collections.sort(names, HDFS_ORDER);
    for (byte[] n : names) {
      idx.insert(idx.size(), n, 1);
    }
    for (String probe : new String[] {"a", "c", "e", "g", "bb", ""}) {
      byte[] p = DFSUtil.string2Bytes(probe);
      int expected = Collections.binarySearch(names, p, HDFS_ORDER);
      assertEquals(probe, expected, idx.search(p));
      assertTrue(idx.search(p) < 0);
    }
  }

  @Test
  public void idsBeyondThirtyOneBitsWidenTheArrayAndKeepEveryValue() {
    ChildIndex idx = new ChildIndex();
    long[] values = {
      16385, -16386, Integer.MAX_VALUE, -(long) Integer.MAX_VALUE, 1L << 40, -(1L << 40) - 3, 77
    };
    for (int i = 0; i < values.length; i++) {
      idx.insert(i, DFSUtil.string2Bytes(String.format("n%02d", i)), values[i]);
    }
    for (int i = 0; i < values.length; i++) {
      assertEquals(values[i], idx.id(i));
    }
    idx.remove(0);
    idx.insert(0, DFSUtil.string2Bytes("a"), 5);
    assertEquals(5, idx.id(0));
    assertEquals(1L << 40, idx.id(4));
  }

  @Test
  public void aSharedPrefixIsStoredOnceAndShortensWhenANameBreaksIt() {
    ChildIndex idx = new ChildIndex();
    TreeMap<byte[], Long> ref = new TreeMap<byte[], Long>(HDFS_ORDER);
    for (int i = 0; i < 1000; i++) {
      byte[] n = DFSUtil.string2Bytes(String.format("ThroughputBenchFile%08d", 5000 + i));
      idx.insert(-idx.search(n) - 1, n, i + 1);
      ref.put(n, (long) i + 1);
    }
    // 27-byte names, about 5 bytes each after the shared "ThroughputBenchFile0000"
    assertTrue("heap " + idx.heapBytes(), idx.heapBytes() < 1000 * (5 + 8) * 3 / 2);
    for (String extra :
        new String[] {
          "ThroughputBenchFile", "Throughput", "_SUCCESS", "zz", "ThroughputBenchFile00005000x"
        }) {
      byte[] n = DFSUtil.string2Bytes(extra);
      int pos = idx.search(n);
      assertTrue(extra, pos < 0);
      assertEquals(
          extra, Collections.binarySearch(new ArrayList<byte[]>(ref.keySet()), n, HDFS_ORDER), pos);
      idx.insert(-pos - 1, n, 9999);
      ref.put(n, 9999L);
    }
    assertSameEntries(ref, idx);
  }

  @Test
  public void removalsCompactTheNameBytes() {
    ChildIndex idx = new ChildIndex();
    for (int i = 0; i < 20000; i++) {
      idx.insert(i, DFSUtil.string2Bytes(String.format("file%08d", i)), i + 1);
    }
    long full = idx.heapBytes();
    for (int i = 19999; i >= 100; i--) {
      idx.remove(i);
    }
    // 100 entries left; the next insert must not keep 20,000 names' worth of bytes
    idx.insert(idx.size(), DFSUtil.string2Bytes("zzz"), 99999);
    assertEquals(101, idx.size());
    assertTrue("names were compacted: " + idx.heapBytes() + " of " + full, idx.heapBytes() < full);
    assertArrayEquals(DFSUtil.string2Bytes("file00000050"), idx.name(50));
  }
}
