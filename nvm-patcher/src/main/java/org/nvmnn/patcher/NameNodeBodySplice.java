package org.nvmnn.patcher;

import static org.nvmnn.patcher.NameNodePatch.*;

import java.util.List;

/**
 * The two replaced bodies of {@code NameNode}: {@code loadNamesystem(Configuration)} and {@code
 * createRpcServer(Configuration)}. Their stock bodies are short, so they are checked instruction by
 * instruction and reference by reference against what Hadoop 2.7.3 compiles to, and then dropped.
 * New bodies (straight-line, so no StackMapTable is needed whatever the class version):
 *
 * <pre>
 * loadNamesystem:  aload_0; aload_0; aload_1; invokestatic NvmHooks.loadNamesystem;
 *                  putfield NameNode.namesystem; return              (max_stack 3, max_locals 2)
 * createRpcServer: aload_0; aload_1; invokestatic NvmHooks.createRpcServer; areturn
 *                                                                    (max_stack 2, max_locals 2)
 * </pre>
 */
final class NameNodeBodySplice {

  // opcodes used here
  static final int ALOAD_0 = 0x2a,
      ALOAD_1 = 0x2b,
      NEW = 0xbb,
      DUP = 0x59,
      INVOKESTATIC = 0xb8,
      INVOKESPECIAL = 0xb7,
      PUTFIELD = 0xb5,
      RETURN = 0xb1,
      ARETURN = 0xb0;

  private final ClassFileSplicer.Code loadCode;
  private final ClassFileSplicer.Code rpcCode;
  private final int namesystemFieldref;

  private NameNodeBodySplice(
      ClassFileSplicer.Code loadCode, ClassFileSplicer.Code rpcCode, int namesystemFieldref) {
    this.loadCode = loadCode;
    this.rpcCode = rpcCode;
    this.namesystemFieldref = namesystemFieldref;
  }

  /** Checks the two stock bodies; refuses anything but 2.7.3's. */
  static NameNodeBodySplice check(ClassFile cf) {
    ClassFile.Member load = requireMethod(cf, LOAD_NAMESYSTEM, LOAD_NAMESYSTEM_DESC);
    ClassFile.Member rpc = requireMethod(cf, CREATE_RPC_SERVER, CREATE_RPC_SERVER_DESC);
    ClassFileSplicer.Code loadCode = new ClassFileSplicer.Code(cf, load);
    ClassFileSplicer.Code rpcCode = new ClassFileSplicer.Code(cf, rpc);
    int namesystemFieldref = checkStockLoadNamesystem(cf, loadCode);
    checkStockCreateRpcServer(cf, rpcCode);
    return new NameNodeBodySplice(loadCode, rpcCode, namesystemFieldref);
  }

  /** Appends the hooks' Methodrefs and replaces the two Code attributes. */
  void apply(ClassFileEditor ed, int hooksClass, List<ClassFileSplicer.CodeChange> changes) {
    int loadRef = ed.methodref(hooksClass, HOOKS, LOAD_NAMESYSTEM, HOOK_LOAD_NAMESYSTEM_DESC);
    int rpcRef = ed.methodref(hooksClass, HOOKS, CREATE_RPC_SERVER, HOOK_CREATE_RPC_SERVER_DESC);
    byte[] newLoad =
        ClassFileEditor.codeAttribute(
            loadCode.attribute.nameIndex,
            3,
            2,
            new byte[] {
              (byte) ALOAD_0,
              (byte) ALOAD_0,
              (byte) ALOAD_1,
              (byte) INVOKESTATIC,
              hi(loadRef),
              lo(loadRef),
              (byte) PUTFIELD,
              hi(namesystemFieldref),
              lo(namesystemFieldref),
              (byte) RETURN
            });
    byte[] newRpc =
        ClassFileEditor.codeAttribute(
            rpcCode.attribute.nameIndex,
            2,
            2,
            new byte[] {
              (byte) ALOAD_0,
              (byte) ALOAD_1,
              (byte) INVOKESTATIC,
              hi(rpcRef),
              lo(rpcRef),
              (byte) ARETURN
            });
    ed.replace(loadCode.attribute, newLoad);
    ed.replace(rpcCode.attribute, newRpc);
    changes.add(
        new ClassFileSplicer.CodeChange(
            LOAD_NAMESYSTEM,
            LOAD_NAMESYSTEM_DESC,
            loadCode.attribute.length,
            newLoad.length,
            null));
    changes.add(
        new ClassFileSplicer.CodeChange(
            CREATE_RPC_SERVER,
            CREATE_RPC_SERVER_DESC,
            rpcCode.attribute.length,
            newRpc.length,
            null));
  }

