package org.nvmnn.it.jar;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import java.io.File;
import java.io.InputStream;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.apache.hadoop.hdfs.server.namenode.NvmHooks;
import org.apache.hadoop.hdfs.server.namenode.nvm.NativeLibrary;
import org.junit.Test;

/**
 * The test class path really holds the drop-in jar instead of the stock one, and that jar is the
 * stock jar plus exactly the intended change: in NameNode.class the bodies of loadNamesystem,
 * createRpcServer, doRollback, doRecovery and startHttpServer, plus the stock copies
 * stockDoRollback, stockDoRecovery and stockStartHttpServer; in SecondaryNameNode.class the body of
 * initialize, plus stockInitialize.
 */
public class PatchedJarTest {
  private static final String STOCK_JAR_NAME = "hadoop-hdfs-2.7.3.jar";
  private static final String NAME_NODE_ENTRY =
      "org/apache/hadoop/hdfs/server/namenode/NameNode.class";

  private static File prop(String name) {
    String v = System.getProperty(name);
    assertNotNull("system property " + name + " (set by surefire)", v);
    File f = new File(v);
    assertTrue(name + " = " + v + " is not a file", f.isFile());
    return f;
  }

  private static File codeSource(Class<?> c) throws Exception {
    return new File(c.getProtectionDomain().getCodeSource().getLocation().toURI())
        .getCanonicalFile();
  }

  /**
   * (a) NameNode and NvmHooks come from the -nvm.jar; no stock hadoop-hdfs jar is on the class
   * path.
   */
  @Test
  public void namenodeAndHooksComeFromTheNvmJarAndTheStockJarIsAbsent() throws Exception {
    File patched = prop("nvm.patched.jar").getCanonicalFile();
    assertTrue(patched.getName(), patched.getName().endsWith("-nvm.jar"));
    assertEquals(patched, codeSource(NameNode.class));
    assertEquals(patched, codeSource(NvmHooks.class));

    List<String> cp =
        Arrays.asList(System.getProperty("java.class.path").split(File.pathSeparator));
    boolean patchedOnPath = false;
    for (String e : cp) {
      File f = new File(e);
      assertFalse("stock jar on java.class.path: " + e, f.getName().equals(STOCK_JAR_NAME));
      patchedOnPath |= f.getCanonicalFile().equals(patched);
    }
    assertTrue("the -nvm.jar is not on java.class.path: " + cp, patchedOnPath);

    // Whatever java.class.path says, exactly one NameNode.class is visible to the class loader.
    List<URL> copies = Collections.list(getClass().getClassLoader().getResources(NAME_NODE_ENTRY));
    assertEquals("copies of NameNode.class on the class path: " + copies, 1, copies.size());
  }

  /**
   * (b) PatchVerifier: every stock entry byte-identical but NameNode.class and
   * SecondaryNameNode.class; in those, only the Code of the five patched methods changed and
   * exactly the three stock copies were added.
   */
  @Test
  public void patchVerifierAcceptsTheJarAgainstTheStockJar() throws Exception {
    File stock = prop("nvm.stock.jar");
    File patched = prop("nvm.patched.jar");
    // asm 9.8 must not meet Hadoop's asm 3.1 on one class path: the verifier gets a loader of its
    // own.
    URL[] urls = {prop("nvm.patcher.jar").toURI().toURL(), prop("nvm.asm.jar").toURI().toURL()};
    try (URLClassLoader loader =
        new URLClassLoader(urls, ClassLoader.getSystemClassLoader().getParent())) {
      Class<?> verifier = loader.loadClass("org.nvmnn.patcher.PatchVerifier");
      Method verify = verifier.getMethod("verify", Path.class, Path.class);
      Object report = verify.invoke(null, Paths.get(stock.getPath()), Paths.get(patched.getPath()));
      System.out.println("PatchVerifier: " + report);

      assertEquals("violations", Collections.emptyList(), field(report, "violations"));
      int stockEntries = (Integer) field(report, "stockEntries");
      assertTrue("stock entries: " + stockEntries, stockEntries > 3000);
      assertEquals(
          "stock entries byte-identical (all but NameNode.class and SecondaryNameNode.class)",
          (Integer) (stockEntries - 2),
          field(report, "identicalStockEntries"));
      List<String> changed = new ArrayList<>((List<String>) field(report, "changedMethods"));
      Collections.sort(changed);
      assertEquals(
          Arrays.asList(
              "NameNode.createRpcServer",
              "NameNode.doRecovery",
              "NameNode.doRollback",
              "NameNode.loadNamesystem",
              "NameNode.startHttpServer",
              "SecondaryNameNode.initialize"),
          changed);
      List<String> addedMethods = new ArrayList<>((List<String>) field(report, "addedMethods"));
      Collections.sort(addedMethods);
      assertEquals(
          Arrays.asList(
              "NameNode.stockDoRecovery",
              "NameNode.stockDoRollback",
              "NameNode.stockStartHttpServer",
              "SecondaryNameNode.stockInitialize"),
          addedMethods);
      List<?> added = (List<?>) field(report, "addedEntries");
      for (String e :
          new String[] {
            "org/apache/hadoop/hdfs/server/namenode/NvmHooks.class",
            "org/apache/hadoop/hdfs/server/namenode/NvmRpcServer.class"
          }) {
        assertTrue(e + " not added: " + added, added.contains(e));
      }
    }
  }

