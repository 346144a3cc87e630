package org.nvmnn.patcher;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;
import static org.nvmnn.patcher.NameNodePatch.*;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipFile;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * Patches the real hadoop-hdfs-2.7.3.jar and checks the jar as a whole (entries, order, inputs,
 * determinism) and that the verifier accepts it and catches tampering. The class-level checks are
 * in {@link ClassFileSplicerTest}, the refusals in {@link RefusalTest}.
 */
public class JarPatcherTest {

  static Path stock;
  static Path hooks;
  static Path patched;

  @BeforeClass
  public static void patchOnce() throws IOException {
    stock = TestSupport.stockJar();
    patched = TestSupport.patchedJar();
    hooks = TestSupport.hooksDir("hooks-jar-test");
  }

  static Map<String, byte[]> entries(Path jar) throws IOException {
    return TestSupport.entries(jar);
  }

  static List<String> sorted(List<String> l) {
    List<String> s = new ArrayList<>(l);
    Collections.sort(s);
    return s;
  }

  @Test
  public void verifierPassesOnTheRealJar() throws IOException {
    PatchVerifier.Report r = PatchVerifier.verify(stock, patched);
    assertTrue(r.toString(), r.ok());
    assertEquals(3408, r.stockEntries);
    assertEquals(3406, r.identicalStockEntries); // all but NameNode.class, SecondaryNameNode.class
    assertEquals(
        Arrays.asList(
            "NameNode." + CREATE_RPC_SERVER,
            "NameNode." + DO_RECOVERY,
            "NameNode." + DO_ROLLBACK,
            "NameNode." + LOAD_NAMESYSTEM,
            "NameNode." + START_HTTP_SERVER,
            "SecondaryNameNode." + INITIALIZE),
        sorted(r.changedMethods));
    assertEquals(
        Arrays.asList(
            "NameNode." + STOCK_DO_ROLLBACK,
            "NameNode." + STOCK_DO_RECOVERY,
            "NameNode." + STOCK_START_HTTP_SERVER,
            "SecondaryNameNode." + STOCK_INITIALIZE),
        r.addedMethods);

    PatchVerifier.ClassReport nn = r.classReport(NAME_NODE);
    assertEquals(94, nn.methods);
    assertEquals(
        sorted(
            Arrays.asList(
                LOAD_NAMESYSTEM, CREATE_RPC_SERVER, DO_ROLLBACK, DO_RECOVERY, START_HTTP_SERVER)),
        sorted(nn.changedMethods));
    assertEquals(
        Arrays.asList(STOCK_DO_ROLLBACK, STOCK_DO_RECOVERY, STOCK_START_HTTP_SERVER),
        nn.addedMethods);
    // 8 for the replaced bodies; per delegation NameAndType + Methodref + the copy's name (the
    // hook's name and descriptor are in the stock pool already)
    assertEquals(8 + 3 + 3 + 3, nn.constantPoolAdded);

    PatchVerifier.ClassReport snn = r.classReport(SECONDARY_NAME_NODE);
    assertEquals(Collections.singletonList(INITIALIZE), snn.changedMethods);
    assertEquals(Collections.singletonList(STOCK_INITIALIZE), snn.addedMethods);
    // NvmHooks Utf8 + Class; hook name, hook descriptor, NameAndType, Methodref; the copy's name
    assertEquals(2 + 4 + 1, snn.constantPoolAdded);

    assertEquals(
        Arrays.asList(
            HOOKS_ENTRY,
            "hdfs-nvm-default.xml",
            "native/",
            "native/Linux-amd64/",
            "native/Linux-amd64/libnvmnn.so"),
        r.addedEntries);
    assertTrue(r.toString(), r.toString().contains("NameNode.class: 5 of 94 methods changed"));
    assertTrue(r.toString(), r.toString().contains("SecondaryNameNode.class: 1 of "));
  }

  @Test
  public void verifierMainAcceptsTheRealJar() throws IOException {
    PatchVerifier.main(new String[] {stock.toString(), patched.toString()});
  }