  private static ClassFile.Member requireMethod(ClassFile cf, String name, String desc) {
    ClassFile.Member m = cf.method(name, desc);
    if (m == null) {
      throw new PatchException(
          "NameNode has no method " + name + desc + "; not Hadoop 2.7.3's NameNode");
    }
    if ((m.accessFlags & ACC_STATIC) != 0 || (m.accessFlags & 0x0500 /* native|abstract */) != 0) {
      throw new PatchException(
          "NameNode."
              + name
              + desc
              + " has unexpected access flags 0x"
              + Integer.toHexString(m.accessFlags));
    }
    return m;
  }

  /**
   * Stock 2.7.3: {@code aload_0; aload_1; invokestatic FSNamesystem.loadFromDisk(Configuration);
   * putfield NameNode.namesystem; return}. Returns the Fieldref index of {@code namesystem}.
   */
  static int checkStockLoadNamesystem(ClassFile cf, ClassFileSplicer.Code c) {
    boolean ok =
        c.code.length == 9
            && c.exceptionTableLength == 0
            && c.u1(0) == ALOAD_0
            && c.u1(1) == ALOAD_1
            && c.u1(2) == INVOKESTATIC
            && c.u1(5) == PUTFIELD
            && c.u1(8) == RETURN
            && refIs(
                cf,
                c.u2(3),
                ClassFile.METHODREF,
                FS_NAMESYSTEM,
                LOAD_FROM_DISK,
                LOAD_FROM_DISK_DESC)
            && refIs(
                cf,
                c.u2(6),
                ClassFile.FIELDREF,
                NAME_NODE,
                NAMESYSTEM_FIELD,
                NAMESYSTEM_FIELD_DESC);
    if (!ok) {
      throw unexpected(
          cf,
          c,
          LOAD_NAMESYSTEM,
          "aload_0; aload_1; invokestatic "
              + FS_NAMESYSTEM
              + "."
              + LOAD_FROM_DISK
              + LOAD_FROM_DISK_DESC
              + "; putfield "
              + NAME_NODE
              + "."
              + NAMESYSTEM_FIELD
              + "; return");
    }
    return c.u2(6);
  }

  /**
   * Stock 2.7.3: {@code new NameNodeRpcServer; dup; aload_1; aload_0; invokespecial
   * NameNodeRpcServer.<init>(Configuration, NameNode); areturn}.
   */
  static void checkStockCreateRpcServer(ClassFile cf, ClassFileSplicer.Code c) {
    boolean ok =
        c.code.length == 10
            && c.exceptionTableLength == 0
            && c.u1(0) == NEW
            && c.u1(3) == DUP
            && c.u1(4) == ALOAD_1
            && c.u1(5) == ALOAD_0
            && c.u1(6) == INVOKESPECIAL
            && c.u1(9) == ARETURN
            && cf.tag(c.u2(1)) == ClassFile.CLASS
            && RPC_SERVER.equals(cf.className(c.u2(1)))
            && refIs(cf, c.u2(7), ClassFile.METHODREF, RPC_SERVER, "<init>", RPC_SERVER_INIT_DESC);
    if (!ok) {
      throw unexpected(
          cf,
          c,
          CREATE_RPC_SERVER,
          "new "
              + RPC_SERVER
              + "; dup; aload_1; aload_0; invokespecial "
              + RPC_SERVER
              + ".<init>"
              + RPC_SERVER_INIT_DESC
              + "; areturn");
    }
  }

  private static boolean refIs(
      ClassFile cf, int index, int tag, String owner, String name, String desc) {
    if (index <= 0 || index >= cf.constantPoolCount || cf.tag(index) != tag) {
      return false;
    }
    String[] r = cf.memberRef(index, tag);
    return r[0].equals(owner) && r[1].equals(name) && r[2].equals(desc);
  }

  private static PatchException unexpected(
      ClassFile cf, ClassFileSplicer.Code c, String method, String expected) {
    String why =
        c.callsHooks(cf)
            ? "it already calls "
                + HOOKS
                + ": this jar has been patched before; patch the stock jar instead"
            : "this is not the NameNode of Apache Hadoop 2.7.3 (a different Hadoop build?)";
    return new PatchException(
        "refusing to patch NameNode."
            + method
            + ": unexpected stock body; "
            + why
            + ". Expected: "
            + expected
            + " (no exception handlers). Found code ["
            + c.hex()
            + "], "
            + c.exceptionTableLength
            + " exception handler(s)");
  }

  private static byte hi(int v) {
    return (byte) (v >>> 8);
  }

  private static byte lo(int v) {
    return (byte) v;
  }
}
