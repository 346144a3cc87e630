package org.nvmnn.patcher;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.nvmnn.patcher.NameNodePatch.*;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/** Shared fixtures: the real stock jar, scratch directories, a generated placeholder NvmHooks. */
final class TestSupport {
  private TestSupport() {}

  private static Path patched;
  private static JarPatcher.Summary summary;

  /** The real stock jar patched once per test JVM (with {@link #hooksDir} and resources). */
  static synchronized Path patchedJar() throws IOException {
    if (patched == null) {
      Path out = freshDir("out").resolve("hadoop-hdfs-2.7.3-nvm.jar");
      summary =
          JarPatcher.patch(
              stockJar(), Arrays.asList(hooksDir("hooks"), resourcesDir("resources")), out);
      System.out.println(summary);
      patched = out;
    }
    return patched;
  }

  /** What {@link #patchedJar()} printed. */
  static synchronized JarPatcher.Summary summary() throws IOException {
    patchedJar();
    return summary;
  }

  /** Every entry of a jar, in order. */
  static Map<String, byte[]> entries(Path jar) throws IOException {
    Map<String, byte[]> m = new LinkedHashMap<>();
    try (ZipFile z = new ZipFile(jar.toFile())) {
      for (Enumeration<? extends ZipEntry> en = z.entries(); en.hasMoreElements(); ) {
        ZipEntry e = en.nextElement();
        assertNull(
            "duplicate " + e.getName(),
            m.put(e.getName(), JarPatcher.readAll(z.getInputStream(e))));
      }
    }
    return m;
  }

  /** One class of a jar, parsed. */
  static ClassFile classFile(Path jar, String className) throws IOException {
    try (ZipFile z = new ZipFile(jar.toFile())) {
      ZipEntry e = z.getEntry(entry(className));
      assertNotNull(className + " not in " + jar, e);
      return ClassFile.parse(JarPatcher.readAll(z.getInputStream(e)));
    }
  }

  /** The stock jar with some entries replaced, written to {@code dir/name}. */
  static Path stockJarWith(String dir, String name, Map<String, byte[]> replaced)
      throws IOException {
    Map<String, byte[]> jar = entries(stockJar());
    for (Map.Entry<String, byte[]> e : replaced.entrySet()) {
      assertNotNull(e.getKey(), jar.put(e.getKey(), e.getValue()));
    }
    Path out = freshDir(dir).resolve(name);
    writeJar(out, jar);
    return out;
  }

  /**
   * Overwrites, in place, the CONSTANT_Utf8 entry {@code from} with {@code to} (same length, so
   * every offset stays put): renames everything that refers to it.
   */
  static byte[] renameUtf8(byte[] classBytes, String from, String to) {
    assertEquals(from.length(), to.length());
    byte[] b = classBytes.clone();
    byte[] pattern = utf8Entry(from);
    int at = indexOf(b, pattern);
    assertTrue("no Utf8 " + from, at >= 0);
    assertTrue("Utf8 " + from + " twice", indexOf(b, pattern, at + 1) < 0);
    byte[] replacement = utf8Entry(to);
    System.arraycopy(replacement, 0, b, at, replacement.length);
    ClassFile cf = ClassFile.parse(b);
    assertEquals(0, cf.findUtf8(from));
    return b;
  }

  private static byte[] utf8Entry(String s) {
    byte[] v = s.getBytes(StandardCharsets.UTF_8);
    byte[] e = new byte[3 + v.length];
    e[0] = ClassFile.UTF8;
    e[1] = (byte) (v.length >>> 8);
    e[2] = (byte) v.length;
    System.arraycopy(v, 0, e, 3, v.length);
    return e;
  }

  static int indexOf(byte[] b, byte[] pattern) {
    return indexOf(b, pattern, 0);
  }

