package org.nvmnn.patcher;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;
import static org.nvmnn.patcher.NameNodePatch.*;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * The two patched classes of the real jar, member by member and as ASM decodes them, checked
 * independently of the verifier.
 */
public class ClassFileSplicerTest {

  static Path stock;
  static Path patched;
  static JarPatcher.Summary summary;

  @BeforeClass
  public static void patchOnce() throws IOException {
    stock = TestSupport.stockJar();
    patched = TestSupport.patchedJar();
    summary = TestSupport.summary();
  }

  static String hex(byte[] b) {
    StringBuilder s = new StringBuilder();
    for (byte x : b) {
      s.append(String.format("%02x", x & 0xFF));
    }
    return s.toString();
  }

  @Test
  public void spliceSummaries() {
    assertEquals(2, summary.splices.size());
    ClassFileSplicer.Result nn = summary.splice(NAME_NODE);
    assertEquals(51, nn.majorVersion);
    assertEquals(1716, nn.oldConstantPoolCount); // constant_pool_count: #1..#1715
    assertEquals(1733, nn.newConstantPoolCount); // #1716..#1732 appended
    assertEquals(17, nn.appendedConstants.size());
    // the entries of the replaced bodies come first, exactly as before the delegations existed
    assertEquals("#1716 Utf8 " + HOOKS, nn.appendedConstants.get(0));
    assertEquals("#1717 Class " + HOOKS, nn.appendedConstants.get(1));
    assertEquals("#1720 Methodref " + HOOKS + "." + LOAD_NAMESYSTEM, nn.appendedConstants.get(4));
    assertEquals("#1723 Methodref " + HOOKS + "." + CREATE_RPC_SERVER, nn.appendedConstants.get(7));
    assertEquals(
        Arrays.asList(
            "#1724 NameAndType " + DO_ROLLBACK + ":" + DO_ROLLBACK_DESC,
            "#1725 Methodref " + HOOKS + "." + DO_ROLLBACK,
            "#1726 Utf8 " + STOCK_DO_ROLLBACK,
            "#1727 NameAndType " + DO_RECOVERY + ":" + DO_RECOVERY_DESC,
            "#1728 Methodref " + HOOKS + "." + DO_RECOVERY,
            "#1729 Utf8 " + STOCK_DO_RECOVERY,
            "#1730 NameAndType " + START_HTTP_SERVER + ":" + HOOK_START_HTTP_SERVER_DESC,
            "#1731 Methodref " + HOOKS + "." + START_HTTP_SERVER,
            "#1732 Utf8 " + STOCK_START_HTTP_SERVER),
        nn.appendedConstants.subList(8, 17));
    assertEquals(6 + 22, nn.codeChange(LOAD_NAMESYSTEM).newCodeLength); // 10 code bytes
    assertEquals(6 + 18, nn.codeChange(CREATE_RPC_SERVER).newCodeLength); // 6 code bytes
    assertEquals(6 + 18, nn.codeChange(DO_ROLLBACK).newCodeLength); // 6 code bytes
    assertEquals(6 + 18, nn.codeChange(DO_RECOVERY).newCodeLength); // 6 code bytes
    assertEquals(6 + 18, nn.codeChange(START_HTTP_SERVER).newCodeLength); // 6 code bytes
    assertEquals(STOCK_START_HTTP_SERVER, nn.codeChange(START_HTTP_SERVER).stockCopy);
    assertNull(nn.codeChange(LOAD_NAMESYSTEM).stockCopy);
    assertEquals(STOCK_DO_ROLLBACK, nn.codeChange(DO_ROLLBACK).stockCopy);
    assertEquals(94, nn.oldMethodCount);
    assertEquals(97, nn.newMethodCount);

    ClassFileSplicer.Result snn = summary.splice(SECONDARY_NAME_NODE);
    assertEquals(51, snn.majorVersion);
    assertEquals(7, snn.appendedConstants.size());
    assertEquals(snn.oldConstantPoolCount + 7, snn.newConstantPoolCount);
    assertEquals(1, snn.codeChanges.size());
    assertEquals(6 + 19, snn.codeChange(INITIALIZE).newCodeLength); // 7 code bytes
    assertEquals(STOCK_INITIALIZE, snn.codeChange(INITIALIZE).stockCopy);
    assertEquals(snn.oldMethodCount + 1, snn.newMethodCount);
    assertTrue(snn.summary(), snn.summary().startsWith("SecondaryNameNode.class (major 51)"));
  }

