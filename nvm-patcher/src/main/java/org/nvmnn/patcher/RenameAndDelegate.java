package org.nvmnn.patcher;

import static org.nvmnn.patcher.NameNodePatch.*;

/**
 * One "rename and delegate" patch point: the stock method {@code owner.name descriptor} is kept,
 * with all its attributes verbatim, as {@code owner.stockCopyName descriptor} (package-private,
 * synthetic, static as before), and its own body becomes {@code <load every argument>; invokestatic
 * NvmHooks.hookName hookDescriptor; <return>}. The instances are in {@link
 * NameNodePatch#DELEGATIONS}.
 */
public final class RenameAndDelegate {
  /** internal name of the class that declares the method */
  public final String owner;

  public final String name;
  public final String descriptor;

  /** the stock method's exact access flags; anything else is refused */
  public final int stockAccess;

  /** name of the added method that keeps the stock body */
  public final String stockCopyName;

  /** the static method of {@link NameNodePatch#HOOKS} the new body calls */
  public final String hookName;

  public final String hookDescriptor;

  RenameAndDelegate(
      String owner,
      String name,
      String descriptor,
      int stockAccess,
      String stockCopyName,
      String hookName,
      String hookDescriptor) {
    this.owner = owner;
    this.name = name;
    this.descriptor = descriptor;
    this.stockAccess = stockAccess;
    this.stockCopyName = stockCopyName;
    this.hookName = hookName;
    this.hookDescriptor = hookDescriptor;
    // the delegating body passes its arguments (after this, if any) on unchanged
    String expected = isStatic() ? descriptor : "(L" + owner + ";" + descriptor.substring(1);
    if (!hookDescriptor.equals(expected)) {
      throw new IllegalArgumentException(
          this + ": the hook's descriptor must be " + expected + ", not " + hookDescriptor);
    }
  }

  public boolean isStatic() {
    return (stockAccess & ACC_STATIC) != 0;
  }

  /**
   * Access flags of the stock copy: the stock flags without public/private/protected (so
   * package-private, callable by the hooks in the same runtime package), plus synthetic.
   */
  public int copyAccess() {
    return (stockAccess & ~(ACC_PUBLIC | ACC_PRIVATE | ACC_PROTECTED)) | ACC_SYNTHETIC;
  }

  /** e.g. {@code NameNode.doRollback} */
  public String qualifiedName() {
    return simpleName(owner) + "." + name;
  }

  /** e.g. {@code NameNode.stockDoRollback} */
  public String qualifiedCopyName() {
    return simpleName(owner) + "." + stockCopyName;
  }

  @Override
  public String toString() {
    return qualifiedName() + descriptor + " -> " + stockCopyName + ", " + HOOKS + "." + hookName;
  }
}
