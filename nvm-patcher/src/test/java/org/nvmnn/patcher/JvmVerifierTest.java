package org.nvmnn.patcher;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assume.assumeTrue;
import static org.nvmnn.patcher.NameNodePatch.*;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.zip.ZipFile;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * Loads the patched NameNode and SecondaryNameNode (with the added stock copies) in a child JVM
 * (JDK 17 verifies every class not loaded by the boot loader by default), with Hadoop's runtime
 * classpath resolved by a separate Maven run of src/test/hadoop-runtime/pom.xml so that Hadoop
 * never enters this module's own classpath. Skipped (Assume) when that classpath cannot be
 * resolved.
 */
public class JvmVerifierTest {

  static final String NAME_NODE_CLASS = NAME_NODE.replace('/', '.');
  static final String SECONDARY_NAME_NODE_CLASS = SECONDARY_NAME_NODE.replace('/', '.');
  static final String HOOKS_CLASS = HOOKS.replace('/', '.');

  static Path dir;
  static Path patched;
  static String hadoopClasspath;

  @BeforeClass
  public static void setUp() throws Exception {
    dir = TestSupport.freshDir("jvm-verifier");
    patched = dir.resolve("hadoop-hdfs-2.7.3-nvm.jar");
    JarPatcher.patch(
        TestSupport.stockJar(),
        Collections.singletonList(TestSupport.hooksDir("jvm-hooks")),
        patched);
    hadoopClasspath = hadoopRuntimeClasspath();
  }

  /** Hadoop 2.7.3's runtime classpath without the stock hadoop-hdfs jar, cached in target/. */
  static String hadoopRuntimeClasspath() throws Exception {
    Path cache =
        Paths.get(System.getProperty("nvm.test.dir", "target/patcher-tests"))
            .resolveSibling("hadoop-runtime.classpath")
            .toAbsolutePath();
    if (!Files.isRegularFile(cache)) {
      String mavenHome = System.getProperty("nvm.maven.home");
      String pom = System.getProperty("nvm.hadoop.runtime.pom");
      assumeTrue(
          "nvm.maven.home / nvm.hadoop.runtime.pom not set (not run by surefire?): skipping",
          mavenHome != null && pom != null);
      Path mvn = Paths.get(mavenHome, "bin", "mvn");
      assumeTrue("no mvn at " + mvn + ": skipping", Files.isExecutable(mvn));
      List<String> cmd = new ArrayList<>(Arrays.asList(mvn.toString(), "-B", "-q", "-f", pom));
      if ("offline=true".equals(System.getProperty("nvm.maven.offline"))) {
        cmd.add("-o");
      }
      String repo = System.getProperty("nvm.maven.repo.local");
      if (repo != null && !repo.startsWith("${")) {
        cmd.add("-Dmaven.repo.local=" + repo);
      }
      String hv = System.getProperty("nvm.hadoop.version");
      if (hv != null && !hv.startsWith("${")) {
        cmd.add("-Dhadoop.version=" + hv);
      }
      Path tmp = cache.resolveSibling("hadoop-runtime.classpath.tmp");
      cmd.addAll(
          Arrays.asList(
              "org.apache.maven.plugins:maven-dependency-plugin:3.6.1:build-classpath",
              "-DincludeScope=runtime",
              "-DexcludeArtifactIds=hadoop-hdfs",
              "-Dmdep.outputFile=" + tmp));
      Path log = cache.resolveSibling("hadoop-runtime.classpath.log");
      Process p =
          new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
      boolean finished = p.waitFor(300, TimeUnit.SECONDS);
      if (!finished) {
        p.destroyForcibly();
      }
      assumeTrue(
          "could not resolve Hadoop's runtime classpath with "
              + cmd
              + " (see "
              + log
              + "): skipping",
          finished && p.exitValue() == 0 && Files.isRegularFile(tmp));
      Files.move(tmp, cache);
    }
    String cp = new String(Files.readAllBytes(cache), StandardCharsets.UTF_8).trim();
    assertTrue(
        "unexpected classpath: " + cp,
        cp.contains("hadoop-common-") && !cp.contains("hadoop-hdfs-2"));
    return cp;
  }

  static final class Result {
    int exit;
    String output;
  }