  static int indexOf(byte[] b, byte[] pattern, int from) {
    outer:
    for (int i = from; i + pattern.length <= b.length; i++) {
      for (int j = 0; j < pattern.length; j++) {
        if (b[i + j] != pattern[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }

  static Path stockJar() {
    String p = System.getProperty("nvm.stock.jar");
    Path jar =
        p != null && !p.startsWith("${")
            ? Paths.get(p)
            : Paths.get(
                System.getProperty("user.home"),
                ".m2",
                "repository",
                "org",
                "apache",
                "hadoop",
                "hadoop-hdfs",
                "2.7.3",
                "hadoop-hdfs-2.7.3.jar");
    assertTrue("stock jar not found: " + jar, Files.isRegularFile(jar));
    return jar;
  }

  /** A fresh, empty directory under target/patcher-tests. */
  static Path freshDir(String name) throws IOException {
    String base = System.getProperty("nvm.test.dir", "target/patcher-tests");
    Path d = Paths.get(base, name).toAbsolutePath();
    deleteRecursively(d);
    Files.createDirectories(d);
    return d;
  }

  static void deleteRecursively(Path d) throws IOException {
    if (!Files.exists(d)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(d)) {
      for (Path p : (Iterable<Path>) walk.sorted(Comparator.reverseOrder())::iterator) {
        Files.delete(p);
      }
    }
  }

  /**
   * A classes dir holding a placeholder NvmHooks (generated here with ASM: each hook does what the
   * stock method did, the rename-and-delegate ones by calling the stock copy) and a MANIFEST that
   * the patcher must skip.
   */
  static Path hooksDir(String name) throws IOException {
    Path d = freshDir(name);
    write(d.resolve(HOOKS_ENTRY), placeholderHooks());
    write(
        d.resolve("META-INF/MANIFEST.MF"),
        "Manifest-Version: 1.0\r\n\r\n".getBytes(StandardCharsets.UTF_8));
    return d;
  }

  /**
   * A resources dir like the one hadoop-hdfs-nvm will pass: a native library and a default config.
   */
  static Path resourcesDir(String name) throws IOException {
    Path d = freshDir(name);
    write(d.resolve("native/Linux-amd64/libnvmnn.so"), new byte[] {0x7f, 'E', 'L', 'F', 1, 2, 3});
    write(
        d.resolve("hdfs-nvm-default.xml"),
        "<?xml version=\"1.0\"?>\n<configuration/>\n".getBytes(StandardCharsets.UTF_8));
    return d;
  }

  static void write(Path p, byte[] data) throws IOException {
    Files.createDirectories(p.getParent());
    Files.write(p, data);
  }

  static byte[] placeholderHooks() {
    return placeholderHooks(true);
  }

  /** With {@code withDelegations} false, only the two hooks of the replaced bodies. */
  static byte[] placeholderHooks(boolean withDelegations) {
    ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS);
    cw.visit(
        Opcodes.V1_8,
        Opcodes.ACC_PUBLIC | Opcodes.ACC_FINAL | Opcodes.ACC_SUPER,
        HOOKS,
        null,
        "java/lang/Object",
        null);
    MethodVisitor mv =
        cw.visitMethod(
            Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC,
            LOAD_NAMESYSTEM,
            HOOK_LOAD_NAMESYSTEM_DESC,
            null,
            new String[] {"java/io/IOException"});
    mv.visitCode();
    mv.visitVarInsn(Opcodes.ALOAD, 1);
    mv.visitMethodInsn(
        Opcodes.INVOKESTATIC, FS_NAMESYSTEM, LOAD_FROM_DISK, LOAD_FROM_DISK_DESC, false);
    mv.visitInsn(Opcodes.ARETURN);
    mv.visitMaxs(0, 0);
    mv.visitEnd();
    mv =
        cw.visitMethod(
            Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC,
            CREATE_RPC_SERVER,
            HOOK_CREATE_RPC_SERVER_DESC,
            null,
            new String[] {"java/io/IOException"});
    mv.visitCode();
    mv.visitTypeInsn(Opcodes.NEW, RPC_SERVER);
    mv.visitInsn(Opcodes.DUP);
    mv.visitVarInsn(Opcodes.ALOAD, 1);
    mv.visitVarInsn(Opcodes.ALOAD, 0);
    mv.visitMethodInsn(Opcodes.INVOKESPECIAL, RPC_SERVER, "<init>", RPC_SERVER_INIT_DESC, false);
    mv.visitInsn(Opcodes.ARETURN);
    mv.visitMaxs(0, 0);
    mv.visitEnd();
    if (withDelegations) {
      for (RenameAndDelegate d : DELEGATIONS) {
        delegateToStockCopy(cw, d);
      }
    }
    cw.visitEnd();
    return cw.toByteArray();
  }

  /** {@code public static hook(args) { return [owner.]stockCopy(args); }} */
  private static void delegateToStockCopy(ClassWriter cw, RenameAndDelegate d) {
    MethodVisitor mv =
        cw.visitMethod(
            Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC,
            d.hookName,
            d.hookDescriptor,
            null,
            new String[] {"java/io/IOException"});
    mv.visitCode();
    Type[] args = Type.getArgumentTypes(d.hookDescriptor);
    int slot = 0;
    for (Type t : args) {
      mv.visitVarInsn(t.getOpcode(Opcodes.ILOAD), slot);
      slot += t.getSize();
    }
    mv.visitMethodInsn(
        d.isStatic() ? Opcodes.INVOKESTATIC : Opcodes.INVOKEVIRTUAL,
        d.owner,
        d.stockCopyName,
        d.descriptor,
        false);
    mv.visitInsn(Type.getReturnType(d.hookDescriptor).getOpcode(Opcodes.IRETURN));
    mv.visitMaxs(0, 0);
    mv.visitEnd();
  }

  /** Writes a jar with the given entries, in map order. */
  static void writeJar(Path jar, Map<String, byte[]> entries) throws IOException {
    try (OutputStream os = Files.newOutputStream(jar);
        ZipOutputStream z = new ZipOutputStream(os)) {
      for (Map.Entry<String, byte[]> e : entries.entrySet()) {
        z.putNextEntry(new ZipEntry(e.getKey()));
        z.write(e.getValue());
        z.closeEntry();
      }
    }
  }
}