  @Test
  public void stockEntriesAreByteIdenticalAndInStockOrder() throws IOException {
    Map<String, byte[]> s = entries(stock), p = entries(patched);
    List<String> sn = new ArrayList<>(s.keySet()), pn = new ArrayList<>(p.keySet());
    assertEquals(sn, pn.subList(0, sn.size()));
    int identical = 0;
    List<String> changed = new ArrayList<>();
    for (String n : sn) {
      if (Arrays.equals(s.get(n), p.get(n))) {
        identical++;
      } else {
        changed.add(n);
      }
    }
    assertEquals(Arrays.asList(NAME_NODE_ENTRY, SECONDARY_NAME_NODE_ENTRY), changed);
    assertEquals(sn.size() - 2, identical);
    assertArrayEquals(s.get("META-INF/MANIFEST.MF"), p.get("META-INF/MANIFEST.MF"));
    // stock entries keep their stock timestamps
    try (ZipFile zs = new ZipFile(stock.toFile());
        ZipFile zp = new ZipFile(patched.toFile())) {
      for (String n : sn) {
        assertEquals(n, zs.getEntry(n).getTime(), zp.getEntry(n).getTime());
      }
    }
  }

  @Test
  public void outputIsDeterministic() throws IOException {
    Path again = TestSupport.freshDir("out-again").resolve("hadoop-hdfs-2.7.3-nvm.jar");
    // fresh copies of the inputs (new file times) must not matter
    Path hooks2 = TestSupport.hooksDir("hooks-again");
    Path resources2 = TestSupport.resourcesDir("resources-again");
    JarPatcher.patch(stock, Arrays.asList(hooks2, resources2), again);
    assertArrayEquals(Files.readAllBytes(patched), Files.readAllBytes(again));
  }

  @Test
  public void oursMayComeFromAJar() throws IOException {
    Map<String, byte[]> ours = new LinkedHashMap<>();
    ours.put("META-INF/MANIFEST.MF", "Manifest-Version: 1.0\r\n\r\n".getBytes("UTF-8"));
    ours.put("org/", new byte[0]);
    ours.put(HOOKS_ENTRY, TestSupport.placeholderHooks());
    Path dir = TestSupport.freshDir("from-jar");
    Path oursJar = dir.resolve("hooks.jar");
    TestSupport.writeJar(oursJar, ours);
    JarPatcher.Summary s =
        JarPatcher.patch(stock, Collections.singletonList(oursJar), dir.resolve("out.jar"));
    assertEquals(Collections.singletonList(HOOKS_ENTRY), s.report.addedEntries);
  }

  @Test
  public void shadowingAStockEntryIsRefused() throws IOException {
    Path d = TestSupport.hooksDir("shadow");
    TestSupport.write(d.resolve(PKG + "FSNamesystem.class"), TestSupport.placeholderHooks());
    Path out = TestSupport.freshDir("shadow-out").resolve("out.jar");
    try {
      JarPatcher.patch(stock, Collections.singletonList(d), out);
      fail("shadowing accepted");
    } catch (PatchException e) {
      assertTrue(
          e.getMessage(),
          e.getMessage().contains("would shadow the stock entry")
              && e.getMessage().contains(PKG + "FSNamesystem.class"));
    }
    assertFalse(Files.exists(out));
    assertFalse(Files.exists(out.resolveSibling("out.jar.tmp")));
  }

