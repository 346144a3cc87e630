package org.nvmnn.patcher;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import java.util.zip.Deflater;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;

/**
 * Builds the drop-in jar: every entry of the stock hadoop-hdfs jar, in the same order and with
 * identical contents (the stock MANIFEST included), except the {@link
 * NameNodePatch#PATCHED_CLASSES} ({@code NameNode.class}, {@code SecondaryNameNode.class}), which
 * go through {@link ClassFileSplicer}; then our entries (classes, native library, default config).
 * The output is deterministic (stock entries keep their stock time, ours get the stock
 * NameNode.class time, directory walks are sorted) and is verified with {@link PatchVerifier}
 * before it replaces the output path.
 *
 * <pre>
 * JarPatcher &lt;stock hadoop-hdfs jar&gt; &lt;our classes dir or jar&gt; &lt;output jar&gt; [&lt;extra resources dir or jar&gt;...]
 * </pre>
 *
 * Failures are thrown (never {@code System.exit}), so that under {@code exec:java} they fail the
 * Maven build instead of killing Maven.
 */
public final class JarPatcher {

  private JarPatcher() {}

  /** The outcome of a successful patch. */
  public static final class Summary {
    /** one per patched class, in stock-jar order */
    public final List<ClassFileSplicer.Result> splices;

    public final PatchVerifier.Report report;

    Summary(List<ClassFileSplicer.Result> splices, PatchVerifier.Report report) {
      this.splices = Collections.unmodifiableList(splices);
      this.report = report;
    }

    /** The splice of this class (internal name); null if none. */
    public ClassFileSplicer.Result splice(String className) {
      for (ClassFileSplicer.Result r : splices) {
        if (r.className.equals(className)) {
          return r;
        }
      }
      return null;
    }

    @Override
    public String toString() {
      StringBuilder s = new StringBuilder();
      for (ClassFileSplicer.Result r : splices) {
        s.append(r.summary()).append('\n');
      }
      return s.append(report).toString();
    }
  }

  public static void main(String[] args) throws IOException {
    if (args.length < 3) {
      throw new IllegalArgumentException(
          "usage: JarPatcher <stock hadoop-hdfs jar> <our classes dir or jar>"
              + " <output jar> [<extra resources dir or jar>...]");
    }
    List<Path> ours = new ArrayList<>();
    ours.add(Paths.get(args[1]));
    for (int i = 3; i < args.length; i++) {
      ours.add(Paths.get(args[i]));
    }
    Summary s = patch(Paths.get(args[0]), ours, Paths.get(args[2]));
    for (ClassFileSplicer.Result r : s.splices) {
      System.out.println("[nvm-patcher] " + r.summary());
    }
    System.out.println("[nvm-patcher] " + s.report);
    System.out.println("[nvm-patcher] wrote " + args[2]);
  }

  /**
   * Writes {@code output} from {@code stockJar} plus the entries of {@code ours} (directories or
   * jars, in this order), verifies it, and only then moves it into place.
   */
  public static Summary patch(Path stockJar, List<Path> ours, Path output) throws IOException {
    Path dir = output.toAbsolutePath().getParent();
    if (dir != null) {
      Files.createDirectories(dir);
    }
    Path tmp = (dir != null ? dir : Paths.get(".")).resolve(output.getFileName() + ".tmp");
    boolean done = false;
    try {
      List<ClassFileSplicer.Result> splices = write(stockJar, ours, tmp);
      PatchVerifier.Report report = PatchVerifier.verify(stockJar, tmp);
      report.assertOk();
      try {
        Files.move(
            tmp, output, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, output, StandardCopyOption.REPLACE_EXISTING);
      }
      done = true;
      return new Summary(splices, report);
    } finally {
      if (!done) {
        Files.deleteIfExists(tmp);
      }
    }
  }

