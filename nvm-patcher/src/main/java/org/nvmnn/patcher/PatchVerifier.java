package org.nvmnn.patcher;

import static org.nvmnn.patcher.NameNodePatch.*;

import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Enumeration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * Proves that a patched jar is the stock jar plus exactly the intended change:
 *
 * <ol type="a">
 *   <li>every stock entry is present, in the stock order, with byte-identical contents, except
 *       {@code NameNode.class} and {@code SecondaryNameNode.class};
 *   <li>in each of those two the constant pool only grew at the end; exactly the {@code Code}
 *       attributes of the patched methods differ ({@code NameNode}: loadNamesystem,
 *       createRpcServer, doRollback, doRecovery, startHttpServer; {@code SecondaryNameNode}:
 *       initialize), every other attribute of those methods is byte-identical; exactly the stock
 *       copies were added after the last method ({@code NameNode}: stockDoRollback,
 *       stockDoRecovery, stockStartHttpServer; {@code SecondaryNameNode}: stockInitialize), each
 *       with the stock method's descriptor and attributes byte for byte, and the stock access flags
 *       made package-private and synthetic; every other method, every field and every class
 *       attribute is byte-identical ({@link ClassComparison});
 *   <li>ASM, decoding independently, sees each new body call its {@code NvmHooks} method and
 *       nothing else, and each stock copy decode exactly as the stock method;
 *   <li>the added entries are listed; {@code NvmHooks.class} must be one of them and must declare
 *       the six static hooks.
 * </ol>
 *
 * Usable from tests of other modules ({@link #verify}) and from the command line ({@code
 * PatchVerifier <stock jar> <patched jar>}; a violation is thrown, i.e. exit status 1).
 */
public final class PatchVerifier {

  /** The instructions ASM must see in the patched loadNamesystem. */
  public static final List<String> EXPECTED_LOAD_NAMESYSTEM =
      list(
          "ALOAD 0",
          "ALOAD 0",
          "ALOAD 1",
          "INVOKESTATIC " + HOOKS + "." + LOAD_NAMESYSTEM + " " + HOOK_LOAD_NAMESYSTEM_DESC,
          "PUTFIELD " + NAME_NODE + "." + NAMESYSTEM_FIELD + " " + NAMESYSTEM_FIELD_DESC,
          "RETURN");

  /** The instructions ASM must see in the patched createRpcServer. */
  public static final List<String> EXPECTED_CREATE_RPC_SERVER =
      list(
          "ALOAD 0",
          "ALOAD 1",
          "INVOKESTATIC " + HOOKS + "." + CREATE_RPC_SERVER + " " + HOOK_CREATE_RPC_SERVER_DESC,
          "ARETURN");

  /** The instructions ASM must see in the patched NameNode.doRollback. */
  public static final List<String> EXPECTED_DO_ROLLBACK =
      list(
          "ALOAD 0",
          "ILOAD 1",
          "INVOKESTATIC " + HOOKS + "." + DO_ROLLBACK + " " + DO_ROLLBACK_DESC,
          "IRETURN");

  /** The instructions ASM must see in the patched NameNode.doRecovery. */
  public static final List<String> EXPECTED_DO_RECOVERY =
      list(
          "ALOAD 0",
          "ALOAD 1",
          "INVOKESTATIC " + HOOKS + "." + DO_RECOVERY + " " + DO_RECOVERY_DESC,
          "RETURN");

  /** The instructions ASM must see in the patched NameNode.startHttpServer. */
  public static final List<String> EXPECTED_START_HTTP_SERVER =
      list(
          "ALOAD 0",
          "ALOAD 1",
          "INVOKESTATIC " + HOOKS + "." + START_HTTP_SERVER + " " + HOOK_START_HTTP_SERVER_DESC,
          "RETURN");

  /** The instructions ASM must see in the patched SecondaryNameNode.initialize. */
  public static final List<String> EXPECTED_INITIALIZE =
      list(
          "ALOAD 0",
          "ALOAD 1",
          "ALOAD 2",
          "INVOKESTATIC "
              + HOOKS
              + "."
              + HOOK_INITIALIZE_SECONDARY
              + " "
              + HOOK_INITIALIZE_SECONDARY_DESC,
          "RETURN");

  /** A method whose Code attribute the patch replaces, and what ASM must see in it. */
  static final class NewBody {
    final String owner, name, descriptor;
    final List<String> instructions;
    final int maxStack, maxLocals;

