package org.nvmnn.patcher;

import java.io.ByteArrayOutputStream;

/**
 * The straight-line body that passes a method's arguments (and {@code this}, for an instance
 * method) unchanged to a static method and returns its result: {@code <xload 0>; <xload 1>; ...;
 * invokestatic #methodref; <xreturn>}. No branches, so no StackMapTable is needed; the operand
 * stack holds at most every argument slot, or the returned value.
 */
final class DelegationBody {
  // opcodes (JVMS 6.5)
  private static final int ILOAD = 0x15, LLOAD = 0x16, FLOAD = 0x17, DLOAD = 0x18, ALOAD = 0x19;
  private static final int ILOAD_0 = 0x1a, LLOAD_0 = 0x1e, FLOAD_0 = 0x22, DLOAD_0 = 0x26;
  private static final int ALOAD_0 = 0x2a;
  private static final int IRETURN = 0xac,
      LRETURN = 0xad,
      FRETURN = 0xae,
      DRETURN = 0xaf,
      ARETURN = 0xb0,
      RETURN = 0xb1;
  static final int INVOKESTATIC = 0xb8;

  final byte[] code;
  final int maxStack;
  final int maxLocals;

  /**
   * @param isStatic whether the delegating method is static (else slot 0 is {@code this})
   * @param descriptor the delegating method's descriptor
   * @param methodref constant-pool index of the static target's Methodref
   */
  DelegationBody(boolean isStatic, String descriptor, int methodref) {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    int slot = 0;
    if (!isStatic) {
      load(b, ALOAD, ALOAD_0, slot++);
    }
    int i = 1;
    while (descriptor.charAt(i) != ')') {
      char t = descriptor.charAt(i);
      int end = typeEnd(descriptor, i);
      switch (t) {
        case 'J':
          load(b, LLOAD, LLOAD_0, slot);
          slot += 2;
          break;
        case 'D':
          load(b, DLOAD, DLOAD_0, slot);
          slot += 2;
          break;
        case 'F':
          load(b, FLOAD, FLOAD_0, slot++);
          break;
        case 'L':
        case '[':
          load(b, ALOAD, ALOAD_0, slot++);
          break;
        default: // Z B C S I
          load(b, ILOAD, ILOAD_0, slot++);
      }
      i = end;
    }
    b.write(INVOKESTATIC);
    b.write(methodref >>> 8);
    b.write(methodref);
    char r = descriptor.charAt(i + 1);
    int returnSlots = r == 'V' ? 0 : r == 'J' || r == 'D' ? 2 : 1;
    b.write(
        r == 'V'
            ? RETURN
            : r == 'J'
                ? LRETURN
                : r == 'D'
                    ? DRETURN
                    : r == 'F' ? FRETURN : r == 'L' || r == '[' ? ARETURN : IRETURN);
    code = b.toByteArray();
    maxLocals = slot;
    maxStack = Math.max(slot, returnSlots);
  }

  private static void load(ByteArrayOutputStream b, int op, int op0, int slot) {
    if (slot <= 3) {
      b.write(op0 + slot);
    } else if (slot <= 0xFF) {
      b.write(op);
      b.write(slot);
    } else {
      throw new PatchException("argument slot " + slot + " needs a wide load; not supported");
    }
  }

  /** Index just past the field type that starts at {@code i}. */
  private static int typeEnd(String d, int i) {
    while (d.charAt(i) == '[') {
      i++;
    }
    if (d.charAt(i) == 'L') {
      int semi = d.indexOf(';', i);
      if (semi < 0) {
        throw new PatchException("bad method descriptor " + d);
      }
      return semi + 1;
    }
    if ("ZBCSIJFD".indexOf(d.charAt(i)) < 0) {
      throw new PatchException("bad method descriptor " + d);
    }
    return i + 1;
  }
}
