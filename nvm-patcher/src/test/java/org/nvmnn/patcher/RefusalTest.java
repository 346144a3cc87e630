package org.nvmnn.patcher;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;
import static org.nvmnn.patcher.NameNodePatch.*;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Map;
import org.junit.BeforeClass;
import org.junit.Test;

/** Inputs the patcher must refuse: an already-patched jar or class, another Hadoop build. */
public class RefusalTest {

  static Path stock;
  static Path hooks;
  static Path patched;

  @BeforeClass
  public static void setUp() throws IOException {
    stock = TestSupport.stockJar();
    patched = TestSupport.patchedJar();
    hooks = TestSupport.hooksDir("hooks-refusal-test");
  }

  /** Patches {@code input}; expects a refusal whose message contains every {@code expected}. */
  private static void assertRefused(Path input, String... expected) throws IOException {
    Path out = TestSupport.freshDir("refused-out").resolve("out.jar");
    try {
      JarPatcher.patch(input, Collections.singletonList(hooks), out);
      fail("patched " + input);
    } catch (PatchException e) {
      for (String s : expected) {
        assertTrue(e.getMessage(), e.getMessage().contains(s));
      }
    }
    assertFalse(Files.exists(out));
    assertFalse(Files.exists(out.resolveSibling("out.jar.tmp")));
  }

  private static byte[] stockClass(String c) throws IOException {
    return TestSupport.entries(stock).get(entry(c));
  }

  private static byte[] patchedClass(String c) throws IOException {
    return TestSupport.entries(patched).get(entry(c));
  }

  @Test
  public void anAlreadyPatchedJarIsRefused() throws IOException {
    assertRefused(patched, "refusing to patch NameNode.loadNamesystem", "patched before");
  }

  @Test
  public void anAlreadyPatchedSecondaryNameNodeIsRefused() throws IOException {
    Path jar =
        TestSupport.stockJarWith(
            "patched-snn",
            "hadoop-hdfs.jar",
            Collections.singletonMap(SECONDARY_NAME_NODE_ENTRY, patchedClass(SECONDARY_NAME_NODE)));
    assertRefused(
        jar,
        "refusing to patch SecondaryNameNode.initialize" + INITIALIZE_DESC,
        "SecondaryNameNode already has a method " + STOCK_INITIALIZE + INITIALIZE_DESC,
        "patched before");
  }

  @Test
  public void anAlreadyPatchedNameNodeDelegationIsRefused() throws IOException {
    ClassFile nn = ClassFile.parse(patchedClass(NAME_NODE));
    for (RenameAndDelegate d : delegations(NAME_NODE)) {
      try {
        RenameAndDelegateSplice.check(nn, d);
        fail(d.toString());
      } catch (PatchException e) {
        assertTrue(
            e.getMessage(),
            e.getMessage().contains("NameNode already has a method " + d.stockCopyName)
                && e.getMessage().contains("patched before"));
      }
    }
  }

  /** A patched class whose stock copy is gone (renamed) is still refused: the body calls hooks. */
  @Test
  public void aBodyThatAlreadyCallsTheHooksIsRefused() throws IOException {
    byte[] snn =
        TestSupport.renameUtf8(
            patchedClass(SECONDARY_NAME_NODE), STOCK_INITIALIZE, "stockInitializX");
    try {
      ClassFileSplicer.splice(SECONDARY_NAME_NODE, snn);
      fail("re-patched");
    } catch (PatchException e) {
      assertTrue(
          e.getMessage(),
          e.getMessage().contains("refusing to patch SecondaryNameNode.initialize")
              && e.getMessage().contains("its body already calls " + HOOKS)
              && e.getMessage().contains("patched before"));
    }
  }

