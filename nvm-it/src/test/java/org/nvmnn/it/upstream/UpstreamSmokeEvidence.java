package org.nvmnn.it.upstream;

import static org.junit.Assert.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.junit.Test;

/**
 * Runs after the upstream smoke set (surefire execution upstream-smoke) and checks its reports:
 * tests ran, and every upstream class started its NameNodes in NVM mode (the loader logs "NVM
 * namesystem loaded" for each), so a configuration slip cannot turn the smoke run into a stock run
 * that passes for the wrong reason. Not matched by the default includes; the execution
 * upstream-smoke-evidence names it.
 */
public class UpstreamSmokeEvidence {
  @Test
  public void everyUpstreamSmokeClassRanItsNameNodesInNvmMode() throws IOException {
    File dir =
        new File(System.getProperty("upstream.smoke.reports", "target/upstream-smoke-reports"));
    File[] xml = dir.listFiles((d, n) -> n.startsWith("TEST-") && n.endsWith(".xml"));
    assertTrue("no upstream smoke reports in " + dir, xml != null && xml.length > 0);
    List<String> without = new ArrayList<>();
    for (File f : xml) {
      String cls = f.getName().substring("TEST-".length(), f.getName().length() - ".xml".length());
      File out = new File(dir, cls + "-output.txt");
      boolean nvm =
          out.exists()
              && new String(Files.readAllBytes(out.toPath()), StandardCharsets.UTF_8)
                  .contains("NVM namesystem loaded");
      if (!nvm) {
        without.add(cls);
      }
    }
    assertTrue(
        "upstream classes that started no NameNode in NVM mode: " + without, without.isEmpty());
  }
}