    NewBody(String owner, String name, String desc, List<String> insns, int stack, int locals) {
      this.owner = owner;
      this.name = name;
      this.descriptor = desc;
      this.instructions = insns;
      this.maxStack = stack;
      this.maxLocals = locals;
    }
  }

  static final List<NewBody> NEW_BODIES =
      Collections.unmodifiableList(
          Arrays.asList(
              new NewBody(
                  NAME_NODE, LOAD_NAMESYSTEM, LOAD_NAMESYSTEM_DESC, EXPECTED_LOAD_NAMESYSTEM, 3, 2),
              new NewBody(
                  NAME_NODE,
                  CREATE_RPC_SERVER,
                  CREATE_RPC_SERVER_DESC,
                  EXPECTED_CREATE_RPC_SERVER,
                  2,
                  2),
              new NewBody(NAME_NODE, DO_ROLLBACK, DO_ROLLBACK_DESC, EXPECTED_DO_ROLLBACK, 2, 2),
              new NewBody(NAME_NODE, DO_RECOVERY, DO_RECOVERY_DESC, EXPECTED_DO_RECOVERY, 2, 2),
              new NewBody(
                  NAME_NODE,
                  START_HTTP_SERVER,
                  START_HTTP_SERVER_DESC,
                  EXPECTED_START_HTTP_SERVER,
                  2,
                  2),
              new NewBody(
                  SECONDARY_NAME_NODE, INITIALIZE, INITIALIZE_DESC, EXPECTED_INITIALIZE, 3, 3)));

  private static final int MAX_LISTED = 20;

  private PatchVerifier() {}

  private static List<String> list(String... s) {
    return Collections.unmodifiableList(Arrays.asList(s));
  }

  /** The findings for one patched class. */
  public static final class ClassReport {
    /** internal name */
    public final String className;

    /** methods of the stock class */
    public int methods;

    public int constantPoolAdded;

    /** names of the stock methods whose Code attribute (only) differs */
    public final List<String> changedMethods = new ArrayList<>();

    /** names of the methods added after the stock ones (each a verified stock copy) */
    public final List<String> addedMethods = new ArrayList<>();

    ClassReport(String className) {
      this.className = className;
    }

    @Override
    public String toString() {
      return entry(simpleName(className))
          + ": "
          + changedMethods.size()
          + " of "
          + methods
          + " methods changed ("
          + String.join(", ", changedMethods)
          + "), "
          + addedMethods.size()
          + " added ("
          + String.join(", ", addedMethods)
          + "), constant pool +"
          + constantPoolAdded
          + " entries appended";
    }
  }

  /** The verifier's findings. */
  public static final class Report {
    public int stockEntries;
    public int identicalStockEntries;

    /** one per patched class, in {@link NameNodePatch#PATCHED_CLASSES} order */
    public final List<ClassReport> classes = new ArrayList<>();

    /** all classes' changed methods as {@code Class.method}, e.g. {@code NameNode.doRollback} */
    public final List<String> changedMethods = new ArrayList<>();

    /** all classes' added methods as {@code Class.method}, e.g. {@code NameNode.stockDoRollback} */
    public final List<String> addedMethods = new ArrayList<>();

    public final List<String> addedEntries = new ArrayList<>();
    public final List<String> violations = new ArrayList<>();

    public boolean ok() {
      return violations.isEmpty();
    }

    void violation(String v) {
      violations.add(v);
    }

    /** The report of one patched class (internal name); null if it was not examined. */
    public ClassReport classReport(String className) {
      for (ClassReport c : classes) {
        if (c.className.equals(className)) {
          return c;
        }
      }
      return null;
    }

    /** Throws a {@link PatchException} listing every violation. */
    public void assertOk() {
      if (!ok()) {
        throw new PatchException(
            "patched jar verification failed ("
                + violations.size()
                + " violation(s)):\n  "
                + String.join("\n  ", violations));
      }
    }

    @Override
    public String toString() {
      StringBuilder s = new StringBuilder();
      s.append(identicalStockEntries)
          .append(" of ")
          .append(stockEntries)
          .append(" stock entries identical (all in stock order); ");
      for (ClassReport c : classes) {
        s.append(c).append("; ");
      }
      s.append(addedEntries.size()).append(" entries added: ");
      List<String> shown =
          addedEntries.size() <= MAX_LISTED ? addedEntries : addedEntries.subList(0, MAX_LISTED);
      s.append(shown);
      if (shown.size() < addedEntries.size()) {
        s.append(" (+").append(addedEntries.size() - shown.size()).append(" more)");
      }
      s.append(ok() ? " -- OK" : " -- " + violations.size() + " VIOLATION(S): " + violations);
      return s.toString();
    }
  }

