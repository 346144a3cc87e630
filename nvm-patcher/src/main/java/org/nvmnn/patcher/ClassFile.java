package org.nvmnn.patcher;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * A read-only, offset-based view of a class file (JVMS chapter 4): where every constant-pool entry,
 * field, method and attribute starts and ends in the original byte array. Nothing is decoded beyond
 * what is needed to name things, so raw bytes can be compared and spliced exactly.
 */
public final class ClassFile {

  public static final int MAGIC = 0xCAFEBABE;

  // constant-pool tags (JVMS 4.4)
  public static final int UTF8 = 1,
      INTEGER = 3,
      FLOAT = 4,
      LONG = 5,
      DOUBLE = 6,
      CLASS = 7,
      STRING = 8,
      FIELDREF = 9,
      METHODREF = 10,
      INTERFACE_METHODREF = 11,
      NAME_AND_TYPE = 12,
      METHOD_HANDLE = 15,
      METHOD_TYPE = 16,
      DYNAMIC = 17,
      INVOKE_DYNAMIC = 18,
      MODULE = 19,
      PACKAGE = 20;

  /** One attribute: {@code [offset, offset + length)} covers its 6-byte header and its info. */
  public static final class Attribute {
    public final String name;
    public final int nameIndex;
    public final int offset;
    public final int length;

    /** offset of the attribute's info (after the 6-byte header) */
    public final int infoOffset;

    private final byte[] bytes;

    Attribute(byte[] bytes, String name, int nameIndex, int offset, int infoLength) {
      this.bytes = bytes;
      this.name = name;
      this.nameIndex = nameIndex;
      this.offset = offset;
      this.infoOffset = offset + 6;
      this.length = 6 + infoLength;
    }

    /** The attribute's raw bytes, header included. */
    public byte[] raw() {
      return Arrays.copyOfRange(bytes, offset, offset + length);
    }
  }

  /** A field_info or method_info structure. */
  public static final class Member {
    public final int offset;
    public final int length;
    public final int accessFlags;
    public final String name;
    public final String descriptor;
    public final List<Attribute> attributes;
    private final byte[] bytes;

    Member(
        byte[] bytes,
        int offset,
        int length,
        int accessFlags,
        String name,
        String descriptor,
        List<Attribute> attributes) {
      this.bytes = bytes;
      this.offset = offset;
      this.length = length;
      this.accessFlags = accessFlags;
      this.name = name;
      this.descriptor = descriptor;
      this.attributes = Collections.unmodifiableList(attributes);
    }

    public String key() {
      return name + descriptor;
    }

    /** The member's raw bytes (access flags, indices and all attributes). */
    public byte[] raw() {
      return Arrays.copyOfRange(bytes, offset, offset + length);
    }

    /** The only attribute with this name; null if none; an error if several. */
    public Attribute attribute(String attributeName) {
      Attribute found = null;
      for (Attribute a : attributes) {
        if (a.name.equals(attributeName)) {
          if (found != null) {
            throw new PatchException(key() + " has more than one " + attributeName + " attribute");
          }
          found = a;
        }
      }
      return found;
    }
  }

  private final byte[] bytes;
  public final int minorVersion;
  public final int majorVersion;

  /** constant_pool_count as stored (number of slots + 1) */
  public final int constantPoolCount;

  /** offset of the constant_pool_count field (8) */
  public final int constantPoolCountOffset;

  /** offset just past the last constant-pool entry (= offset of access_flags) */
  public final int constantPoolEnd;

  private final int[] cpOffset; // by index; 0 for unusable slots
  private final int[] cpTag;
  public final int accessFlags;
  public final int thisClassIndex;
  public final int superClassIndex;

  /** [offset, end) of access_flags, this_class, super_class, interfaces_count, interfaces */
  public final int headerEnd;

  public final int fieldsCountOffset;
  public final List<Member> fields;
  public final int methodsCountOffset;
  public final List<Member> methods;
  public final int attributesCountOffset;
  public final List<Attribute> attributes;

  private int p; // parse cursor

  private ClassFile(byte[] bytes) {
    this.bytes = bytes;
    if (bytes.length < 10 || s4(0) != MAGIC) {
      throw new PatchException("not a class file (bad magic)");
    }
    minorVersion = u2(4);
    majorVersion = u2(6);
    constantPoolCountOffset = 8;
    constantPoolCount = u2(8);
    cpOffset = new int[constantPoolCount];
    cpTag = new int[constantPoolCount];
    p = 10;
    for (int i = 1; i < constantPoolCount; i++) {
      int tag = u1(p);
      cpOffset[i] = p;
      cpTag[i] = tag;
      p += 1 + entryInfoLength(tag, p);
      if (tag == LONG || tag == DOUBLE) {
        i++; // the next slot is unusable
      }
    }
    constantPoolEnd = p;
    accessFlags = u2(p);
    thisClassIndex = u2(p + 2);
    superClassIndex = u2(p + 4);
    int interfaces = u2(p + 6);
    p += 8 + 2 * interfaces;
    headerEnd = p;
    fieldsCountOffset = p;
    fields = readMembers();
    methodsCountOffset = p;
    methods = readMembers();
    attributesCountOffset = p;
    attributes = readAttributes();
    if (p != bytes.length) {
      throw new PatchException("class file has " + (bytes.length - p) + " trailing bytes");
    }
  }