  @Test
  public void duplicateAmongOurInputsIsRefused() throws IOException {
    Path a = TestSupport.resourcesDir("dup-a");
    Path b = TestSupport.resourcesDir("dup-b");
    try {
      JarPatcher.patch(
          stock, Arrays.asList(hooks, a, b), TestSupport.freshDir("dup-out").resolve("out.jar"));
      fail("duplicate accepted");
    } catch (PatchException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("appears twice"));
    }
  }

  @Test
  public void missingHooksClassIsRefused() throws IOException {
    Path empty = TestSupport.freshDir("no-hooks");
    Path out = TestSupport.freshDir("no-hooks-out").resolve("out.jar");
    try {
      JarPatcher.patch(stock, Collections.singletonList(empty), out);
      fail("patched jar without NvmHooks accepted");
    } catch (PatchException e) {
      assertTrue(e.getMessage(), e.getMessage().contains(HOOKS_ENTRY));
    }
    assertFalse(Files.exists(out));
  }

  @Test
  public void hooksClassWithoutTheDelegationHooksIsRefused() throws IOException {
    Path d = TestSupport.freshDir("old-hooks");
    TestSupport.write(d.resolve(HOOKS_ENTRY), TestSupport.placeholderHooks(false));
    Path out = TestSupport.freshDir("old-hooks-out").resolve("out.jar");
    try {
      JarPatcher.patch(stock, Collections.singletonList(d), out);
      fail("NvmHooks without the delegation hooks accepted");
    } catch (PatchException e) {
      for (RenameAndDelegate h : DELEGATIONS) {
        assertTrue(
            e.getMessage(),
            e.getMessage().contains(HOOKS + " has no method " + h.hookName + h.hookDescriptor));
      }
    }
    assertFalse(Files.exists(out));
  }

  @Test
  public void verifierCatchesAnyOtherChange() throws IOException {
    Map<String, byte[]> jar = entries(patched);
    // 1. a third method's Code attribute changed (max_stack of startCommonServices + 1)
    byte[] nn = jar.get(NAME_NODE_ENTRY).clone();
    ClassFile cf = ClassFile.parse(nn);
    ClassFile.Member victim = null;
    for (ClassFile.Member m : cf.methods) {
      if (m.name.equals("startCommonServices")) {
        victim = m;
      }
    }
    int at = victim.attribute("Code").infoOffset + 1;
    nn[at]++;
    jar.put(NAME_NODE_ENTRY, nn);
    // 2. a stock entry changed
    String other = PKG + "FSNamesystem.class";
    byte[] fs = jar.get(other).clone();
    fs[fs.length - 1] ^= 1;
    jar.put(other, fs);
    Path bad = TestSupport.freshDir("tampered").resolve("tampered.jar");
    TestSupport.writeJar(bad, jar);
    PatchVerifier.Report r = PatchVerifier.verify(stock, bad);
    assertFalse(r.ok());
    String all = String.join("\n", r.violations);
    assertTrue(
        all,
        all.contains(
            "NameNode.startCommonServices(Lorg/apache/hadoop/conf/Configuration;)V changed"));
    assertTrue(all, all.contains("stock entry " + other + " differs"));
    assertEquals(all, 2, r.violations.size());
    try {
      r.assertOk();
      fail();
    } catch (PatchException expected) {
      // fine
    }
    // and the untampered stock jar is not a patched jar
    PatchVerifier.Report unpatched = PatchVerifier.verify(stock, stock);
    assertFalse(unpatched.ok());
    assertNotEquals(0, unpatched.violations.size());
  }

  @Test
  public void verifierCatchesATamperedStockCopy() throws IOException {
    Map<String, byte[]> jar = entries(patched);
    // SecondaryNameNode.stockInitialize: max_stack + 1
    byte[] snn = jar.get(SECONDARY_NAME_NODE_ENTRY).clone();
    ClassFile cf = ClassFile.parse(snn);
    snn[cf.method(STOCK_INITIALIZE, INITIALIZE_DESC).attribute("Code").infoOffset + 1]++;
    jar.put(SECONDARY_NAME_NODE_ENTRY, snn);
    // NameNode.stockDoRollback: public instead of package-private
    byte[] nn = jar.get(NAME_NODE_ENTRY).clone();
    int flags = ClassFile.parse(nn).method(STOCK_DO_ROLLBACK, DO_ROLLBACK_DESC).offset;
    assertEquals(ACC_SYNTHETIC | ACC_STATIC, ((nn[flags] & 0xFF) << 8) | (nn[flags + 1] & 0xFF));
    nn[flags + 1] |= ACC_PUBLIC;
    jar.put(NAME_NODE_ENTRY, nn);
    Path bad = TestSupport.freshDir("tampered-copy").resolve("tampered.jar");
    TestSupport.writeJar(bad, jar);
    PatchVerifier.Report r = PatchVerifier.verify(stock, bad);
    String all = String.join("\n", r.violations);
    assertTrue(
        all,
        all.contains(
            "SecondaryNameNode.stockInitialize"
                + INITIALIZE_DESC
                + ": its attributes are not byte-identical to those of the stock initialize"));
    assertTrue(
        all, all.contains("SecondaryNameNode.stockInitialize" + INITIALIZE_DESC + " as decoded"));
    assertTrue(
        all,
        all.contains(
            "NameNode.stockDoRollback"
                + DO_ROLLBACK_DESC
                + ": access flags 0x1009, expected 0x1008"));
    assertEquals(
        all,
        Arrays.asList("NameNode.stockDoRecovery", "NameNode.stockStartHttpServer"),
        r.addedMethods);
  }

  @Test
  public void ourMetaInfManifestIsSkipped() {
    assertTrue(JarPatcher.skipped("META-INF/MANIFEST.MF"));
    assertTrue(JarPatcher.skipped("META-INF/FOO.SF"));
    assertFalse(JarPatcher.skipped("META-INF/services/org.example.Service"));
    assertFalse(JarPatcher.skipped("META-INF/maven/x/y/pom.xml"));
    assertFalse(JarPatcher.skipped(HOOKS_ENTRY));
  }
}
