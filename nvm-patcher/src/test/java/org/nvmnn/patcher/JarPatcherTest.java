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
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.BeforeClass;
import org.junit.Test;

/** Patches the real hadoop-hdfs-2.7.3.jar and checks the result independently of the verifier. */
public class JarPatcherTest {

  static Path stock;
  static Path hooks;
  static Path resources;
  static Path patched;
  static JarPatcher.Summary summary;

  @BeforeClass
  public static void patchOnce() throws IOException {
    stock = TestSupport.stockJar();
    hooks = TestSupport.hooksDir("hooks");
    resources = TestSupport.resourcesDir("resources");
    patched = TestSupport.freshDir("out").resolve("hadoop-hdfs-2.7.3-nvm.jar");
    summary = JarPatcher.patch(stock, Arrays.asList(hooks, resources), patched);
    System.out.println(summary);
  }

  static Map<String, byte[]> entries(Path jar) throws IOException {
    Map<String, byte[]> m = new LinkedHashMap<>();
    try (ZipFile z = new ZipFile(jar.toFile())) {
      for (Enumeration<? extends ZipEntry> en = z.entries(); en.hasMoreElements(); ) {
        ZipEntry e = en.nextElement();
        assertEquals(
            "duplicate " + e.getName(),
            null,
            m.put(e.getName(), JarPatcher.readAll(z.getInputStream(e))));
      }
    }
    return m;
  }

  @Test
  public void verifierPassesOnTheRealJar() throws IOException {
    PatchVerifier.Report r = PatchVerifier.verify(stock, patched);
    assertTrue(r.toString(), r.ok());
    assertEquals(3408, r.stockEntries);
    assertEquals(3407, r.identicalStockEntries);
    assertEquals(94, r.methods);
    List<String> changed = new ArrayList<>(r.changedMethods);
    Collections.sort(changed);
    assertEquals(Arrays.asList(CREATE_RPC_SERVER, LOAD_NAMESYSTEM), changed);
    assertEquals(8, r.constantPoolAdded);
    assertEquals(
        Arrays.asList(
            HOOKS_ENTRY,
            "hdfs-nvm-default.xml",
            "native/",
            "native/Linux-amd64/",
            "native/Linux-amd64/libnvmnn.so"),
        r.addedEntries);
  }

  @Test
  public void verifierMainAcceptsTheRealJar() throws IOException {
    PatchVerifier.main(new String[] {stock.toString(), patched.toString()});
  }

  @Test
  public void spliceAppendsEightConstantsAndReplacesTwoCodeAttributes() {
    ClassFileSplicer.Result s = summary.splice;
    assertEquals(51, s.majorVersion);
    assertEquals(1716, s.oldConstantPoolCount); // constant_pool_count: #1..#1715
    assertEquals(1724, s.newConstantPoolCount); // #1716..#1723 appended
    assertEquals(8, s.appendedConstants.size());
    assertEquals(6 + 22, s.newLoadNamesystemCodeLength); // 10 code bytes
    assertEquals(6 + 18, s.newCreateRpcServerCodeLength); // 6 code bytes
  }