  /**
   * (b') The stock copies the hooks call by reflection (NvmHooks via StockMethod) are there, with
   * the parameter types the hooks look them up with: package-private, synthetic, static as the
   * stock method.
   */
  @Test
  public void stockCopiesAreDeclaredAsTheHooksExpect() throws Exception {
    ClassLoader cl = getClass().getClassLoader();
    String pkg = "org.apache.hadoop.hdfs.server.namenode.";
    Class<?> conf = Class.forName("org.apache.hadoop.conf.Configuration", false, cl);
    Class<?> startupOption =
        Class.forName(
            "org.apache.hadoop.hdfs.server.common.HdfsServerConstants$StartupOption", false, cl);
    Class<?> snn = Class.forName(pkg + "SecondaryNameNode", false, cl);
    Class<?> opts = Class.forName(pkg + "SecondaryNameNode$CommandLineOpts", false, cl);
    assertEquals(codeSource(NameNode.class), codeSource(snn));
    assertStockCopy(NameNode.class.getDeclaredMethod("stockDoRollback", conf, boolean.class), true);
    assertStockCopy(NameNode.class.getDeclaredMethod("stockDoRecovery", startupOption, conf), true);
    assertStockCopy(NameNode.class.getDeclaredMethod("stockStartHttpServer", conf), false);
    assertStockCopy(snn.getDeclaredMethod("stockInitialize", conf, opts), false);
  }

  private static void assertStockCopy(Method m, boolean isStatic) {
    int mod = m.getModifiers();
    assertTrue(m + " is not synthetic", m.isSynthetic());
    assertEquals(m.toString(), isStatic, Modifier.isStatic(mod));
    assertFalse(
        m + " is not package-private",
        Modifier.isPublic(mod) || Modifier.isPrivate(mod) || Modifier.isProtected(mod));
  }

  @SuppressWarnings("unchecked")
  private static <T> T field(Object o, String name) throws Exception {
    Field f = o.getClass().getField(name);
    return (T) f.get(o);
  }

  /** (c) The jar carries the native library and hdfs-nvm-default.xml. */
  @Test
  public void jarContainsNativeLibraryAndDefaultsFile() throws Exception {
    try (ZipFile jar = new ZipFile(prop("nvm.patched.jar"))) {
      ZipEntry so = jar.getEntry("native/Linux-amd64/libhdfsnvm.so");
      assertNotNull("native/Linux-amd64/libhdfsnvm.so missing", so);
      byte[] magic = new byte[4];
      try (InputStream in = jar.getInputStream(so)) {
        assertEquals(4, in.read(magic));
      }
      assertTrue(
          "libhdfsnvm.so is not an ELF file",
          magic[0] == 0x7f && magic[1] == 'E' && magic[2] == 'L' && magic[3] == 'F');
      ZipEntry xml = jar.getEntry("hdfs-nvm-default.xml");
      assertNotNull("hdfs-nvm-default.xml missing", xml);
      assertTrue(xml.getSize() > 0);
    }
  }

  /** The bundled library loads from the jar alone: java.library.path does not provide it here. */
  @Test
  public void bundledNativeLibraryLoadsFromTheJar() {
    String libPath = System.getProperty("java.library.path", "");
    for (String d : libPath.split(File.pathSeparator)) {
      assertFalse(
          "libhdfsnvm.so is on java.library.path (" + d + "); this test must load it from the jar",
          new File(d, "libhdfsnvm.so").exists());
    }
    assertNull(NativeLibrary.failureReason());
    assertTrue(NativeLibrary.isAvailable());
  }
}
