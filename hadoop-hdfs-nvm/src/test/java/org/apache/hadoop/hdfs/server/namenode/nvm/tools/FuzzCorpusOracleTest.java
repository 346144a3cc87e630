package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.junit.Assert.*;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.hdfs.server.namenode.nvm.ShmDir;
import org.junit.Rule;
import org.junit.Test;

/**
 * The checker as the oracle of the native open ({@link RegionOracle}) over the inputs of make fuzz
 * (native/fuzz/). Each input becomes the 1 MiB region the libFuzzer target opens, written by {@code
 * fuzz_image} (the target's own expansion, fuzz_input.c); both are built by CMake in every build of
 * this module, without clang.
 *
 * <ul>
 *   <li>By default (make test) the seed corpus, written by {@code fuzz_corpus}: real regions made
 *       by the library, a delete's leftovers, and crash images at every barrier of an undo-logged
 *       batch.
 *   <li>With {@code -Dnvm.fuzz.corpus=dir[:dir...]} every file of those directories instead:
 *       scripts/test/fuzz.sh runs this test over the corpus libFuzzer grew.
 * </ul>
 */
public class FuzzCorpusOracleTest {
  /** Inputs expanded per fuzz_image run: at most this many 1 MiB regions on tmpfs at a time. */
  private static final int CHUNK = 64;

  @Rule public ShmDir shm = new ShmDir();

  private static File tool(String name) {
    String dir = System.getProperty("nvm.test.nativebuild");
    assertNotNull(
        "nvm.test.nativebuild (the CMake build directory, set by the module's pom) is not set",
        dir);
    File f = new File(dir, name);
    assertTrue(
        f + " is missing: CMake builds it with the module (native/CMakeLists.txt)", f.canExecute());
    return f;
  }

  private static String run(List<String> cmd) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    byte[] out = readAll(p);
    String text = new String(out, StandardCharsets.UTF_8);
    assertEquals(cmd + ":\n" + text, 0, p.waitFor());
    return text;
  }

  private static byte[] readAll(Process p) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    byte[] buf = new byte[8192];
    for (int n; (n = p.getInputStream().read(buf)) > 0; ) {
      b.write(buf, 0, n);
    }
    return b.toByteArray();
  }

  private List<File> inputs() throws Exception {
    String dirs = System.getProperty("nvm.fuzz.corpus", "");
    List<File> dirList = new ArrayList<File>();
    if (dirs.isEmpty()) {
      File seeds = shm.file("seeds");
      assertTrue(seeds.mkdir());
      run(Arrays.asList(tool("fuzz_corpus").getPath(), seeds.getPath()));
      dirList.add(seeds);
    } else {
      for (String d : dirs.split(File.pathSeparator)) {
        if (!d.isEmpty()) {
          dirList.add(new File(d));
        }
      }
    }
    List<File> files = new ArrayList<File>();
    for (File d : dirList) {
      File[] in = d.listFiles();
      assertNotNull(d + " is not a directory", in);
      Arrays.sort(in);
      for (File f : in) {
        if (f.isFile()) {
          files.add(f);
        }
      }
    }
    assertFalse("no fuzz inputs in " + dirList, files.isEmpty());
    return files;
  }

  @Test
  public void checkerAndNativeOpenAgreeOnEveryCorpusInput() throws Exception {
    List<File> inputs = inputs();
    File images = shm.file("images");
    assertTrue(images.mkdir());
    File copy = shm.file("open-copy");
    RegionOracle oracle = new RegionOracle();
    int skipped = 0;
    for (int from = 0; from < inputs.size(); from += CHUNK) {
      List<File> chunk = inputs.subList(from, Math.min(inputs.size(), from + CHUNK));
      List<String> cmd =
          new ArrayList<String>(Arrays.asList(tool("fuzz_image").getPath(), images.getPath()));
      for (File f : chunk) {
        cmd.add(f.getPath());
      }
      run(cmd);
      for (int k = 0; k < chunk.size(); k++) {
        File region = new File(images, k + ".region");
        if (!region.exists()) { // longer than the fuzz target reads: it skips such inputs too
          skipped++;
          continue;
        }
        oracle.judge(
            region, copy, "fuzz input " + chunk.get(k) + " (as the region fuzz_image wrote)");
        Files.delete(region.toPath());
      }
    }
    System.out.println(
        oracle.summary("fuzz inputs")
            + (skipped > 0 ? "; " + skipped + " skipped (too long)" : ""));
    assertEquals(inputs.size(), oracle.regions + skipped);
  }
}
