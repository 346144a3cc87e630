package org.nvmnn.patcher;

import static org.nvmnn.patcher.NameNodePatch.*;

import java.util.List;

/**
 * Applies one {@link RenameAndDelegate} patch point to a class: appends a copy of the stock method
 * (access flags, name and descriptor index, then its attributes verbatim: the {@code Code}
 * attribute with its exception table, LineNumberTable, LocalVariableTable and StackMapTable, and
 * every other attribute such as {@code Exceptions}) under the new name, and replaces the stock
 * method's {@code Code} attribute with a {@link DelegationBody}. The stock method's other
 * attributes stay byte-identical. Since the constant pool only grows, every index inside the copied
 * {@code Code} stays valid.
 *
 * <p>The stock bodies of these methods are long (branches, handlers, dozens of references), so
 * unlike {@link NameNodeBodySplice} they are not checked instruction by instruction: the check is
 * that the method exists with the expected descriptor and exact access flags and has a {@code Code}
 * attribute, that the class has no method of the stock copy's name, and that the body does not call
 * {@code NvmHooks} (the last two refuse an already-patched class). What the copy keeps is by
 * construction the stock method's own bytes, whatever they are.
 */
final class RenameAndDelegateSplice {
  private final RenameAndDelegate spec;
  private final ClassFile.Member stock;
  private final ClassFileSplicer.Code code;

  private RenameAndDelegateSplice(
      RenameAndDelegate spec, ClassFile.Member stock, ClassFileSplicer.Code code) {
    this.spec = spec;
    this.stock = stock;
    this.code = code;
  }

  /** Checks the stock method; refuses another build's class or an already-patched one. */
  static RenameAndDelegateSplice check(ClassFile cf, RenameAndDelegate d) {
    String cls = simpleName(d.owner);
    String refusing = "refusing to patch " + d.qualifiedName() + d.descriptor + ": ";
    String patchedBefore = ": this jar has been patched before; patch the stock jar instead";
    String otherBuild =
        "; this is not the " + cls + " of Apache Hadoop 2.7.3 (a different Hadoop build?)";
    for (ClassFile.Member m : cf.methods) {
      if (m.name.equals(d.stockCopyName)) {
        throw new PatchException(
            refusing + cls + " already has a method " + m.key() + patchedBefore);
      }
    }
    ClassFile.Member m = cf.method(d.name, d.descriptor);
    if (m == null) {
      throw new PatchException(refusing + cls + " has no such method" + otherBuild);
    }
    if (m.attribute("Code") == null) {
      throw new PatchException(
          refusing + "it has no Code attribute (flags 0x" + hex(m.accessFlags) + ")" + otherBuild);
    }
    ClassFileSplicer.Code code = new ClassFileSplicer.Code(cf, m);
    if (code.callsHooks(cf)) {
      throw new PatchException(refusing + "its body already calls " + HOOKS + patchedBefore);
    }
    if (m.accessFlags != d.stockAccess) {
      throw new PatchException(
          refusing
              + "access flags 0x"
              + hex(m.accessFlags)
              + ", expected 0x"
              + hex(d.stockAccess)
              + otherBuild);
    }
    return new RenameAndDelegateSplice(d, m, code);
  }

  /** Appends the constants and the stock copy, and replaces the stock method's Code. */
  void apply(ClassFileEditor ed, int hooksClass, List<ClassFileSplicer.CodeChange> changes) {
    int hookRef = ed.methodref(hooksClass, HOOKS, spec.hookName, spec.hookDescriptor);
    int copyName = ed.utf8(spec.stockCopyName);
    DelegationBody body = new DelegationBody(spec.isStatic(), spec.descriptor, hookRef);
    byte[] newCode =
        ClassFileEditor.codeAttribute(
            code.attribute.nameIndex, body.maxStack, body.maxLocals, body.code);
    ed.addCopy(stock, copyName, spec.copyAccess());
    ed.replace(code.attribute, newCode);
    changes.add(
        new ClassFileSplicer.CodeChange(
            spec.name, spec.descriptor, code.attribute.length, newCode.length, spec.stockCopyName));
  }

  private static String hex(int v) {
    return String.format("%04x", v);
  }
}
