package org.apache.hadoop.hdfs.server.namenode.nvm;

import static org.junit.Assert.*;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.Test;

/**
 * Every "| `NAME` | value |" row of docs/region-format.md is true: a layout constant agrees with
 * RegionLayout; an entry of the enumerated lists (ERROR_, OP_, FIELD_, MODE_, BATCH_) agrees with
 * nvm_layout_table() in value and, where the list has one, in its meaning (the third cell), and
 * every entry of those lists has a row.
 */
public class RegionFormatDocTest {
  private static final Pattern ROW =
      Pattern.compile(
          "^\\|\\s*`([A-Z][A-Z0-9_]*)`\\s*\\|\\s*([^|]+?)\\s*\\|(?:\\s*([^|]*?)\\s*\\|)?");

  @Test
  public void docTableRowsMatchRegionLayoutAndTheNativeLists() throws Exception {
    File doc = new File("../docs/region-format.md");
    assertTrue("missing " + doc.getAbsolutePath(), doc.isFile());
    Map<String, Long> java = RegionLayoutTest.javaConstants();
    Map<String, NativeTable.Entry> table = NativeTable.all();
    TreeSet<String> listRows = new TreeSet<String>();
    int rows = 0;
    for (String line : Files.readAllLines(doc.toPath(), StandardCharsets.UTF_8)) {
      Matcher m = ROW.matcher(line);
      if (!m.find()) {
        continue;
      }
      String name = m.group(1);
      String value = m.group(2).replace("`", "").trim();
      Long parsed = parse(value);
      if (parsed == null) {
        continue; // a prose cell such as "| `NAME` | see below |" is not a value row
      }
      rows++;
      if (NativeTable.listPrefix(name) == null) {
        assertTrue(
            "docs/region-format.md names " + name + ", which RegionLayout does not have",
            java.containsKey(name));
        assertEquals("docs/region-format.md row " + name, java.get(name), parsed);
        continue;
      }
      NativeTable.Entry e = table.get(name);
      assertNotNull(
          "docs/region-format.md names " + name + ", which nvm_layout_table() does not have", e);
      assertEquals("docs/region-format.md row " + name, e.value, (long) parsed);
      if (e.meaning != null) {
        assertEquals(
            "docs/region-format.md: the meaning of " + name + " (nvmns.h)", e.meaning, m.group(3));
      }
      assertTrue("docs/region-format.md lists " + name + " twice", listRows.add(name));
    }
    assertTrue("docs/region-format.md has no | `NAME` | value | rows", rows > 0);
    for (String name : table.keySet()) {
      if (NativeTable.listPrefix(name) != null) {
        assertTrue("docs/region-format.md has no row for " + name, listRows.contains(name));
      }
    }
  }

  private static Long parse(String v) {
    try {
      if (v.startsWith("0x") || v.startsWith("0X")) {
        return Long.parseUnsignedLong(v.substring(2).replace("_", ""), 16);
      }
      return Long.parseLong(v.replace("_", "").replace(",", ""));
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
