package org.nvmnn.patcher;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Collects byte-level edits of one class file and writes the result: constant-pool entries are only
 * appended (so every existing index, in particular every index inside a copied or untouched {@code
 * Code} attribute, stays valid), whole attributes are replaced, and methods are appended after the
 * last one. Every other byte is copied verbatim.
 */
final class ClassFileEditor {
  private final ClassFile cf;
  private final byte[] stock;
  private int count; // next free constant-pool index == constant_pool_count
  private final ByteArrayOutputStream appended = new ByteArrayOutputStream();
  private final List<String> descriptions = new ArrayList<>();

  /** stock bytes {@code [offset, offset + length)} are replaced by {@code bytes} */
  private static final class Edit {
    final int length;
    final byte[] bytes;

    Edit(int length, byte[] bytes) {
      this.length = length;
      this.bytes = bytes;
    }
  }

  /** by stock offset */
  private final Map<Integer, Edit> edits = new TreeMap<>();

  private final ByteArrayOutputStream addedMethods = new ByteArrayOutputStream();
  private int addedMethodCount;

  ClassFileEditor(ClassFile cf) {
    this.cf = cf;
    this.stock = cf.bytes();
    this.count = cf.constantPoolCount;
  }

  /** human-readable description of each appended constant-pool entry */
  List<String> appendedConstants() {
    return Collections.unmodifiableList(descriptions);
  }

  int constantPoolCount() {
    return count;
  }

  int addedMethodCount() {
    return addedMethodCount;
  }

  // ---- constant pool ----

  /** An existing Utf8 entry with this value, or a new one. */
  int utf8(String value) {
    int existing = cf.findUtf8(value);
    if (existing != 0) {
      return existing;
    }
    ByteArrayOutputStream enc = new ByteArrayOutputStream();
    try {
      new DataOutputStream(enc).writeUTF(value); // modified UTF-8 with u2 length
    } catch (IOException e) {
      throw new PatchException("cannot encode " + value, e);
    }
    appended.write(ClassFile.UTF8);
    byte[] e = enc.toByteArray();
    appended.write(e, 0, e.length);
    descriptions.add("#" + count + " Utf8 " + value);
    return next();
  }

  /** Appends an entry whose info is a sequence of u2 values. */
  int add(int tag, String description, int... u2s) {
    appended.write(tag);
    for (int v : u2s) {
      u2(appended, v);
    }
    descriptions.add("#" + count + " " + description);
    return next();
  }

  /** Appends a CONSTANT_Class entry. */
  int classRef(String internalName) {
    return add(ClassFile.CLASS, "Class " + internalName, utf8(internalName));
  }

  /** Appends a NameAndType and a Methodref entry for {@code owner.name desc}. */
  int methodref(int classIndex, String owner, String name, String desc) {
    int n = utf8(name);
    int d = utf8(desc);
    int nat = add(ClassFile.NAME_AND_TYPE, "NameAndType " + name + ":" + desc, n, d);
    return add(ClassFile.METHODREF, "Methodref " + owner + "." + name, classIndex, nat);
  }

  private int next() {
    if (count >= 0xFFFF) {
      throw new PatchException("constant pool would overflow (" + (count + 1) + " entries)");
    }
    return count++;
  }

  // ---- members ----

  /** Replaces the whole attribute (header included) with {@code replacement}. */
  void replace(ClassFile.Attribute a, byte[] replacement) {
    if (edits.put(a.offset, new Edit(a.length, replacement)) != null) {
      throw new PatchException("attribute at offset " + a.offset + " replaced twice");
    }
  }

  /**
   * Appends a method that is a copy of {@code stock} (its attributes verbatim, its descriptor index
   * unchanged) with another name and other access flags.
   */
  void addCopy(ClassFile.Member stock, int nameIndex, int accessFlags) {
    byte[] raw = stock.raw();
    u2(addedMethods, accessFlags);
    u2(addedMethods, nameIndex);
    addedMethods.write(raw, 4, raw.length - 4); // descriptor_index, attributes_count, attributes
    addedMethodCount++;
  }

  /** A Code attribute without exception handlers and sub-attributes. */
  static byte[] codeAttribute(int nameIndex, int maxStack, int maxLocals, byte[] code) {
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

  // ---- output ----

  /** The edited class file; well-formed or a {@link PatchException}. */
  byte[] toBytes() {
    Map<Integer, Edit> all = new TreeMap<>(edits);
    if (addedMethodCount > 0) {
      int methods = cf.methods.size() + addedMethodCount;
      if (methods > 0xFFFF) {
        throw new PatchException("too many methods (" + methods + ")");
      }
      ByteArrayOutputStream c = new ByteArrayOutputStream();
      u2(c, methods);
      all.put(cf.methodsCountOffset, new Edit(2, c.toByteArray()));
      // inserted after the last method, i.e. before attributes_count
      all.put(cf.attributesCountOffset, new Edit(0, addedMethods.toByteArray()));
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(stock.length + 1024);
    out.write(stock, 0, cf.constantPoolCountOffset);
    u2(out, count);
    out.write(
        stock, cf.constantPoolCountOffset + 2, cf.constantPoolEnd - cf.constantPoolCountOffset - 2);
    byte[] pool = appended.toByteArray();
    out.write(pool, 0, pool.length);
    int from = cf.constantPoolEnd;
    for (Map.Entry<Integer, Edit> e : all.entrySet()) {
      int at = e.getKey();
      Edit edit = e.getValue();
      if (at < from) {
        throw new PatchException("overlapping edits at offset " + at);
      }
      out.write(stock, from, at - from);
      out.write(edit.bytes, 0, edit.bytes.length);
      from = at + edit.length;
    }
    out.write(stock, from, stock.length - from);
    byte[] result = out.toByteArray();
    ClassFile.parse(result); // must still be well-formed
    return result;
  }

  static void u2(ByteArrayOutputStream b, int v) {
    b.write(v >>> 8);
    b.write(v);
  }

  static void u4(ByteArrayOutputStream b, int v) {
    u2(b, v >>> 16);
    u2(b, v);
  }
}
