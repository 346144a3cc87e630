package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.junit.Assert.*;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.EnumMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.Test;

/**
 * docs/offline-tools.md lists every finding kind once, with the severity the code gives it, and the
 * exit codes.
 */
public class OfflineToolsDocTest {
  private static String doc() throws Exception {
    File f = new File("../docs/offline-tools.md");
    assertTrue("missing " + f.getAbsolutePath(), f.isFile());
    return new String(Files.readAllBytes(f.toPath()), StandardCharsets.UTF_8);
  }

  @Test
  public void everyFindingKindIsDocumentedWithItsSeverity() throws Exception {
    Map<Finding.Kind, Finding.Severity> documented =
        new EnumMap<Finding.Kind, Finding.Severity>(Finding.Kind.class);
    Matcher m = Pattern.compile("(?m)^\\| `([A-Z_]+)` \\| (ERROR|RECOVERABLE) \\|").matcher(doc());
    while (m.find()) {
      Finding.Kind kind;
      try {
        kind = Finding.Kind.valueOf(m.group(1));
      } catch (IllegalArgumentException e) {
        throw new AssertionError("the doc lists " + m.group(1) + ", which is not a Finding.Kind");
      }
      assertNull(
          "listed twice: " + kind, documented.put(kind, Finding.Severity.valueOf(m.group(2))));
    }
    for (Finding.Kind k : Finding.Kind.values()) {
      assertEquals(
          "severity of " + k + " in docs/offline-tools.md", k.severity(), documented.get(k));
    }
  }

  @Test
  public void exitCodesAreDocumented() throws Exception {
    String d = doc();
    for (int code :
        new int[] {
          CheckReport.EXIT_CLEAN,
          CheckReport.EXIT_ERROR,
          CheckReport.EXIT_NEEDS_RECOVERY,
          NvmRegionTool.EXIT_USAGE,
          NvmRegionTool.EXIT_INTERNAL
        }) {
      assertTrue(
          "exit code " + code + " is not in the exit code table",
          d.contains("\n| " + code + " | "));
    }
  }
}
