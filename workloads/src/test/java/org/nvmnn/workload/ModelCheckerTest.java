package org.nvmnn.workload;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.Test;

/**
 * The checker must notice a lost acknowledged operation: the "namespace" here is a second model
 * that did not get one operation the client's model got.
 */
public class ModelCheckerTest {

  @Test
  public void identicalNamespacePasses() {
    SubtreeModel client = new SubtreeModel("/crash/t0", "t0#0");
    SubtreeModel namespace = new SubtreeModel("/crash/t0", "t0#0");
    for (Op op : randomOps(1, 2000, client)) {
      OpEffects.apply(namespace, op, op.length);
    }
    assertTrue(ModelChecker.check(client, Namespaces.observe(namespace)).isEmpty());
    assertTrue(SnapshotChecker.check(client, Namespaces.observeSnapshots(namespace)).isEmpty());
  }

  /**
   * For many random histories: drop the last operation from the namespace, the checker blames
   * exactly it.
   */
  @Test
  public void omittedLastOperationIsReportedAsLost() {
    for (long seed = 1; seed <= 300; seed++) {
      SubtreeModel client = new SubtreeModel("/crash/t0", "t0#0");
      SubtreeModel namespace = new SubtreeModel("/crash/t0", "t0#0");
      List<Op> ops = randomOps(seed, 40 + (int) (seed % 60), client);
      for (Op op : ops.subList(0, ops.size() - 1)) {
        OpEffects.apply(namespace, op, op.length);
      }
      Op omitted = ops.get(ops.size() - 1);
      List<Discrepancy> found = ModelChecker.check(client, Namespaces.observe(namespace));
      found.addAll(SnapshotChecker.check(client, Namespaces.observeSnapshots(namespace)));
      assertFalse("seed " + seed + ": omitted " + omitted + " not noticed", found.isEmpty());
      Set<String> blamed = new TreeSet<>();
      for (Discrepancy d : found) {
        blamed.add(d.blamedOp);
      }
      assertEquals("seed " + seed + ": " + found, "[" + omitted.id + "]", blamed.toString());
    }
  }

  @Test
  public void lostDeleteIsBlamedForTheSurvivingPaths() {
    SubtreeModel client = new SubtreeModel("/crash/t0", "t0#0");
    client.mkdir("/crash/t0/d1", "t0#1");
    client.createFile("/crash/t0/d1/f2", 2, 300, FileContent.crc(2, 300), 16390, "t0#2");
    Map<String, ObservedEntry> before = Namespaces.observe(client);
    client.delete("/crash/t0/d1", "t0#3");
    List<Discrepancy> found = ModelChecker.check(client, before);
    assertEquals(2, found.size());
    for (Discrepancy d : found) {
      assertEquals("t0#3", d.blamedOp);
      assertEquals("exists, should not", d.problem);
    }
  }

  @Test
  public void wrongInodeIdOrShortContentIsReported() {
    SubtreeModel client = new SubtreeModel("/crash/t0", "t0#0");
    client.createFile("/crash/t0/f1", 9, 500, FileContent.crc(9, 500), 16390, "t0#1");
    Map<String, ObservedEntry> seen = Namespaces.observe(client);
    seen.put(
        "/crash/t0/f1",
        new ObservedEntry(
            false, 16391, (short) 0644, (short) 1, 500, 0, FileContent.crc(9, 500), false));
    assertEquals(
        "[/crash/t0/f1: inode id 16391, expected 16390 (blamed on t0#1)]",
        ModelChecker.check(client, seen).toString());
    seen.put(
        "/crash/t0/f1",
        new ObservedEntry(
            false, 16390, (short) 0644, (short) 1, 500, 0, FileContent.crc(9, 499), false));
    assertEquals(
        "[/crash/t0/f1: content differs (crc32) (blamed on t0#1)]",
        ModelChecker.check(client, seen).toString());
  }

  @Test
  public void unexplainedPathIsReported() {
    SubtreeModel client = new SubtreeModel("/crash/t0", "t0#0");
    Map<String, ObservedEntry> seen = Namespaces.observe(client);
    seen.put("/crash/t0/stray", ObservedEntry.directory(16400, (short) 0755));
    assertEquals("unexplained:/crash/t0/stray", ModelChecker.check(client, seen).get(0).blamedOp);
  }

  private static List<Op> randomOps(long seed, int n, SubtreeModel client) {
    OpChooser chooser = new OpChooser(seed, "t0", 40, 4, seed % 2 == 0, 3);
    List<Op> ops = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Op op = chooser.next(client);
      if (op.kind == Op.Kind.CREATE) {
        op.inodeId = 16386 + i; // as the output stream reports it
      }
      OpEffects.apply(client, op, op.length);
      ops.add(op);
    }
    return ops;
  }
}