  @Test
  public void stockEntriesAreByteIdenticalAndInStockOrder() throws IOException {
    Map<String, byte[]> s = entries(stock), p = entries(patched);
    List<String> sn = new ArrayList<>(s.keySet()), pn = new ArrayList<>(p.keySet());
    assertEquals(sn, pn.subList(0, sn.size()));
    int identical = 0;
    for (String n : sn) {
      if (n.equals(NAME_NODE_ENTRY)) {
        assertFalse(Arrays.equals(s.get(n), p.get(n)));
      } else {
        assertArrayEquals(n, s.get(n), p.get(n));
        identical++;
      }
    }
    assertEquals(sn.size() - 1, identical);
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
  public void onlyTheTwoCodeAttributesDiffer() throws IOException {
    ClassFile s = ClassFile.parse(entries(stock).get(NAME_NODE_ENTRY));
    ClassFile p = ClassFile.parse(entries(patched).get(NAME_NODE_ENTRY));
    assertEquals(94, s.methods.size());
    assertEquals(s.methods.size(), p.methods.size());
    List<String> differing = new ArrayList<>();
    for (int i = 0; i < s.methods.size(); i++) {
      if (!Arrays.equals(s.methods.get(i).raw(), p.methods.get(i).raw())) {
        differing.add(s.methods.get(i).name);
        // within a changed method, only the Code attribute differs
        for (int a = 0; a < s.methods.get(i).attributes.size(); a++) {
          ClassFile.Attribute sa = s.methods.get(i).attributes.get(a);
          ClassFile.Attribute pa = p.methods.get(i).attributes.get(a);
          assertEquals(sa.name, pa.name);
          if (!sa.name.equals("Code")) {
            assertArrayEquals(sa.raw(), pa.raw());
          }
        }
      }
    }
    Collections.sort(differing);
    assertEquals(Arrays.asList(CREATE_RPC_SERVER, LOAD_NAMESYSTEM), differing);
    for (int i = 0; i < s.fields.size(); i++) {
      assertArrayEquals(s.fields.get(i).raw(), p.fields.get(i).raw());
    }
    assertEquals(s.attributes.size(), p.attributes.size());
    for (int i = 0; i < s.attributes.size(); i++) {
      assertArrayEquals(s.attributes.get(i).raw(), p.attributes.get(i).raw());
    }
    assertArrayEquals(s.header(), p.header());
    byte[] scp = s.constantPoolEntries(), pcp = p.constantPoolEntries();
    assertArrayEquals(scp, Arrays.copyOf(pcp, scp.length));
    assertEquals(s.thisClassIndex, p.thisClassIndex);
  }

  @Test
  public void asmSeesExactlyTheExpectedInstructions() throws IOException {
    Map<String, MethodListing.Method> pm = MethodListing.of(entries(patched).get(NAME_NODE_ENTRY));
    Map<String, MethodListing.Method> sm = MethodListing.of(entries(stock).get(NAME_NODE_ENTRY));
    MethodListing.Method load = pm.get(LOAD_NAMESYSTEM + LOAD_NAMESYSTEM_DESC);
    MethodListing.Method rpc = pm.get(CREATE_RPC_SERVER + CREATE_RPC_SERVER_DESC);
    assertEquals(
        Arrays.asList(
            "ALOAD 0",
            "ALOAD 0",
            "ALOAD 1",
            "INVOKESTATIC org/apache/hadoop/hdfs/server/namenode/NvmHooks.loadNamesystem "
                + "(Lorg/apache/hadoop/hdfs/server/namenode/NameNode;Lorg/apache/hadoop/conf/Configuration;)"
                + "Lorg/apache/hadoop/hdfs/server/namenode/FSNamesystem;",
            "PUTFIELD org/apache/hadoop/hdfs/server/namenode/NameNode.namesystem "
                + "Lorg/apache/hadoop/hdfs/server/namenode/FSNamesystem;",
            "RETURN"),
        load.instructions);
    assertEquals(3, load.maxStack);
    assertEquals(2, load.maxLocals);
    assertEquals(
        Arrays.asList(
            "ALOAD 0",
            "ALOAD 1",
            "INVOKESTATIC org/apache/hadoop/hdfs/server/namenode/NvmHooks.createRpcServer "
                + "(Lorg/apache/hadoop/hdfs/server/namenode/NameNode;Lorg/apache/hadoop/conf/Configuration;)"
                + "Lorg/apache/hadoop/hdfs/server/namenode/NameNodeRpcServer;",
            "ARETURN"),
        rpc.instructions);
    assertEquals(2, rpc.maxStack);
    assertEquals(2, rpc.maxLocals);
    for (MethodListing.Method m : Arrays.asList(load, rpc)) {
      assertEquals(m.toString(), 0, m.tryCatchBlocks + m.frames + m.lineNumbers + m.localVariables);
    }
    // the stock bodies were what we expected, and every other method decodes identically
    assertEquals(
        Arrays.asList(
            "ALOAD 0",
            "ALOAD 1",
            "INVOKESTATIC " + FS_NAMESYSTEM + ".loadFromDisk " + LOAD_FROM_DISK_DESC,
            "PUTFIELD " + NAME_NODE + ".namesystem " + NAMESYSTEM_FIELD_DESC,
            "RETURN"),
        sm.get(LOAD_NAMESYSTEM + LOAD_NAMESYSTEM_DESC).instructions);
    assertEquals(
        Arrays.asList(
            "NEW " + RPC_SERVER,
            "DUP",
            "ALOAD 1",
            "ALOAD 0",
            "INVOKESPECIAL " + RPC_SERVER + ".<init> " + RPC_SERVER_INIT_DESC,
            "ARETURN"),
        sm.get(CREATE_RPC_SERVER + CREATE_RPC_SERVER_DESC).instructions);
    assertEquals(sm.keySet(), pm.keySet());
    for (String k : sm.keySet()) {
      if (!k.equals(LOAD_NAMESYSTEM + LOAD_NAMESYSTEM_DESC)
          && !k.equals(CREATE_RPC_SERVER + CREATE_RPC_SERVER_DESC)) {
        assertEquals(k, sm.get(k).toString(), pm.get(k).toString());
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
  public void anAlreadyPatchedJarIsRefused() throws IOException {
    try {
      JarPatcher.patch(
          patched,
          Collections.singletonList(TestSupport.hooksDir("hooks-twice")),
          TestSupport.freshDir("twice").resolve("out.jar"));
      fail("patched twice");
    } catch (PatchException e) {
      assertTrue(
          e.getMessage(),
          e.getMessage().contains("refusing to patch NameNode.loadNamesystem")
              && e.getMessage().contains("patched before"));
    }
  }

  @Test
  public void aDifferentNameNodeBodyIsRefused() throws IOException {
    // a "different Hadoop build": createRpcServer loads its arguments in the other order
    Map<String, byte[]> jar = entries(stock);
    byte[] nn = jar.get(NAME_NODE_ENTRY).clone();
    ClassFile cf = ClassFile.parse(nn);
    ClassFile.Attribute code =
        cf.method(CREATE_RPC_SERVER, CREATE_RPC_SERVER_DESC).attribute("Code");
    int codeStart = code.infoOffset + 8;
    assertEquals(0x2b, nn[codeStart + 4] & 0xFF); // aload_1
    assertEquals(0x2a, nn[codeStart + 5] & 0xFF); // aload_0
    nn[codeStart + 4] = 0x2a;
    nn[codeStart + 5] = 0x2b;
    jar.put(NAME_NODE_ENTRY, nn);
    Path dir = TestSupport.freshDir("other-build");
    Path other = dir.resolve("hadoop-hdfs-other.jar");
    TestSupport.writeJar(other, jar);
    try {
      JarPatcher.patch(other, Collections.singletonList(hooks), dir.resolve("out.jar"));
      fail("unexpected body accepted");
    } catch (PatchException e) {
      assertTrue(
          e.getMessage(),
          e.getMessage().contains("refusing to patch NameNode.createRpcServer")
              && e.getMessage().contains("not the NameNode of Apache Hadoop 2.7.3"));
    }
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
  public void ourMetaInfManifestIsSkipped() {
    assertTrue(JarPatcher.skipped("META-INF/MANIFEST.MF"));
    assertTrue(JarPatcher.skipped("META-INF/FOO.SF"));
    assertFalse(JarPatcher.skipped("META-INF/services/org.example.Service"));
    assertFalse(JarPatcher.skipped("META-INF/maven/x/y/pom.xml"));
    assertFalse(JarPatcher.skipped(HOOKS_ENTRY));
  }
}
