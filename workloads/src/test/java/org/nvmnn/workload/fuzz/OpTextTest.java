package org.nvmnn.workload.fuzz;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.StorageType;
import org.junit.Test;

public class OpTextTest {
  private static void roundTrip(Op op) {
    String line = op.toString();
    Op back = OpParser.parse(line);
    assertEquals(line, back.toString());
    assertEquals(op.call, back.call);
    assertEquals(op.caller, back.caller);
    for (int i = 0; i < op.args.length; i++) {
      Object a = op.args[i];
      Object b = back.args[i];
      if (a instanceof Object[]) {
        assertTrue(line, Arrays.equals((Object[]) a, (Object[]) b));
      } else {
        assertEquals(line, a, b);
      }
    }
  }

  @Test
  public void everyCharacterOfTheBasicPlaneSurvivesTheLine() {
    StringBuilder b = new StringBuilder("/");
    for (int c = 0; c < 0x10000; c++) {
      if (c != '/') {
        b.append((char) c);
      }
    }
    roundTrip(Op.of(Call.getFileInfo, b.toString()));
  }

  @Test
  public void longRunsAreWrittenAsRepAndReadBack() {
    String user = Text.repeat('v', 10000);
    Op op = Op.of(Call.setOwner, "/a", user, "g" + Text.repeat('\u00e9', 116) + "x").as(3);
    String line = op.toString();
    assertTrue(line, line.length() < 100);
    assertTrue(line, line.contains("rep(\"v\",10000)"));
    roundTrip(op);
  }

  @Test
  public void everyArgumentTypeRoundTrips() {
    List<Op> ops = new ArrayList<>();
    ops.add(
        Op.of(
            Call.create,
            "/a\u0000b",
            0177777,
            "",
            EnumSet.of(CreateFlag.CREATE, CreateFlag.OVERWRITE),
            true,
            (short) -1,
            Long.MIN_VALUE));
    ops.add(
        Op.of(
            Call.create, "/x", null, null, EnumSet.noneOf(CreateFlag.class), false, (short) 3, 0L));
    ops.add(
        Op.of(
            Call.addBlock,
            "/f",
            "fz-a",
            BlockRef.last("/f").shiftGs(-1).shiftId(2).withLen(-5),
            FileRef.of("/f"),
            true));
    ops.add(Op.of(Call.complete, "/f", "c", BlockRef.NULL, FileRef.literal(Long.MAX_VALUE)));
    ops.add(
        Op.of(
            Call.abandonBlock,
            BlockRef.literal(1073741825L, 1001, 0),
            FileRef.literal(-1),
            "/f",
            "c"));
    ops.add(Op.of(Call.updatePipeline, "c", BlockRef.last("/f"), BlockRef.pipe("/f"), false));
    ops.add(Op.of(Call.rename2, "/a", "/b", new Options.Rename[] {Options.Rename.OVERWRITE}));
    ops.add(Op.of(Call.rename2, "/a", "/b", new Options.Rename[0]));
    ops.add(Op.of(Call.setQuota, "/d", -1L, Long.MAX_VALUE, StorageType.SSD));
    ops.add(Op.of(Call.setQuota, "/d", 5L, 5L, null));
    ops.add(Op.of(Call.concat, "/t", new String[] {"/s1", "/s\"2\\"}));
    ops.add(Op.of(Call.getListing, "/", null, true));
    ops.add(Op.of(Call.RESTART));
    ops.add(Op.of(Call.dnHeartbeat));
    for (Op op : ops) {
      roundTrip(op);
    }
  }

  @Test
  public void reportLinesWithAnIndexAndCommentsAreAccepted() {
    List<Op> ops =
        OpParser.parseAll(
            Arrays.asList(
                "# a reproduction",
                "",
                "12: mkdirs(\"/a\", 0755, true)",
                "  as(1).setOwner(\"/a\", \"u\", null)",
                "RESTART"));
    assertEquals(3, ops.size());
    assertEquals(Call.mkdirs, ops.get(0).call);
    assertEquals(0755, ops.get(0).args[1]);
    assertEquals(1, ops.get(1).caller);
    assertEquals(Call.RESTART, ops.get(2).call);
  }

  @Test
  public void malformedLinesAreRefusedWithTheirColumn() {
    for (String bad :
        new String[] {
          "nosuchcall(\"/a\")",
          "mkdirs(\"/a\", 0755)",
          "mkdirs(\"/a\", 0755, maybe)",
          "mkdirs(\"/a, 0755, true)",
          "mkdirs(\"/a\", 0755, true) extra"
        }) {
      try {
        OpParser.parse(bad);
        fail("accepted " + bad);
      } catch (IllegalArgumentException e) {
        assertTrue(
            e.getMessage(),
            e.getMessage().contains("column") || e.getMessage().contains("arguments"));
      }
    }
  }

  @Test
  public void pathsIncludeBlockAndFileReferencesAndConcatSources() {
    Op op = Op.of(Call.abandonBlock, BlockRef.last("/f"), FileRef.of("/g"), "/h", "c");
    assertEquals(new HashSet<>(Arrays.asList("/f", "/g", "/h")), op.paths());
    Op c = Op.of(Call.concat, "/t", new String[] {"/a", "/b"});
    assertEquals(new HashSet<>(Arrays.asList("/t", "/a", "/b")), c.paths());
  }
}