  static Result runChild(String tag, String firstClasspathEntry, String... classes)
      throws Exception {
    List<String> cp = new ArrayList<>();
    if (firstClasspathEntry != null) {
      cp.add(firstClasspathEntry);
    }
    cp.add(patched.toString());
    cp.add(
        Paths.get(LoadClass.class.getProtectionDomain().getCodeSource().getLocation().toURI())
            .toString());
    cp.add(hadoopClasspath);
    List<String> cmd =
        new ArrayList<>(
            Arrays.asList(
                Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xlog:verification=info:file=" + dir.resolve(tag + "-verification.log"),
                "-Dhadoop.log.dir=" + dir,
                "-cp",
                String.join(File.pathSeparator, cp),
                LoadClass.class.getName()));
    cmd.addAll(Arrays.asList(classes));
    Path out = dir.resolve(tag + "-child.out");
    Process p =
        new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile()).start();
    assertTrue("child JVM timed out", p.waitFor(120, TimeUnit.SECONDS));
    Result r = new Result();
    r.exit = p.exitValue();
    r.output = new String(Files.readAllBytes(out), StandardCharsets.UTF_8);
    return r;
  }

  @Test
  public void patchedClassesPassTheJvmVerifier() throws Exception {
    Result r = runChild("patched", null, NAME_NODE_CLASS, SECONDARY_NAME_NODE_CLASS, HOOKS_CLASS);
    assertEquals(r.output, 0, r.exit);
    String where = patched.toUri().toURL().toString();
    String vlog =
        new String(
            Files.readAllBytes(dir.resolve("patched-verification.log")), StandardCharsets.UTF_8);
    for (String c : Arrays.asList(NAME_NODE_CLASS, SECONDARY_NAME_NODE_CLASS, HOOKS_CLASS)) {
      assertTrue(r.output, r.output.contains("LOADED " + c + " FROM " + where));
      // the type-checking verifier (StackMapTable), which the stock copies' frames must satisfy
      assertTrue(
          c + " was not verified", vlog.contains("Verifying class " + c + " with new format"));
      assertTrue(c + " did not pass", vlog.contains("End class verification for: " + c));
    }
    // the stock copies as reflection sees them: package-private, synthetic, static as before
    assertTrue(
        r.output,
        r.output.contains("METHOD " + NAME_NODE_CLASS + ".stockDoRollback 0x1008 synthetic"));
    assertTrue(
        r.output,
        r.output.contains("METHOD " + NAME_NODE_CLASS + ".stockDoRecovery 0x1008 synthetic"));
    assertTrue(
        r.output,
        r.output.contains(
            "METHOD " + SECONDARY_NAME_NODE_CLASS + ".stockInitialize 0x1000 synthetic"));
  }

  /**
   * Negative control: the verifier is really active on this class (max_stack of loadNamesystem ->
   * 1).
   */
  @Test
  public void aBrokenBodyIsRejectedByTheJvmVerifier() throws Exception {
    byte[] nn;
    try (ZipFile z = new ZipFile(patched.toFile())) {
      nn = JarPatcher.readAll(z.getInputStream(z.getEntry(NAME_NODE_ENTRY)));
    }
    ClassFile cf = ClassFile.parse(nn);
    int at = cf.method(LOAD_NAMESYSTEM, LOAD_NAMESYSTEM_DESC).attribute("Code").infoOffset;
    assertEquals(3, ((nn[at] & 0xFF) << 8) | (nn[at + 1] & 0xFF));
    nn[at + 1] = 1;
    Path broken = dir.resolve("broken");
    TestSupport.write(broken.resolve(NAME_NODE_ENTRY), nn);
    Result r = runChild("broken", broken.toString(), NAME_NODE_CLASS);
    assertNotEquals(r.output, 0, r.exit);
    assertTrue(
        r.output,
        r.output.contains("java.lang.VerifyError") && r.output.contains("loadNamesystem"));
  }

  /**
   * Negative control for the stock copies: the JVM really verifies them too (max_stack of
   * SecondaryNameNode.stockInitialize -> 1, below what its own instructions use).
   */
  @Test
  public void aBrokenStockCopyIsRejectedByTheJvmVerifier() throws Exception {
    byte[] snn;
    try (ZipFile z = new ZipFile(patched.toFile())) {
      snn = JarPatcher.readAll(z.getInputStream(z.getEntry(SECONDARY_NAME_NODE_ENTRY)));
    }
    ClassFile cf = ClassFile.parse(snn);
    int at = cf.method(STOCK_INITIALIZE, INITIALIZE_DESC).attribute("Code").infoOffset;
    assertEquals(6, ((snn[at] & 0xFF) << 8) | (snn[at + 1] & 0xFF)); // stock max_stack
    snn[at + 1] = 1;
    Path broken = dir.resolve("broken-copy");
    TestSupport.write(broken.resolve(SECONDARY_NAME_NODE_ENTRY), snn);
    Result r = runChild("broken-copy", broken.toString(), SECONDARY_NAME_NODE_CLASS);
    assertNotEquals(r.output, 0, r.exit);
    assertTrue(
        r.output,
        r.output.contains("java.lang.VerifyError") && r.output.contains(STOCK_INITIALIZE));
  }
}