  /** Parses a class file; throws {@link PatchException} if it is malformed. */
  public static ClassFile parse(byte[] bytes) {
    try {
      return new ClassFile(bytes);
    } catch (ArrayIndexOutOfBoundsException e) {
      throw new PatchException("truncated or malformed class file", e);
    }
  }

  public byte[] bytes() {
    return bytes.clone();
  }

  public int length() {
    return bytes.length;
  }

  /** Raw bytes of the constant-pool entries (without the count). */
  public byte[] constantPoolEntries() {
    return Arrays.copyOfRange(bytes, constantPoolCountOffset + 2, constantPoolEnd);
  }

  /** Raw bytes of access_flags .. interfaces. */
  public byte[] header() {
    return Arrays.copyOfRange(bytes, constantPoolEnd, headerEnd);
  }

  private int entryInfoLength(int tag, int at) {
    switch (tag) {
      case UTF8:
        return 2 + u2(at + 1);
      case INTEGER:
      case FLOAT:
      case FIELDREF:
      case METHODREF:
      case INTERFACE_METHODREF:
      case NAME_AND_TYPE:
      case DYNAMIC:
      case INVOKE_DYNAMIC:
        return 4;
      case LONG:
      case DOUBLE:
        return 8;
      case CLASS:
      case STRING:
      case METHOD_TYPE:
      case MODULE:
      case PACKAGE:
        return 2;
      case METHOD_HANDLE:
        return 3;
      default:
        throw new PatchException("bad constant-pool tag " + tag + " at offset " + at);
    }
  }

  private List<Member> readMembers() {
    int count = u2(p);
    p += 2;
    List<Member> list = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      int start = p;
      int access = u2(p);
      String name = utf8(u2(p + 2));
      String desc = utf8(u2(p + 4));
      p += 6;
      List<Attribute> attrs = readAttributes();
      list.add(new Member(bytes, start, p - start, access, name, desc, attrs));
    }
    return list;
  }

  private List<Attribute> readAttributes() {
    int count = u2(p);
    p += 2;
    List<Attribute> list = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      int nameIndex = u2(p);
      long len = s4(p + 2) & 0xFFFFFFFFL;
      if (len > bytes.length - p - 6) {
        throw new PatchException(
            "attribute length " + len + " at offset " + p + " runs past the end");
      }
      list.add(new Attribute(bytes, utf8(nameIndex), nameIndex, p, (int) len));
      p += 6 + (int) len;
    }
    return list;
  }

  // ---- constant pool ----

  /** Whether {@code index} names an entry (not 0, not past the end, not a long's second slot). */
  public boolean isEntry(int index) {
    return index > 0 && index < constantPoolCount && cpOffset[index] != 0;
  }

  public int tag(int index) {
    if (index <= 0 || index >= constantPoolCount || cpOffset[index] == 0) {
      throw new PatchException("bad constant-pool index " + index);
    }
    return cpTag[index];
  }

  private int expect(int index, int tag) {
    int actual = tag(index);
    if (actual != tag) {
      throw new PatchException(
          "constant-pool #" + index + " has tag " + actual + ", expected " + tag);
    }
    return cpOffset[index];
  }

  /** Decodes a CONSTANT_Utf8 entry (modified UTF-8). */
  public String utf8(int index) {
    int off = expect(index, UTF8);
    int len = u2(off + 1);
    try {
      return new DataInputStream(new ByteArrayInputStream(bytes, off + 1, 2 + len)).readUTF();
    } catch (IOException e) {
      throw new PatchException("bad modified UTF-8 in constant-pool #" + index, e);
    }
  }

  /** Internal name of a CONSTANT_Class entry. */
  public String className(int index) {
    return utf8(u2(expect(index, CLASS) + 1));
  }

  /** {owner, name, descriptor} of a Fieldref/Methodref/InterfaceMethodref entry. */
  public String[] memberRef(int index, int tag) {
    int off = expect(index, tag);
    int nat = expect(u2(off + 3), NAME_AND_TYPE);
    return new String[] {className(u2(off + 1)), utf8(u2(nat + 1)), utf8(u2(nat + 3))};
  }

  /** Index of the first CONSTANT_Utf8 entry with exactly this value, or 0. */
  public int findUtf8(String value) {
    for (int i = 1; i < constantPoolCount; i++) {
      if (cpOffset[i] != 0 && cpTag[i] == UTF8 && utf8(i).equals(value)) {
        return i;
      }
    }
    return 0;
  }

  public String thisClassName() {
    return className(thisClassIndex);
  }

  public Member method(String name, String descriptor) {
    Member found = null;
    for (Member m : methods) {
      if (m.name.equals(name) && m.descriptor.equals(descriptor)) {
        if (found != null) {
          throw new PatchException("duplicate method " + name + descriptor);
        }
        found = m;
      }
    }
    return found;
  }

  // ---- primitive readers ----

  int u1(int at) {
    return bytes[at] & 0xFF;
  }

  int u2(int at) {
    return ((bytes[at] & 0xFF) << 8) | (bytes[at + 1] & 0xFF);
  }

  int s4(int at) {
    return (u2(at) << 16) | u2(at + 2);
  }
}
