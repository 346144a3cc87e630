package org.nvmnn.patcher;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * An independent decoding of methods with ASM (as opposed to the splicer's own byte reading):
 * parses the whole class with {@link ClassReader#EXPAND_FRAMES} and records, for every method, its
 * instructions as text ({@code "INVOKESTATIC owner.name desc"}), its maxs and whether it has
 * exception handlers, frames, line numbers or local-variable entries.
 */
public final class MethodListing {

  /** What ASM saw in one method. */
  public static final class Method {
    public final String name, descriptor;
    public final List<String> instructions = new ArrayList<>();
    public int maxStack = -1, maxLocals = -1;
    public int tryCatchBlocks, frames, lineNumbers, localVariables;

    Method(String name, String descriptor) {
      this.name = name;
      this.descriptor = descriptor;
    }

    @Override
    public String toString() {
      return name + descriptor + " " + body();
    }

    /** Everything ASM saw but the name and descriptor: maxs, instructions, debug info counts. */
    public String body() {
      return "maxStack="
          + maxStack
          + " maxLocals="
          + maxLocals
          + " "
          + instructions
          + (tryCatchBlocks + frames + lineNumbers + localVariables == 0
              ? ""
              : " tryCatch="
                  + tryCatchBlocks
                  + " frames="
                  + frames
                  + " lines="
                  + lineNumbers
                  + " locals="
                  + localVariables);
    }
  }

  private MethodListing() {}

  private static final String[] OPCODES = new String[256];

  static {
    for (java.lang.reflect.Field f : Opcodes.class.getFields()) {
      if (f.getType() != int.class) {
        continue;
      }
      String n = f.getName();
      // skip the non-opcode constants of Opcodes (ASM api levels, access flags, frame types, ...)
      if (n.startsWith("ASM")
          || n.startsWith("ACC_")
          || n.startsWith("V") && Character.isDigit(n.charAt(n.length() - 1))
          || n.startsWith("T_")
          || n.startsWith("H_")
          || n.startsWith("F_")
          || n.startsWith("SOURCE_")
          || n.equals("V_PREVIEW")) {
        continue;
      }
      try {
        int v = f.getInt(null);
        if (v >= 0 && v < 256 && OPCODES[v] == null) {
          OPCODES[v] = n;
        }
      } catch (IllegalAccessException e) {
        throw new AssertionError(e);
      }
    }
  }

  static String op(int opcode) {
    String n = opcode >= 0 && opcode < 256 ? OPCODES[opcode] : null;
    return n != null ? n : "OP_" + opcode;
  }

  /** Every method of the class, keyed by name + descriptor, in class-file order. */
  public static Map<String, Method> of(byte[] classBytes) {
    final Map<String, Method> methods = new LinkedHashMap<>();
    ClassReader reader;
    try {
      reader = new ClassReader(classBytes);
    } catch (RuntimeException e) {
      throw new PatchException("ASM cannot parse the class: " + e, e);
    }
    reader.accept(
        new ClassVisitor(Opcodes.ASM9) {
          @Override
          public MethodVisitor visitMethod(
              int access, String name, String descriptor, String signature, String[] exceptions) {
            final Method m = new Method(name, descriptor);
            methods.put(name + descriptor, m);
            return new MethodVisitor(Opcodes.ASM9) {
              void add(String s) {
                m.instructions.add(s);
              }

              @Override
              public void visitInsn(int opcode) {
                add(op(opcode));
              }

              @Override
              public void visitIntInsn(int opcode, int operand) {
                add(op(opcode) + " " + operand);
              }

              @Override
              public void visitVarInsn(int opcode, int var) {
                add(op(opcode) + " " + var);
              }

              @Override
              public void visitTypeInsn(int opcode, String type) {
                add(op(opcode) + " " + type);
              }

              @Override
              public void visitFieldInsn(int opcode, String owner, String fname, String desc) {
                add(op(opcode) + " " + owner + "." + fname + " " + desc);
              }

              @Override
              public void visitMethodInsn(
                  int opcode, String owner, String mname, String desc, boolean itf) {
                add(op(opcode) + " " + owner + "." + mname + " " + desc + (itf ? " itf" : ""));
              }

              @Override
              public void visitInvokeDynamicInsn(
                  String iname, String desc, Handle bsm, Object... args) {
                add("INVOKEDYNAMIC " + iname + " " + desc);
              }

              @Override
              public void visitJumpInsn(int opcode, Label label) {
                add(op(opcode));
              }

              @Override
              public void visitLdcInsn(Object value) {
                add("LDC " + value);
              }

              @Override
              public void visitIincInsn(int var, int increment) {
                add("IINC " + var + " " + increment);
              }

              @Override
              public void visitTableSwitchInsn(int min, int max, Label dflt, Label... labels) {
                add("TABLESWITCH");
              }

              @Override
              public void visitLookupSwitchInsn(Label dflt, int[] keys, Label[] labels) {
                add("LOOKUPSWITCH");
              }

              @Override
              public void visitMultiANewArrayInsn(String desc, int dims) {
                add("MULTIANEWARRAY " + desc + " " + dims);
              }

              @Override
              public void visitTryCatchBlock(Label start, Label end, Label handler, String type) {
                m.tryCatchBlocks++;
              }

              @Override
              public void visitFrame(
                  int type, int numLocal, Object[] local, int numStack, Object[] stack) {
                m.frames++;
              }

              @Override
              public void visitLineNumber(int line, Label start) {
                m.lineNumbers++;
              }

              @Override
              public void visitLocalVariable(
                  String lname, String desc, String sig, Label start, Label end, int index) {
                m.localVariables++;
              }

              @Override
              public void visitMaxs(int maxStack, int maxLocals) {
                m.maxStack = maxStack;
                m.maxLocals = maxLocals;
              }
            };
          }
        },
        ClassReader.EXPAND_FRAMES);
    return Collections.unmodifiableMap(methods);
  }
}