  @Test
  public void aMissingStockMethodIsRefused() throws IOException {
    Path jar =
        TestSupport.stockJarWith(
            "renamed-nn",
            "hadoop-hdfs.jar",
            Collections.singletonMap(
                NAME_NODE_ENTRY,
                TestSupport.renameUtf8(stockClass(NAME_NODE), DO_RECOVERY, "doRecoverz")));
    assertRefused(
        jar,
        "refusing to patch NameNode.doRecovery" + DO_RECOVERY_DESC,
        "NameNode has no such method",
        "not the NameNode of Apache Hadoop 2.7.3");

    byte[] snn = TestSupport.renameUtf8(stockClass(SECONDARY_NAME_NODE), INITIALIZE, "initializf");
    try {
      ClassFileSplicer.splice(SECONDARY_NAME_NODE, snn);
      fail("patched a SecondaryNameNode without initialize");
    } catch (PatchException e) {
      assertTrue(
          e.getMessage(),
          e.getMessage().contains("SecondaryNameNode has no such method")
              && e.getMessage().contains("not the SecondaryNameNode of Apache Hadoop 2.7.3"));
    }
  }

  @Test
  public void unexpectedAccessFlagsAreRefused() throws IOException {
    byte[] nn = stockClass(NAME_NODE).clone();
    int at = ClassFile.parse(nn).method(DO_ROLLBACK, DO_ROLLBACK_DESC).offset;
    assertEquals(ACC_PUBLIC | ACC_STATIC, nn[at + 1]);
    nn[at + 1] = ACC_PUBLIC; // an instance method
    try {
      ClassFileSplicer.splice(NAME_NODE, nn);
      fail("patched a non-static doRollback");
    } catch (PatchException e) {
      assertTrue(
          e.getMessage(),
          e.getMessage().contains("refusing to patch NameNode.doRollback")
              && e.getMessage().contains("access flags 0x0001, expected 0x0009"));
    }
  }

  @Test
  public void aJarWithoutSecondaryNameNodeIsRefused() throws IOException {
    Map<String, byte[]> jar = TestSupport.entries(stock);
    jar.remove(SECONDARY_NAME_NODE_ENTRY);
    Path dir = TestSupport.freshDir("no-snn");
    Path input = dir.resolve("hadoop-hdfs.jar");
    TestSupport.writeJar(input, jar);
    assertRefused(input, "has no " + SECONDARY_NAME_NODE_ENTRY);
  }

  @Test
  public void onlyThePatchedClassesAreSpliced() throws IOException {
    try {
      ClassFileSplicer.splice(FS_NAMESYSTEM, TestSupport.entries(stock).get(entry(FS_NAMESYSTEM)));
      fail("spliced FSNamesystem");
    } catch (PatchException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("not one of the patched classes"));
    }
    try {
      ClassFileSplicer.splice(SECONDARY_NAME_NODE, stockClass(NAME_NODE));
      fail("spliced NameNode as SecondaryNameNode");
    } catch (PatchException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("expected " + SECONDARY_NAME_NODE));
    }
  }

  @Test
  public void aDifferentNameNodeBodyIsRefused() throws IOException {
    // a "different Hadoop build": createRpcServer loads its arguments in the other order
    byte[] nn = stockClass(NAME_NODE).clone();
    ClassFile cf = ClassFile.parse(nn);
    ClassFile.Attribute code =
        cf.method(CREATE_RPC_SERVER, CREATE_RPC_SERVER_DESC).attribute("Code");
    int codeStart = code.infoOffset + 8;
    assertEquals(0x2b, nn[codeStart + 4] & 0xFF); // aload_1
    assertEquals(0x2a, nn[codeStart + 5] & 0xFF); // aload_0
    nn[codeStart + 4] = 0x2a;
    nn[codeStart + 5] = 0x2b;
    Path jar =
        TestSupport.stockJarWith(
            "other-build", "hadoop-hdfs-other.jar", Collections.singletonMap(NAME_NODE_ENTRY, nn));
    assertRefused(
        jar,
        "refusing to patch NameNode.createRpcServer",
        "not the NameNode of Apache Hadoop 2.7.3");
  }
}
