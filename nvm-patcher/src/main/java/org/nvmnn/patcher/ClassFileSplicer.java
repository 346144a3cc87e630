package org.nvmnn.patcher;

import static org.nvmnn.patcher.NameNodePatch.*;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Byte-level rewrite of {@code NameNode.class}: replaces the {@code Code} attributes of {@code
 * loadNamesystem(Configuration)} and {@code createRpcServer(Configuration)} and appends the
 * constant-pool entries their new bodies need. Nothing else changes: existing constant-pool indices
 * stay put (entries are only appended), and every other byte after the constant pool is copied
 * verbatim. A class-file library would re-encode other methods (javac 7 left duplicate
 * CONSTANT_Class entries in this pool, which ASM folds), so this is done by hand.
 *
 * <p>New bodies (straight-line, so no StackMapTable is needed whatever the class version):
 *
 * <pre>
 * loadNamesystem:  aload_0; aload_0; aload_1; invokestatic NvmHooks.loadNamesystem;
 *                  putfield NameNode.namesystem; return              (max_stack 3, max_locals 2)
 * createRpcServer: aload_0; aload_1; invokestatic NvmHooks.createRpcServer; areturn
 *                                                                    (max_stack 2, max_locals 2)
 * </pre>
 *
 * Before anything is replaced the stock bodies are checked, instruction by instruction and
 * reference by reference, against what Hadoop 2.7.3 compiles to; anything else (another Hadoop
 * build, an already-patched jar) is refused.
 */
public final class ClassFileSplicer {

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

  private ClassFileSplicer() {}

  /** What a splice did. */
  public static final class Result {
    public final byte[] bytes;
    public final int majorVersion;
    public final int oldConstantPoolCount;
    public final int newConstantPoolCount;

    /** human-readable description of each appended constant-pool entry */
    public final List<String> appendedConstants;

    public final int oldLoadNamesystemCodeLength, newLoadNamesystemCodeLength;
    public final int oldCreateRpcServerCodeLength, newCreateRpcServerCodeLength;
    public final int oldClassLength;

    Result(
        byte[] bytes,
        int majorVersion,
        int oldCount,
        int newCount,
        List<String> appended,
        int oldLoad,
        int newLoad,
        int oldRpc,
        int newRpc,
        int oldClassLength) {
      this.bytes = bytes;
      this.majorVersion = majorVersion;
      this.oldConstantPoolCount = oldCount;
      this.newConstantPoolCount = newCount;
      this.appendedConstants = Collections.unmodifiableList(appended);
      this.oldLoadNamesystemCodeLength = oldLoad;
      this.newLoadNamesystemCodeLength = newLoad;
      this.oldCreateRpcServerCodeLength = oldRpc;
      this.newCreateRpcServerCodeLength = newRpc;
      this.oldClassLength = oldClassLength;
    }

    public String summary() {
      return String.format(
          "NameNode.class (major %d): constant_pool_count %d -> %d (%d entries appended: %s); "
              + "Code attribute of loadNamesystem %d -> %d bytes, createRpcServer %d -> %d bytes; "
              + "class file %d -> %d bytes",
          majorVersion,
          oldConstantPoolCount,
          newConstantPoolCount,
          appendedConstants.size(),
          String.join(", ", appendedConstants),
          oldLoadNamesystemCodeLength,
          newLoadNamesystemCodeLength,
          oldCreateRpcServerCodeLength,
          newCreateRpcServerCodeLength,
          oldClassLength,
          bytes.length);
    }
  }

  /** A method's Code attribute, decoded just enough to check and replace it. */
  static final class Code {
    final ClassFile.Attribute attribute;
    final int maxStack, maxLocals;
    final byte[] code;
    final int exceptionTableLength;