  public static void main(String[] args) throws IOException {
    if (args.length != 2) {
      throw new IllegalArgumentException(
          "usage: PatchVerifier <stock hadoop-hdfs jar> <patched jar>");
    }
    Report r = verify(Paths.get(args[0]), Paths.get(args[1]));
    System.out.println(r);
    r.assertOk();
  }

  /** Compares the two jars; never throws for a violation, see {@link Report#assertOk()}. */
  public static Report verify(Path stockJar, Path patchedJar) throws IOException {
    Report r = new Report();
    try (ZipFile stock = new ZipFile(stockJar.toFile());
        ZipFile patched = new ZipFile(patchedJar.toFile())) {
      List<String> stockNames = names(stock, r, "stock");
      List<String> patchedNames = names(patched, r, "patched");
      r.stockEntries = stockNames.size();
      Map<String, String> patchedClasses = new LinkedHashMap<>(); // entry -> class
      for (String c : PATCHED_CLASSES) {
        patchedClasses.put(entry(c), c);
      }

      // (a) stock entries: present, same order, same bytes
      int orderErrors = 0;
      for (int i = 0; i < stockNames.size(); i++) {
        String n = stockNames.get(i);
        if ((i >= patchedNames.size() || !patchedNames.get(i).equals(n))
            && orderErrors++ < MAX_LISTED) {
          r.violation(
              "entry #"
                  + i
                  + " is "
                  + (i < patchedNames.size() ? patchedNames.get(i) : "missing")
                  + ", stock has "
                  + n);
        }
      }
      Map<String, byte[][]> classBytes = new LinkedHashMap<>(); // class -> {stock, patched}
      int contentErrors = 0;
      for (String n : stockNames) {
        ZipEntry pe = patched.getEntry(n);
        if (pe == null) {
          r.violation("stock entry " + n + " is missing");
          continue;
        }
        byte[] a = JarPatcher.readAll(stock.getInputStream(stock.getEntry(n)));
        byte[] b = JarPatcher.readAll(patched.getInputStream(pe));
        if (patchedClasses.containsKey(n)) {
          classBytes.put(patchedClasses.get(n), new byte[][] {a, b});
        } else if (Arrays.equals(a, b)) {
          r.identicalStockEntries++;
        } else if (contentErrors++ < MAX_LISTED) {
          r.violation("stock entry " + n + " differs (" + a.length + " vs " + b.length + " bytes)");
        }
      }
      if (contentErrors > MAX_LISTED) {
        r.violation((contentErrors - MAX_LISTED) + " more stock entries differ");
      }

      // (d) added entries
      Set<String> stockSet = new HashSet<>(stockNames);
      for (String n : patchedNames) {
        if (!stockSet.contains(n)) {
          r.addedEntries.add(n);
        }
      }

      // (b), (c) each patched class: raw, member by member; then as ASM decodes it
      for (String c : PATCHED_CLASSES) {
        byte[][] sp = classBytes.get(c);
        if (sp == null) {
          r.violation(entry(c) + " is missing from the stock or the patched jar");
          continue;
        }
        ClassReport cr = new ClassReport(c);
        r.classes.add(cr);
        try {
          ClassComparison.compare(
              ClassFile.parse(sp[0]), ClassFile.parse(sp[1]), newBodies(c).keySet(), cr, r);
        } catch (PatchException e) {
          r.violation("cannot parse " + entry(simpleName(c)) + ": " + e.getMessage());
          continue;
        }
        checkBodiesWithAsm(c, sp[0], sp[1], r);
      }

      // (d) the hooks class
      ZipEntry hooks = patched.getEntry(HOOKS_ENTRY);
      if (hooks == null || !r.addedEntries.contains(HOOKS_ENTRY)) {
        r.violation(
            HOOKS_ENTRY
                + " is not among the added entries; the patched NameNode would fail with "
                + "NoClassDefFoundError");
      } else {
        checkHooksClass(JarPatcher.readAll(patched.getInputStream(hooks)), r);
      }
    }
    return r;
  }