  /**
   * The two replaced bodies are byte for byte what the patcher wrote before the rename-and-delegate
   * points were added: {@code Code} is #585; #1720/#1723 the hooks' Methodrefs; #31 the Fieldref.
   */
  @Test
  public void theReplacedBodiesAreUnchangedByteForByte() throws IOException {
    ClassFile p = TestSupport.classFile(patched, NAME_NODE);
    assertEquals(
        "024900000016000300020000000a2a2a2bb806b8b5001fb100000000",
        hex(p.method(LOAD_NAMESYSTEM, LOAD_NAMESYSTEM_DESC).attribute("Code").raw()));
    assertEquals(
        "02490000001200020002000000062a2bb806bbb000000000",
        hex(p.method(CREATE_RPC_SERVER, CREATE_RPC_SERVER_DESC).attribute("Code").raw()));
  }

  @Test
  public void onlyTheExpectedCodeAttributesDifferAndOnlyTheStockCopiesAreAdded()
      throws IOException {
    checkClass(
        NAME_NODE,
        Arrays.asList(
            LOAD_NAMESYSTEM, CREATE_RPC_SERVER, DO_ROLLBACK, DO_RECOVERY, START_HTTP_SERVER),
        Arrays.asList(STOCK_DO_ROLLBACK, STOCK_DO_RECOVERY, STOCK_START_HTTP_SERVER));
    checkClass(
        SECONDARY_NAME_NODE,
        Collections.singletonList(INITIALIZE),
        Collections.singletonList(STOCK_INITIALIZE));
  }

  private static void checkClass(String c, List<String> changed, List<String> added)
      throws IOException {
    ClassFile s = TestSupport.classFile(stock, c);
    ClassFile p = TestSupport.classFile(patched, c);
    int n = s.methods.size();
    assertEquals(c, n + added.size(), p.methods.size());
    List<String> differing = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      ClassFile.Member sm = s.methods.get(i), pm = p.methods.get(i);
      assertEquals(sm.key(), pm.key());
      if (!Arrays.equals(sm.raw(), pm.raw())) {
        differing.add(sm.name);
        assertEquals(sm.accessFlags, pm.accessFlags);
        // within a changed method, only the Code attribute differs
        assertEquals(sm.attributes.size(), pm.attributes.size());
        for (int a = 0; a < sm.attributes.size(); a++) {
          ClassFile.Attribute sa = sm.attributes.get(a), pa = pm.attributes.get(a);
          assertEquals(sa.name, pa.name);
          if (!sa.name.equals("Code")) {
            assertArrayEquals(sm.key() + " " + sa.name, sa.raw(), pa.raw());
          }
        }
      }
    }
    assertEquals(c, sorted(changed), sorted(differing));
    List<String> appended = new ArrayList<>();
    for (int i = n; i < p.methods.size(); i++) {
      appended.add(p.methods.get(i).name);
    }
    assertEquals(c, added, appended);
    assertEquals(s.fields.size(), p.fields.size());
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

  private static List<String> sorted(List<String> l) {
    List<String> s = new ArrayList<>(l);
    Collections.sort(s);
    return s;
  }

  @Test
  public void addedMethodCountIsThreeForNameNodeAndOneForSecondaryNameNode() throws IOException {
    assertEquals(
        3,
        TestSupport.classFile(patched, NAME_NODE).methods.size()
            - TestSupport.classFile(stock, NAME_NODE).methods.size());
    assertEquals(
        1,
        TestSupport.classFile(patched, SECONDARY_NAME_NODE).methods.size()
            - TestSupport.classFile(stock, SECONDARY_NAME_NODE).methods.size());
    assertEquals(3, delegations(NAME_NODE).size());
    assertEquals(1, delegations(SECONDARY_NAME_NODE).size());
  }