    Code(ClassFile cf, ClassFile.Member m) {
      ClassFile.Attribute a = m.attribute("Code");
      if (a == null) {
        throw new PatchException("NameNode." + m.key() + " has no Code attribute");
      }
      this.attribute = a;
      int at = a.infoOffset;
      maxStack = cf.u2(at);
      maxLocals = cf.u2(at + 2);
      int len = cf.s4(at + 4);
      byte[] all = cf.bytes();
      code = java.util.Arrays.copyOfRange(all, at + 8, at + 8 + len);
      exceptionTableLength = cf.u2(at + 8 + len);
    }

    int u1(int i) {
      return code[i] & 0xFF;
    }

    int u2(int i) {
      return (u1(i) << 8) | u1(i + 1);
    }
  }

  /**
   * Splices a stock NameNode.class; throws {@link PatchException} if it is not the expected one.
   */
  public static Result splice(byte[] stock) {
    ClassFile cf = ClassFile.parse(stock);
    if (!NAME_NODE.equals(cf.thisClassName())) {
      throw new PatchException("expected " + NAME_NODE + ", got " + cf.thisClassName());
    }
    if (cf.majorVersion < 45) {
      throw new PatchException("unsupported class-file major version " + cf.majorVersion);
    }
    ClassFile.Member load = requireMethod(cf, LOAD_NAMESYSTEM, LOAD_NAMESYSTEM_DESC);
    ClassFile.Member rpc = requireMethod(cf, CREATE_RPC_SERVER, CREATE_RPC_SERVER_DESC);
    Code loadCode = new Code(cf, load);
    Code rpcCode = new Code(cf, rpc);
    int namesystemFieldref = checkStockLoadNamesystem(cf, loadCode);
    checkStockCreateRpcServer(cf, rpcCode);

    // ---- append constant-pool entries (existing indices never move) ----
    Pool pool = new Pool(cf);
    int hooksName = pool.utf8(HOOKS);
    int hooksClass = pool.add(ClassFile.CLASS, "Class " + HOOKS, hooksName);
    int loadRef = pool.methodref(hooksClass, LOAD_NAMESYSTEM, HOOK_LOAD_NAMESYSTEM_DESC);
    int rpcRef = pool.methodref(hooksClass, CREATE_RPC_SERVER, HOOK_CREATE_RPC_SERVER_DESC);
    if (pool.count > 0xFFFF) {
      throw new PatchException("constant pool would overflow (" + pool.count + " entries)");
    }

    byte[] newLoad =
        codeAttribute(
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
        codeAttribute(
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

    // ---- assemble: prefix, new count, old entries, appended entries, rest with 2 splices ----
    ByteArrayOutputStream out = new ByteArrayOutputStream(stock.length + 256);
    out.write(stock, 0, cf.constantPoolCountOffset);
    out.write(pool.count >>> 8);
    out.write(pool.count);
    out.write(
        stock, cf.constantPoolCountOffset + 2, cf.constantPoolEnd - cf.constantPoolCountOffset - 2);
    byte[] appended = pool.appended.toByteArray();
    out.write(appended, 0, appended.length);

    ClassFile.Attribute first = loadCode.attribute, second = rpcCode.attribute;
    byte[] firstNew = newLoad, secondNew = newRpc;
    if (second.offset < first.offset) {
      first = rpcCode.attribute;
      second = loadCode.attribute;
      firstNew = newRpc;
      secondNew = newLoad;
    }
    int from = cf.constantPoolEnd;
    out.write(stock, from, first.offset - from);
    out.write(firstNew, 0, firstNew.length);
    from = first.offset + first.length;
    out.write(stock, from, second.offset - from);
    out.write(secondNew, 0, secondNew.length);
    from = second.offset + second.length;
    out.write(stock, from, stock.length - from);

    byte[] result = out.toByteArray();
    ClassFile.parse(result); // must still be well-formed
    return new Result(
        result,
        cf.majorVersion,
        cf.constantPoolCount,
        pool.count,
        pool.descriptions,
        loadCode.attribute.length,
        newLoad.length,
        rpcCode.attribute.length,
        newRpc.length,
        stock.length);
  }

  private static ClassFile.Member requireMethod(ClassFile cf, String name, String desc) {
    ClassFile.Member m = cf.method(name, desc);
    if (m == null) {
      throw new PatchException(
          "NameNode has no method " + name + desc + "; not Hadoop 2.7.3's NameNode");
    }
    if ((m.accessFlags & 0x0008 /* static */) != 0
        || (m.accessFlags & 0x0500 /* native|abstract */) != 0) {
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
  static int checkStockLoadNamesystem(ClassFile cf, Code c) {
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
  static void checkStockCreateRpcServer(ClassFile cf, Code c) {
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

  private static PatchException unexpected(ClassFile cf, Code c, String method, String expected) {
    StringBuilder hex = new StringBuilder();
    for (byte b : c.code) {
      hex.append(String.format("%02x ", b & 0xFF));
    }
    boolean patched = false;
    for (int i = 0; i + 2 < c.code.length; i++) {
      if (c.u1(i) == INVOKESTATIC) {
        int idx = c.u2(i + 1);
        if (idx > 0
            && idx < cf.constantPoolCount
            && cf.tag(idx) == ClassFile.METHODREF
            && HOOKS.equals(cf.memberRef(idx, ClassFile.METHODREF)[0])) {
          patched = true;
        }
      }
    }
    String why =
        patched
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
            + hex.toString().trim()
            + "], "
            + c.exceptionTableLength
            + " exception handler(s)");
  }

  private static byte[] codeAttribute(int nameIndex, int maxStack, int maxLocals, byte[] code) {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    int infoLength = 2 + 2 + 4 + code.length + 2 + 2;
    u2(b, nameIndex);
    u4(b, infoLength);
    u2(b, maxStack);
    u2(b, maxLocals);
    u4(b, code.length);
    b.write(code, 0, code.length);
    u2(b, 0); // exception_table_length
    u2(b, 0); // attributes_count: no LineNumberTable/LocalVariableTable/StackMapTable
    return b.toByteArray();
  }

  private static byte hi(int v) {
    return (byte) (v >>> 8);
  }

  private static byte lo(int v) {
    return (byte) v;
  }

  static void u2(ByteArrayOutputStream b, int v) {
    b.write(v >>> 8);
    b.write(v);
  }

  static void u4(ByteArrayOutputStream b, int v) {
    u2(b, v >>> 16);
    u2(b, v);
  }

  /** Appends constant-pool entries after the existing ones. */
  private static final class Pool {
    final ClassFile cf;
    int count; // next free index == constant_pool_count
    final ByteArrayOutputStream appended = new ByteArrayOutputStream();
    final List<String> descriptions = new ArrayList<>();

    Pool(ClassFile cf) {
      this.cf = cf;
      this.count = cf.constantPoolCount;
    }

    /** An existing Utf8 entry with this value, or a new one. */
    int utf8(String value) {
      int existing = cf.findUtf8(value);
      if (existing != 0) {
        return existing;
      }
      ByteArrayOutputStream enc = new ByteArrayOutputStream();
      try {
        new java.io.DataOutputStream(enc).writeUTF(value); // modified UTF-8 with u2 length
      } catch (java.io.IOException e) {
        throw new PatchException("cannot encode " + value, e);
      }
      appended.write(ClassFile.UTF8);
      byte[] e = enc.toByteArray();
      appended.write(e, 0, e.length);
      descriptions.add("#" + count + " Utf8 " + value);
      return count++;
    }

    int add(int tag, String description, int... u2s) {
      appended.write(tag);
      for (int v : u2s) {
        u2(appended, v);
      }
      descriptions.add("#" + count + " " + description);
      return count++;
    }

    int methodref(int classIndex, String name, String desc) {
      int n = utf8(name);
      int d = utf8(desc);
      int nat = add(ClassFile.NAME_AND_TYPE, "NameAndType " + name + ":" + desc, n, d);
      return add(ClassFile.METHODREF, "Methodref " + HOOKS + "." + name, classIndex, nat);
    }
  }
}
