package org.nvmnn.workload;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import org.junit.Test;

public class FlagsTest {
  @Test
  public void givenValuesWinAndAbsentOnesTakeTheirDefaults() {
    Flags f =
        Flags.parse(
            new String[] {"--files", "10000000", "--root", "/rec"},
            "--files",
            "--root",
            "--dirs",
            "--pid");
    assertEquals(10_000_000L, f.getLong("--files", -1));
    assertEquals("/rec", f.get("--root", "/x"));
    assertEquals(4, f.getInt("--dirs", 4));
    assertNull(f.get("--pid", null));
  }

  @Test
  public void anUnknownOptionIsRefusedByName() {
    try {
      Flags.parse(new String[] {"--fils", "1"}, "--files");
      fail("an unknown option was accepted");
    } catch (IllegalArgumentException e) {
      assertTrue(e.getMessage(), e.getMessage().startsWith("unknown option --fils"));
    }
  }

  @Test
  public void anOptionWithoutAValueIsRefusedByName() {
    try {
      Flags.parse(new String[] {"--files", "1", "--dirs"}, "--files", "--dirs");
      fail("an option without a value was accepted");
    } catch (IllegalArgumentException e) {
      assertEquals("option --dirs needs a value", e.getMessage());
    }
  }
}