  @Test
  public void eachStockCopyKeepsTheStockMethodByteForByte() throws IOException {
    int[] expectedFlags = {0x1008, 0x1008, 0x1000, 0x1000}; // DELEGATIONS order
    for (int i = 0; i < DELEGATIONS.size(); i++) {
      RenameAndDelegate d = DELEGATIONS.get(i);
      ClassFile s = TestSupport.classFile(stock, d.owner);
      ClassFile p = TestSupport.classFile(patched, d.owner);
      ClassFile.Member sm = s.method(d.name, d.descriptor);
      ClassFile.Member copy = p.method(d.stockCopyName, d.descriptor);
      ClassFile.Member delegating = p.method(d.name, d.descriptor);
      assertNotNull(d.toString(), copy);
      assertEquals(d.toString(), d.stockAccess, sm.accessFlags);
      assertEquals(d.toString(), expectedFlags[i], copy.accessFlags);
      assertEquals(d.toString(), expectedFlags[i], d.copyAccess());
      assertEquals(d.toString(), sm.accessFlags, delegating.accessFlags);
      // the Code attribute (exception table, LineNumberTable, LocalVariableTable, StackMapTable)
      assertArrayEquals(d.toString(), sm.attribute("Code").raw(), copy.attribute("Code").raw());
      assertNotNull(d.toString(), sm.attribute("Exceptions"));
      // ... and every other attribute, in order
      assertEquals(sm.attributes.size(), copy.attributes.size());
      for (int a = 0; a < sm.attributes.size(); a++) {
        assertArrayEquals(
            d + " " + sm.attributes.get(a).name,
            sm.attributes.get(a).raw(),
            copy.attributes.get(a).raw());
      }
      // the delegating method keeps its other attributes; its Code has no handlers, no attributes
      assertArrayEquals(sm.attribute("Exceptions").raw(), delegating.attribute("Exceptions").raw());
      byte[] code = delegating.attribute("Code").raw();
      assertEquals(0, code[code.length - 1] | code[code.length - 2] | code[code.length - 3]);
      assertEquals(0, code[code.length - 4]);
    }
    // SecondaryNameNode.initialize has branches, so its copy carries a StackMapTable (and it
    // keeps the line numbers), as ASM sees it
    MethodListing.Method copy =
        MethodListing.of(TestSupport.entries(patched).get(SECONDARY_NAME_NODE_ENTRY))
            .get(STOCK_INITIALIZE + INITIALIZE_DESC);
    assertTrue(copy.toString(), copy.frames > 0 && copy.lineNumbers > 0);
  }

  @Test
  public void asmSeesExactlyTheExpectedInstructions() throws IOException {
    Map<String, byte[]> p = TestSupport.entries(patched), s = TestSupport.entries(stock);
    Map<String, MethodListing.Method> pm = MethodListing.of(p.get(NAME_NODE_ENTRY));
    Map<String, MethodListing.Method> sm = MethodListing.of(s.get(NAME_NODE_ENTRY));
    MethodListing.Method load = pm.get(LOAD_NAMESYSTEM + LOAD_NAMESYSTEM_DESC);
    MethodListing.Method rpc = pm.get(CREATE_RPC_SERVER + CREATE_RPC_SERVER_DESC);
    MethodListing.Method rollback = pm.get(DO_ROLLBACK + DO_ROLLBACK_DESC);
    MethodListing.Method recovery = pm.get(DO_RECOVERY + DO_RECOVERY_DESC);
    String nvmHooks = "org/apache/hadoop/hdfs/server/namenode/NvmHooks";
    String conf = "Lorg/apache/hadoop/conf/Configuration;";
    String nameNode = "Lorg/apache/hadoop/hdfs/server/namenode/NameNode;";
    assertEquals(
        Arrays.asList(
            "ALOAD 0",
            "ALOAD 0",
            "ALOAD 1",
            "INVOKESTATIC "
                + nvmHooks
                + ".loadNamesystem ("
                + nameNode
                + conf
                + ")Lorg/apache/hadoop/hdfs/server/namenode/FSNamesystem;",
            "PUTFIELD org/apache/hadoop/hdfs/server/namenode/NameNode.namesystem "
                + "Lorg/apache/hadoop/hdfs/server/namenode/FSNamesystem;",
            "RETURN"),
        load.instructions);
    assertMaxs(load, 3, 2);
    assertEquals(
        Arrays.asList(
            "ALOAD 0",
            "ALOAD 1",
            "INVOKESTATIC "
                + nvmHooks
                + ".createRpcServer ("
                + nameNode
                + conf
                + ")Lorg/apache/hadoop/hdfs/server/namenode/NameNodeRpcServer;",
            "ARETURN"),
        rpc.instructions);
    assertMaxs(rpc, 2, 2);
    assertEquals(
        Arrays.asList(
            "ALOAD 0",
            "ILOAD 1",
            "INVOKESTATIC " + nvmHooks + ".doRollback (" + conf + "Z)Z",
            "IRETURN"),
        rollback.instructions);
    assertMaxs(rollback, 2, 2);
    assertEquals(
        Arrays.asList(
            "ALOAD 0",
            "ALOAD 1",
            "INVOKESTATIC "
                + nvmHooks
                + ".doRecovery (Lorg/apache/hadoop/hdfs/server/common/HdfsServerConstants$StartupOption;"
                + conf
                + ")V",
            "RETURN"),
        recovery.instructions);
    assertMaxs(recovery, 2, 2);
    assertEquals(PatchVerifier.EXPECTED_DO_ROLLBACK, rollback.instructions);
    assertEquals(PatchVerifier.EXPECTED_DO_RECOVERY, recovery.instructions);

    // the stock bodies of the replaced methods were what we expected
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
    checkOthersAndCopies(sm, pm, NAME_NODE);

    Map<String, MethodListing.Method> psn = MethodListing.of(p.get(SECONDARY_NAME_NODE_ENTRY));
    Map<String, MethodListing.Method> ssn = MethodListing.of(s.get(SECONDARY_NAME_NODE_ENTRY));
    MethodListing.Method init = psn.get(INITIALIZE + INITIALIZE_DESC);
    assertEquals(
        Arrays.asList(
            "ALOAD 0",
            "ALOAD 1",
            "ALOAD 2",
            "INVOKESTATIC "
                + nvmHooks
                + ".initializeSecondary (Lorg/apache/hadoop/hdfs/server/namenode/SecondaryNameNode;"
                + conf
                + "Lorg/apache/hadoop/hdfs/server/namenode/SecondaryNameNode$CommandLineOpts;)V",
            "RETURN"),
        init.instructions);
    assertMaxs(init, 3, 3);
    assertEquals(PatchVerifier.EXPECTED_INITIALIZE, init.instructions);
    checkOthersAndCopies(ssn, psn, SECONDARY_NAME_NODE);
  }