  private static List<ClassFileSplicer.Result> write(Path stockJar, List<Path> ours, Path out)
      throws IOException {
    List<ClassFileSplicer.Result> splices = new ArrayList<>();
    try (ZipFile stock = new ZipFile(stockJar.toFile());
        OutputStream fos = Files.newOutputStream(out);
        ZipOutputStream zos = new ZipOutputStream(fos)) {
      zos.setLevel(Deflater.DEFAULT_COMPRESSION);
      Set<String> names = new LinkedHashSet<>();
      Map<String, String> patched = new LinkedHashMap<>(); // entry -> class
      for (String c : NameNodePatch.PATCHED_CLASSES) {
        String entry = NameNodePatch.entry(c);
        if (stock.getEntry(entry) == null) {
          throw new PatchException(
              stockJar + " has no " + entry + "; is this hadoop-hdfs-2.7.3.jar?");
        }
        patched.put(entry, c);
      }
      long ourTime = stock.getEntry(NameNodePatch.NAME_NODE_ENTRY).getTime();

      for (Enumeration<? extends ZipEntry> en = stock.entries(); en.hasMoreElements(); ) {
        ZipEntry e = en.nextElement();
        if (!names.add(e.getName())) {
          throw new PatchException("stock jar has a duplicate entry " + e.getName());
        }
        byte[] data = readAll(stock.getInputStream(e));
        String patchedClass = patched.get(e.getName());
        if (patchedClass != null) {
          ClassFileSplicer.Result splice = ClassFileSplicer.splice(patchedClass, data);
          splices.add(splice);
          data = splice.bytes;
        }
        put(zos, e.getName(), e.getTime(), data, e.getComment());
      }

      Set<String> stockNames = new LinkedHashSet<>(names);
      for (Path source : ours) {
        for (Map.Entry<String, byte[]> e : readSource(source).entrySet()) {
          String name = e.getKey();
          if (skipped(name)) {
            continue;
          }
          boolean isDir = name.endsWith("/");
          if (names.contains(name)) {
            if (isDir) {
              continue; // a directory the stock jar (or an earlier source) already has
            }
            throw new PatchException(
                stockNames.contains(name)
                    ? "our entry "
                        + name
                        + " (from "
                        + source
                        + ") would shadow the stock entry of "
                        + "the same name; rename or move it"
                    : "entry "
                        + name
                        + " appears twice among our inputs (again in "
                        + source
                        + ")");
          }
          names.add(name);
          put(zos, name, ourTime, e.getValue(), null);
        }
      }
      String comment = stock.getComment();
      if (comment != null) {
        zos.setComment(comment);
      }
    }
    return splices;
  }

  /** Entries of ours that never go into the output. */
  static boolean skipped(String name) {
    String upper = name.toUpperCase(Locale.ROOT);
    if (!upper.startsWith("META-INF/") || upper.indexOf('/', "META-INF/".length()) >= 0) {
      return false;
    }
    return upper.equals("META-INF/MANIFEST.MF")
        || upper.equals("META-INF/INDEX.LIST")
        || upper.endsWith(".SF")
        || upper.endsWith(".RSA")
        || upper.endsWith(".DSA")
        || upper.endsWith(".EC");
  }

  private static void put(ZipOutputStream zos, String name, long time, byte[] data, String comment)
      throws IOException {
    ZipEntry e = new ZipEntry(name);
    e.setTime(time);
    if (comment != null) {
      e.setComment(comment);
    }
    if (name.endsWith("/")) {
      if (data.length != 0) {
        throw new PatchException("directory entry " + name + " has contents");
      }
      e.setMethod(ZipEntry.STORED);
      e.setSize(0);
      e.setCompressedSize(0);
      e.setCrc(new CRC32().getValue());
    } else {
      e.setMethod(ZipEntry.DEFLATED);
    }
    zos.putNextEntry(e);
    zos.write(data);
    zos.closeEntry();
  }

  /** Entries of a directory (sorted, directories before their contents) or of a jar (in order). */
  static Map<String, byte[]> readSource(Path source) throws IOException {
    Map<String, byte[]> entries = new LinkedHashMap<>();
    if (Files.isDirectory(source)) {
      List<Path> paths;
      try (Stream<Path> walk = Files.walk(source)) {
        paths = walk.filter(p -> !p.equals(source)).collect(Collectors.toList());
      }
      List<String> names = new ArrayList<>();
      Map<String, Path> byName = new LinkedHashMap<>();
      for (Path p : paths) {
        String rel = source.relativize(p).toString().replace(File.separatorChar, '/');
        if (Files.isDirectory(p)) {
          rel += "/";
        }
        names.add(rel);
        byName.put(rel, p);
      }
      Collections.sort(names); // "a/" sorts before "a/b": directories precede their contents
      for (String n : names) {
        entries.put(n, n.endsWith("/") ? new byte[0] : Files.readAllBytes(byName.get(n)));
      }
    } else if (Files.isRegularFile(source)) {
      try (ZipFile z = new ZipFile(source.toFile())) {
        for (Enumeration<? extends ZipEntry> en = z.entries(); en.hasMoreElements(); ) {
          ZipEntry e = en.nextElement();
          if (entries.put(e.getName(), readAll(z.getInputStream(e))) != null) {
            throw new PatchException(source + " has a duplicate entry " + e.getName());
          }
        }
      }
    } else {
      throw new PatchException("input " + source + " is neither a directory nor a jar");
    }
    return entries;
  }

  static byte[] readAll(InputStream in) throws IOException {
    try (InputStream i = in) {
      ByteArrayOutputStream b = new ByteArrayOutputStream();
      byte[] buf = new byte[16384];
      for (int n; (n = i.read(buf)) > 0; ) {
        b.write(buf, 0, n);
      }
      return b.toByteArray();
    }
  }
}
