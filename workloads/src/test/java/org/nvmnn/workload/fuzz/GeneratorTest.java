package org.nvmnn.workload.fuzz;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.Test;

public class GeneratorTest {
  private static Generator gen(long seed, String... skip) {
    return new Generator(seed, 0.3, 1500, 500, new HashSet<>(Arrays.asList(skip)));
  }

  @Test
  public void theSameSeedGivesTheSameCalls() {
    Generator a = gen(42);
    Generator b = gen(42);
    for (int i = 0; i < 5000; i++) {
      assertEquals(a.next().toString(), b.next().toString());
    }
    Generator c = gen(43);
    boolean differs = false;
    for (int i = 0; i < 100 && !differs; i++) {
      differs = !a.next().toString().equals(c.next().toString());
    }
    assertTrue(differs);
  }

  @Test
  public void everyCallParsesBackFromItsLine() {
    Generator g = gen(7);
    for (int i = 0; i < 20000; i++) {
      Op op = g.next();
      assertEquals(op.toString(), OpParser.parse(op.toString()).toString());
    }
  }

  @Test
  public void aRunCoversEveryCallAndEveryByteValueInNames() {
    Generator g = gen(1);
    Set<Call> seen = EnumSet.noneOf(Call.class);
    BitSet bytes = new BitSet(256);
    for (int i = 0; i < 200000; i++) {
      Op op = g.next();
      seen.add(op.call);
      for (String p : op.paths()) {
        for (byte x : p.getBytes(StandardCharsets.UTF_8)) {
          bytes.set(x & 0xff);
        }
        for (char ch : p.toCharArray()) {
          if (ch < 256) {
            bytes.set(ch); // the character itself (U+0080..U+00FF are two bytes in UTF-8)
          }
        }
      }
    }
    Set<Call> missing = EnumSet.complementOf(EnumSet.copyOf(seen));
    missing.remove(Call.RESTART); // the driver inserts it
    assertEquals(Collections.emptySet(), missing);
    assertEquals(256, bytes.cardinality());
  }

  @Test
  public void skippedTagsAreNeverGenerated() {
    Generator g = gen(5, "nul", "long-owner", "long-client", "long-caller", "odd-path");
    for (int i = 0; i < 50000; i++) {
      Op op = g.next();
      assertFalse(op.toString(), op.tags.contains("nul"));
      assertFalse(op.toString(), op.tags.contains("long-owner"));
      assertFalse(op.toString(), op.tags.contains("long-client"));
      assertFalse(op.toString(), op.caller >= 2);
    }
  }

  @Test
  public void tagsDescribeTheHostileArguments() {
    Op owner = Generator.autoTags(Op.of(Call.setOwner, "/a", Text.repeat('u', 233), null));
    assertTrue(owner.tags.contains("long-owner"));
    Op ok = Generator.autoTags(Op.of(Call.setOwner, "/a", Text.repeat('u', 232), null));
    assertTrue(ok.tags.isEmpty());
    Op name =
        Generator.autoTags(
            Op.of(Call.mkdirs, "/d/" + Text.repeat('\u65e5', 86), 0755, true)); // 258 bytes
    assertEquals(new HashSet<>(Arrays.asList("long-name")), name.tags);
    Op odd = Generator.autoTags(Op.of(Call.delete, "/a/b/", true));
    assertTrue(odd.tags.contains("odd-path"));
    Op write = Generator.autoTags(Op.of(Call.dnWrite, BlockRef.last("/f"), -1L));
    assertTrue(write.tags.contains("negative-length"));
    Op caller = Generator.autoTags(Op.of(Call.getFileInfo, "/").as(3));
    assertTrue(caller.tags.contains("long-caller"));
  }

  @Test
  public void theModelFollowsRenamesAndDeletesOfSubtrees() {
    Model m = new Model();
    m.addFile("/a/b/f", "fz-a");
    m.addDir("/a/b/d");
    assertTrue(m.isDir("/a") && m.isDir("/a/b"));
    m.move("/a/b", "/c");
    assertTrue(m.exists("/c/f") && m.isDir("/c/d") && !m.exists("/a/b"));
    assertEquals("fz-a", m.holder.get("/c/f"));
    m.removeSubtree("/c");
    assertFalse(m.exists("/c/f"));
    assertTrue(m.gone.contains("/c"));
    List<String> rest = m.subtree("/");
    assertEquals(Arrays.asList("/", "/a"), rest);
  }

  @Test
  public void bindingsMoveWithRenamesAndDropWithDeletes() {
    Bindings b = new Bindings();
    b.fileId("/a/f", 16390);
    b.pushBlock("/a/f", new org.apache.hadoop.hdfs.protocol.ExtendedBlock("bp", 1, 0, 1001));
    b.renamed("/a", "/b");
    assertEquals(Long.valueOf(16390), b.fileId("/b/f"));
    assertEquals(1, b.lastBlock("/b/f").getBlockId());
    assertEquals(null, b.fileId("/a/f"));
    b.deleted("/b");
    assertEquals(null, b.lastBlock("/b/f"));
    assertTrue(Bindings.under("/x/y", "/x") && !Bindings.under("/xy", "/x"));
  }
}