  private static void assertMaxs(MethodListing.Method m, int maxStack, int maxLocals) {
    assertEquals(m.toString(), maxStack, m.maxStack);
    assertEquals(m.toString(), maxLocals, m.maxLocals);
    assertEquals(m.toString(), 0, m.tryCatchBlocks + m.frames + m.lineNumbers + m.localVariables);
  }

  /** Every unpatched method decodes identically; every stock copy decodes as its stock method. */
  private static void checkOthersAndCopies(
      Map<String, MethodListing.Method> sm, Map<String, MethodListing.Method> pm, String c) {
    List<String> patchedKeys = new ArrayList<>();
    for (PatchVerifier.NewBody b : PatchVerifier.NEW_BODIES) {
      if (b.owner.equals(c)) {
        patchedKeys.add(b.name + b.descriptor);
      }
    }
    for (String k : sm.keySet()) {
      assertTrue(k, pm.containsKey(k));
      if (!patchedKeys.contains(k)) {
        assertEquals(k, sm.get(k).toString(), pm.get(k).toString());
      }
    }
    List<RenameAndDelegate> ds = delegations(c);
    assertEquals(sm.size() + ds.size(), pm.size());
    for (RenameAndDelegate d : ds) {
      MethodListing.Method stockBody = sm.get(d.name + d.descriptor);
      MethodListing.Method copy = pm.get(d.stockCopyName + d.descriptor);
      assertEquals(d.toString(), stockBody.body(), copy.body());
      assertFalse(d.toString(), stockBody.instructions.isEmpty());
    }
  }

  @Test
  public void delegationBodiesFollowTheDescriptor() {
    DelegationBody rollback = new DelegationBody(true, DO_ROLLBACK_DESC, 0x1234);
    assertEquals("2a1bb81234ac", hex(rollback.code));
    assertEquals(2, rollback.maxStack);
    assertEquals(2, rollback.maxLocals);
    DelegationBody recovery = new DelegationBody(true, DO_RECOVERY_DESC, 0x1234);
    assertEquals("2a2bb81234b1", hex(recovery.code));
    assertEquals(2, recovery.maxStack);
    assertEquals(2, recovery.maxLocals);
    DelegationBody init = new DelegationBody(false, INITIALIZE_DESC, 0x1234);
    assertEquals("2a2b2cb81234b1", hex(init.code));
    assertEquals(3, init.maxStack);
    assertEquals(3, init.maxLocals);
    // wide types and slots past 3: lload_0, dload_2, iload 4, aload 5, lreturn
    DelegationBody wide = new DelegationBody(true, "(JDI[Ljava/lang/String;)J", 7);
    assertEquals("1e2815041905b80007ad", hex(wide.code));
    assertEquals(6, wide.maxLocals);
    assertEquals(6, wide.maxStack);
    DelegationBody none = new DelegationBody(true, "()D", 7);
    assertEquals("b80007af", hex(none.code));
    assertEquals(2, none.maxStack);
    assertEquals(0, none.maxLocals);
  }

  @Test
  public void aHookDescriptorThatDoesNotFitIsAProgrammingError() {
    try {
      new RenameAndDelegate(
          SECONDARY_NAME_NODE,
          INITIALIZE,
          INITIALIZE_DESC,
          ACC_PRIVATE,
          STOCK_INITIALIZE,
          HOOK_INITIALIZE_SECONDARY,
          INITIALIZE_DESC); // misses the SecondaryNameNode argument
      fail("accepted");
    } catch (IllegalArgumentException expected) {
      assertTrue(
          expected.getMessage(), expected.getMessage().contains(HOOK_INITIALIZE_SECONDARY_DESC));
    }
  }
}
