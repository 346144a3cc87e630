package org.nvmnn.patcher;

import static org.nvmnn.patcher.NameNodePatch.*;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * Byte-level rewrite of one of the {@link NameNodePatch#PATCHED_CLASSES}. A class-file library
 * would re-encode other methods (javac 7 left duplicate CONSTANT_Class entries in these pools,
 * which ASM folds), so this is done by hand: constant-pool entries are only appended (existing
 * indices never move), the {@code Code} attributes of the patch points are replaced, the stock
 * copies of the rename-and-delegate points are appended to the methods, and every other byte is
 * copied verbatim ({@link ClassFileEditor}).
 *
 * <ul>
 *   <li>{@code NameNode}: the two replaced bodies ({@link NameNodeBodySplice}), then {@code
 *       doRollback} and {@code doRecovery} ({@link RenameAndDelegateSplice});
 *   <li>{@code SecondaryNameNode}: {@code initialize} ({@link RenameAndDelegateSplice}).
 * </ul>
 *
 * Every patch point of a class is checked before anything is written; a class that is not the
 * expected 2.7.3 one, or that has been patched already, is refused with a {@link PatchException}.
 * The constant-pool entries of the two replaced bodies are appended first, exactly as before the
 * rename-and-delegate points existed, so their new bodies are byte-for-byte unchanged.
 */
public final class ClassFileSplicer {

  private ClassFileSplicer() {}

  /** One replaced {@code Code} attribute. */
  public static final class CodeChange {
    public final String method;
    public final String descriptor;
    public final int oldCodeLength, newCodeLength;

    /** name of the added method that keeps the stock body; null if the stock body was dropped */
    public final String stockCopy;

    CodeChange(String method, String descriptor, int oldLength, int newLength, String stockCopy) {
      this.method = method;
      this.descriptor = descriptor;
      this.oldCodeLength = oldLength;
      this.newCodeLength = newLength;
      this.stockCopy = stockCopy;
    }

    @Override
    public String toString() {
      return method
          + " "
          + oldCodeLength
          + " -> "
          + newCodeLength
          + " bytes"
          + (stockCopy == null ? "" : " (stock body kept as " + stockCopy + ")");
    }
  }

  /** What a splice did. */
  public static final class Result {
    /** internal name of the spliced class */
    public final String className;

    public final byte[] bytes;
    public final int majorVersion;
    public final int oldConstantPoolCount;
    public final int newConstantPoolCount;

    /** human-readable description of each appended constant-pool entry */
    public final List<String> appendedConstants;

    /** in the order they were applied */
    public final List<CodeChange> codeChanges;

    public final int oldMethodCount, newMethodCount;
    public final int oldClassLength;

    Result(
        String className, byte[] bytes, ClassFile stock, ClassFileEditor ed, List<CodeChange> c) {
      this.className = className;
      this.bytes = bytes;
      this.majorVersion = stock.majorVersion;
      this.oldConstantPoolCount = stock.constantPoolCount;
      this.newConstantPoolCount = ed.constantPoolCount();
      this.appendedConstants = ed.appendedConstants();
      this.codeChanges = Collections.unmodifiableList(new ArrayList<>(c));
      this.oldMethodCount = stock.methods.size();
      this.newMethodCount = oldMethodCount + ed.addedMethodCount();
      this.oldClassLength = stock.length();
    }

    /** The change of this method's Code attribute; null if none. */
    public CodeChange codeChange(String method) {
      for (CodeChange c : codeChanges) {
        if (c.method.equals(method)) {
          return c;
        }
      }
      return null;
    }

    public String summary() {
      List<String> changes = new ArrayList<>();
      for (CodeChange c : codeChanges) {
        changes.add(c.toString());
      }
      return String.format(
          "%s (major %d): constant_pool_count %d -> %d (%d entries appended: %s); "
              + "Code attribute of %s; methods %d -> %d; class file %d -> %d bytes",
          entry(simpleName(className)),
          majorVersion,
          oldConstantPoolCount,
          newConstantPoolCount,
          appendedConstants.size(),
          String.join(", ", appendedConstants),
          String.join(", ", changes),
          oldMethodCount,
          newMethodCount,
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
        throw new PatchException(
            simpleName(cf.thisClassName()) + "." + m.key() + " has no Code attribute");
      }
      this.attribute = a;
      int at = a.infoOffset;
      maxStack = cf.u2(at);
      maxLocals = cf.u2(at + 2);
      int len = cf.s4(at + 4);
      code = Arrays.copyOfRange(cf.bytes(), at + 8, at + 8 + len);
      exceptionTableLength = cf.u2(at + 8 + len);
    }

    int u1(int i) {
      return code[i] & 0xFF;
    }

    int u2(int i) {
      return (u1(i) << 8) | u1(i + 1);
    }

    /**
     * Whether the code contains an {@code invokestatic} of a {@link NameNodePatch#HOOKS} method.
     * The bytes are scanned without decoding instructions: an operand byte may look like an opcode,
     * but a match also needs a Methodref of NvmHooks in the constant pool, which a stock class does
     * not have. So a stock body is never taken for a patched one, and a class that does refer to
     * NvmHooks has been patched before anyway.
     */
    boolean callsHooks(ClassFile cf) {
      for (int i = 0; i + 2 < code.length; i++) {
        if (u1(i) == DelegationBody.INVOKESTATIC) {
          int idx = u2(i + 1);
          if (cf.isEntry(idx)
              && cf.tag(idx) == ClassFile.METHODREF
              && HOOKS.equals(cf.memberRef(idx, ClassFile.METHODREF)[0])) {
            return true;
          }
        }
      }
      return false;
    }

    String hex() {
      StringBuilder hex = new StringBuilder();
      for (byte b : code) {
        hex.append(String.format("%02x ", b & 0xFF));
      }
      return hex.toString().trim();
    }
  }

  /**
   * Splices the stock class {@code className} (internal name, one of {@link
   * NameNodePatch#PATCHED_CLASSES}); throws {@link PatchException} if it is not the expected one.
   */
  public static Result splice(String className, byte[] stock) {
    if (!PATCHED_CLASSES.contains(className)) {
      throw new PatchException(className + " is not one of the patched classes " + PATCHED_CLASSES);
    }
    ClassFile cf = ClassFile.parse(stock);
    if (!className.equals(cf.thisClassName())) {
      throw new PatchException("expected " + className + ", got " + cf.thisClassName());
    }
    if (cf.majorVersion < 45) {
      throw new PatchException("unsupported class-file major version " + cf.majorVersion);
    }
    // ---- check every patch point before anything is appended ----
    NameNodeBodySplice bodies = NAME_NODE.equals(className) ? NameNodeBodySplice.check(cf) : null;
    List<RenameAndDelegateSplice> delegations = new ArrayList<>();
    for (RenameAndDelegate d : NameNodePatch.delegations(className)) {
      delegations.add(RenameAndDelegateSplice.check(cf, d));
    }

    // ---- edit: constant-pool entries are appended in this order ----
    ClassFileEditor ed = new ClassFileEditor(cf);
    int hooksClass = ed.classRef(HOOKS);
    List<CodeChange> changes = new ArrayList<>();
    if (bodies != null) {
      bodies.apply(ed, hooksClass, changes);
    }
    for (RenameAndDelegateSplice d : delegations) {
      d.apply(ed, hooksClass, changes);
    }
    return new Result(className, ed.toBytes(), cf, ed, changes);
  }
}