  private static List<String> names(ZipFile z, Report r, String which) {
    List<String> names = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (Enumeration<? extends ZipEntry> en = z.entries(); en.hasMoreElements(); ) {
      String n = en.nextElement().getName();
      if (!seen.add(n)) {
        r.violation(which + " jar has a duplicate entry " + n);
      }
      names.add(n);
    }
    return names;
  }

  /** The patched methods of one class, by name + descriptor. */
  private static Map<String, NewBody> newBodies(String className) {
    Map<String, NewBody> m = new LinkedHashMap<>();
    for (NewBody b : NEW_BODIES) {
      if (b.owner.equals(className)) {
        m.put(b.name + b.descriptor, b);
      }
    }
    return m;
  }

  static void checkBodiesWithAsm(
      String className, byte[] stockClass, byte[] patchedClass, Report r) {
    String cls = simpleName(className);
    Map<String, MethodListing.Method> methods, stockMethods;
    try {
      methods = MethodListing.of(patchedClass);
      stockMethods = MethodListing.of(stockClass);
    } catch (PatchException e) {
      r.violation(entry(cls) + ": " + e.getMessage());
      return;
    }
    int inClassFile = ClassFile.parse(patchedClass).methods.size();
    if (methods.size() != inClassFile) {
      r.violation(
          entry(cls)
              + ": ASM sees "
              + methods.size()
              + " methods, the class file has "
              + inClassFile);
    }
    for (NewBody b : newBodies(className).values()) {
      checkBody(cls, methods.get(b.name + b.descriptor), b, r);
    }
    for (RenameAndDelegate d : delegations(className)) {
      MethodListing.Method stock = stockMethods.get(d.name + d.descriptor);
      MethodListing.Method copy = methods.get(d.stockCopyName + d.descriptor);
      if (stock == null || copy == null || !stock.body().equals(copy.body())) {
        r.violation(
            cls
                + "."
                + d.stockCopyName
                + d.descriptor
                + " as decoded by ASM is not the stock "
                + d.name
                + ": "
                + copy
                + " vs stock "
                + stock);
      }
    }
  }

  private static void checkBody(String cls, MethodListing.Method m, NewBody b, Report r) {
    if (m == null) {
      r.violation(
          "ASM does not see the patched method "
              + cls
              + "."
              + b.name
              + b.descriptor
              + " (expected "
              + b.instructions
              + ")");
      return;
    }
    if (!m.instructions.equals(b.instructions)
        || m.maxStack != b.maxStack
        || m.maxLocals != b.maxLocals
        || m.tryCatchBlocks != 0
        || m.frames != 0
        || m.lineNumbers != 0
        || m.localVariables != 0) {
      r.violation(
          cls
              + "."
              + m.name
              + " as decoded by ASM: "
              + m
              + "; expected "
              + b.instructions
              + " maxStack="
              + b.maxStack
              + " maxLocals="
              + b.maxLocals
              + ", no handlers/frames/debug info");
    }
  }

  static void checkHooksClass(byte[] hooksClass, Report r) {
    ClassFile h;
    try {
      h = ClassFile.parse(hooksClass);
    } catch (PatchException e) {
      r.violation(HOOKS_ENTRY + ": " + e.getMessage());
      return;
    }
    if (!HOOKS.equals(h.thisClassName())) {
      r.violation(HOOKS_ENTRY + " declares class " + h.thisClassName());
    }
    checkHook(h, LOAD_NAMESYSTEM, HOOK_LOAD_NAMESYSTEM_DESC, r);
    checkHook(h, CREATE_RPC_SERVER, HOOK_CREATE_RPC_SERVER_DESC, r);
    for (RenameAndDelegate d : DELEGATIONS) {
      checkHook(h, d.hookName, d.hookDescriptor, r);
    }
  }

  private static void checkHook(ClassFile h, String name, String desc, Report r) {
    ClassFile.Member m = h.method(name, desc);
    if (m == null) {
      r.violation(HOOKS + " has no method " + name + desc);
    } else if ((m.accessFlags & ACC_STATIC) == 0 || (m.accessFlags & ACC_PRIVATE) != 0) {
      r.violation(
          HOOKS
              + "."
              + name
              + desc
              + " must be static and not private (flags 0x"
              + Integer.toHexString(m.accessFlags)
              + ")");
    }
  }
}
