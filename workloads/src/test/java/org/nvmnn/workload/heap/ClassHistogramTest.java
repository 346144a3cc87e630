package org.nvmnn.workload.heap;

import static org.junit.Assert.assertEquals;

import java.util.List;
import org.junit.Test;

public class ClassHistogramTest {
  private static final String BEFORE =
      String.join(
          "\n",
          "12345:",
          " num     #instances         #bytes  class name (module)",
          "-------------------------------------------------------",
          "   1:        100000        7200000  org.apache.hadoop.hdfs.server.namenode.INodeFile",
          "   2:         50000        1200000  [B (java.base@17.0.15)",
          "   3:            10            480  java.lang.String (java.base@17.0.15)",
          "Total        150010        8400480");
  private static final String AFTER =
      String.join(
          "\n",
          "12345:",
          " num     #instances         #bytes  class name (module)",
          "-------------------------------------------------------",
          "   1:        200000       14400000  org.apache.hadoop.hdfs.server.namenode.INodeFile",
          "   2:         60000        1500000  [B (java.base@17.0.15)",
          "   3:        100000        4800000  org.apache.hadoop.hdfs.server.blockmanagement.BlockInfoContiguous",
          "Total        360000       20700000");

  @Test
  public void parsesRowsAndTotal() {
    ClassHistogram h = ClassHistogram.parse(BEFORE);
    assertEquals(8400480, h.totalBytes);
    assertEquals(150010, h.totalInstances);
    assertEquals(7200000, h.byClass.get("org.apache.hadoop.hdfs.server.namenode.INodeFile")[1]);
    assertEquals(50000, h.byClass.get("[B")[0]);
  }

  /** Per-class deltas, largest absolute byte change first; classes that vanished are negative. */
  @Test
  public void diffOrdersByAbsoluteBytes() {
    List<ClassHistogram.Delta> d =
        ClassHistogram.diff(ClassHistogram.parse(BEFORE), ClassHistogram.parse(AFTER));
    assertEquals(4, d.size());
    assertEquals("org.apache.hadoop.hdfs.server.namenode.INodeFile", d.get(0).className);
    assertEquals(7200000, d.get(0).bytes);
    assertEquals(100000, d.get(0).instances);
    assertEquals(
        "org.apache.hadoop.hdfs.server.blockmanagement.BlockInfoContiguous", d.get(1).className);
    assertEquals("[B", d.get(2).className);
    assertEquals(300000, d.get(2).bytes);
    assertEquals("java.lang.String", d.get(3).className);
    assertEquals(-480, d.get(3).bytes);
  }

  @Test(expected = IllegalArgumentException.class)
  public void refusesTextWithoutTotal() {
    ClassHistogram.parse("12345:\nCommand not found: GC.class_histogram\n");
  }
}
