package org.nvmnn.patcher;

import static org.junit.Assert.assertTrue;
import static org.nvmnn.patcher.NameNodePatch.*;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Comparator;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/** Shared fixtures: the real stock jar, scratch directories, a generated placeholder NvmHooks. */
final class TestSupport {
  private TestSupport() {}

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
   * stock method did) and a MANIFEST that the patcher must skip.
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
    cw.visitEnd();
    return cw.toByteArray();
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
