package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.junit.Assert.*;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.hdfs.server.namenode.nvm.ShmDir;
import org.junit.Rule;
import org.junit.Test;

/**
 * The tools run in a JVM whose class path is this module's classes alone (no Hadoop jar, no
 * java.library.path: the native library comes out of the class path), and load no Hadoop class
 * outside the nvm packages, also for a region whose inodes have attributes.
 */
public class ToolsWithoutHadoopTest {
  @Rule public ShmDir shm = new ShmDir();

  private static final String TOOL = NvmRegionTool.class.getName();

  private static List<String> run(List<String> output, String... args) throws Exception {
    File classes =
        new File(NvmRegionTool.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    List<String> cmd =
        new ArrayList<String>(
            Arrays.asList(
                new File(System.getProperty("java.home"), "bin/java").getPath(),
                "-verbose:class",
                "-cp",
                classes.getPath(),
                TOOL));
    cmd.addAll(Arrays.asList(args));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    try (BufferedReader r =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      for (String l; (l = r.readLine()) != null; ) {
        output.add(l);
      }
    }
    output.add("exit=" + p.waitFor());
    return output;
  }

  @Test
  public void checkDumpAndStatNeedNoHadoopClasses() throws Exception {
    SampleNamespace n = SampleNamespace.create(shm, "r");
    AttributeSample.add(shm, n); // ACL entries and xattrs: decoded without Hadoop's classes
    String[][] commands = {
      {"check", n.file.getPath()}, {"dump", "--json", n.file.getPath()}, {"stat", n.file.getPath()}
    };
    for (String[] c : commands) {
      List<String> out = run(new ArrayList<String>(), c);
      assertEquals(out.toString(), "exit=0", out.get(out.size() - 1));
      boolean sawTool = false;
      for (String l : out) {
        if (l.startsWith("[") && l.contains(" org.apache.hadoop.")) {
          String cls = l.substring(l.indexOf("org.apache.hadoop.")).split(" ")[0];
          assertTrue(
              "loaded " + cls, cls.startsWith("org.apache.hadoop.hdfs.server.namenode.nvm."));
          sawTool |= cls.equals(TOOL);
        }
      }
      assertTrue("class loading was not traced", sawTool);
    }
    List<String> out = run(new ArrayList<String>(), "check", n.file.getPath());
    boolean summary = false;
    for (String l : out) {
      summary |= l.startsWith("summary: " + n.file.getPath() + ": 0 errors, 0 recoverable");
    }
    assertTrue(out.toString(), summary);
  }
}
