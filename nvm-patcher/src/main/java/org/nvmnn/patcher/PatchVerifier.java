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
 *       {@code NameNode.class};
 *   <li>in {@code NameNode.class} the constant pool only grew at the end, and exactly the {@code
 *       Code} attributes of {@code loadNamesystem} and {@code createRpcServer} differ: every other
 *       method, every field, every class attribute and every other attribute of those two methods
 *       is byte-identical;
 *   <li>ASM, decoding independently, sees the two new bodies call the {@code NvmHooks} methods and
 *       nothing else;
 *   <li>the added entries are listed; {@code NvmHooks.class} must be one of them and must declare
 *       the two static hooks.
 * </ol>
 *
 * Usable from tests of other modules ({@link #verify}) and from the command line ({@code
 * PatchVerifier <stock jar> <patched jar>}; a violation is thrown, i.e. exit status 1).
 */
public final class PatchVerifier {

  /** The instructions ASM must see in the patched loadNamesystem. */
  public static final List<String> EXPECTED_LOAD_NAMESYSTEM =
      Collections.unmodifiableList(
          Arrays.asList(
              "ALOAD 0",
              "ALOAD 0",
              "ALOAD 1",
              "INVOKESTATIC " + HOOKS + "." + LOAD_NAMESYSTEM + " " + HOOK_LOAD_NAMESYSTEM_DESC,
              "PUTFIELD " + NAME_NODE + "." + NAMESYSTEM_FIELD + " " + NAMESYSTEM_FIELD_DESC,
              "RETURN"));

  /** The instructions ASM must see in the patched createRpcServer. */
  public static final List<String> EXPECTED_CREATE_RPC_SERVER =
      Collections.unmodifiableList(
          Arrays.asList(
              "ALOAD 0",
              "ALOAD 1",
              "INVOKESTATIC " + HOOKS + "." + CREATE_RPC_SERVER + " " + HOOK_CREATE_RPC_SERVER_DESC,
              "ARETURN"));

  private static final int MAX_LISTED = 20;

  private PatchVerifier() {}

  /** The verifier's findings. */
  public static final class Report {
    public int stockEntries;
    public int identicalStockEntries;
    public int methods;
    public final List<String> changedMethods = new ArrayList<>();
    public int constantPoolAdded;
    public final List<String> addedEntries = new ArrayList<>();
    public final List<String> violations = new ArrayList<>();

    public boolean ok() {
      return violations.isEmpty();
    }

    void violation(String v) {
      violations.add(v);
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
          .append(" stock entries identical (all in stock order), NameNode.class: ")
          .append(changedMethods.size())
          .append(" of ")
          .append(methods)
          .append(" methods changed (")
          .append(String.join(", ", changedMethods))
          .append("), constant pool +")
          .append(constantPoolAdded)
          .append(" entries appended, ")
          .append(addedEntries.size())
          .append(" entries added: ");
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
      byte[] stockNameNode = null, patchedNameNode = null;
      int contentErrors = 0;
      for (String n : stockNames) {
        ZipEntry pe = patched.getEntry(n);
        if (pe == null) {
          r.violation("stock entry " + n + " is missing");
          continue;
        }
        byte[] a = JarPatcher.readAll(stock.getInputStream(stock.getEntry(n)));
        byte[] b = JarPatcher.readAll(patched.getInputStream(pe));
        if (n.equals(NAME_NODE_ENTRY)) {
          stockNameNode = a;
          patchedNameNode = b;
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

      if (stockNameNode == null || patchedNameNode == null) {
        r.violation(NAME_NODE_ENTRY + " is missing from the stock or the patched jar");
        return r;
      }
      // (b) NameNode.class: raw, member by member
      try {
        compareNameNode(ClassFile.parse(stockNameNode), ClassFile.parse(patchedNameNode), r);
      } catch (PatchException e) {
        r.violation("cannot parse NameNode.class: " + e.getMessage());
        return r;
      }
      // (c) the new bodies, as ASM decodes them
      checkBodiesWithAsm(patchedNameNode, r);
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

  static void compareNameNode(ClassFile s, ClassFile p, Report r) {
    byte[] sb = s.bytes(), pb = p.bytes();
    if (!Arrays.equals(Arrays.copyOf(sb, 8), Arrays.copyOf(pb, 8))) {
      r.violation("NameNode.class: magic or version changed");
    }
    byte[] scp = s.constantPoolEntries(), pcp = p.constantPoolEntries();
    if (p.constantPoolCount < s.constantPoolCount
        || pcp.length < scp.length
        || !Arrays.equals(scp, Arrays.copyOf(pcp, scp.length))) {
      r.violation(
          "NameNode.class: the stock constant pool is not an unchanged prefix of the patched one");
    }
    r.constantPoolAdded = p.constantPoolCount - s.constantPoolCount;
    if (!Arrays.equals(s.header(), p.header())) {
      r.violation("NameNode.class: access flags, this_class, super_class or interfaces changed");
    }
    if (s.fields.size() != p.fields.size()) {
      r.violation("NameNode.class: field count " + s.fields.size() + " -> " + p.fields.size());
    } else {
      for (int i = 0; i < s.fields.size(); i++) {
        if (!Arrays.equals(s.fields.get(i).raw(), p.fields.get(i).raw())) {
          r.violation("NameNode.class: field " + s.fields.get(i).key() + " changed");
        }
      }
    }
    r.methods = s.methods.size();
    if (s.methods.size() != p.methods.size()) {
      r.violation("NameNode.class: method count " + s.methods.size() + " -> " + p.methods.size());
    } else {
      for (int i = 0; i < s.methods.size(); i++) {
        ClassFile.Member sm = s.methods.get(i), pm = p.methods.get(i);
        boolean target = isTarget(sm);
        if (Arrays.equals(sm.raw(), pm.raw())) {
          if (target) {
            r.violation("NameNode." + sm.key() + " was not patched");
          }
          continue;
        }
        if (!target) {
          r.violation(
              "NameNode."
                  + sm.key()
                  + " changed; only "
                  + LOAD_NAMESYSTEM
                  + " and "
                  + CREATE_RPC_SERVER
                  + " may");
          continue;
        }
        if (sm.accessFlags != pm.accessFlags
            || !sm.key().equals(pm.key())
            || sm.attributes.size() != pm.attributes.size()) {
          r.violation(
              "NameNode." + sm.key() + ": flags, name, descriptor or attribute count changed");
          continue;
        }
        boolean codeChanged = false, otherChanged = false;
        for (int a = 0; a < sm.attributes.size(); a++) {
          ClassFile.Attribute sa = sm.attributes.get(a), pa = pm.attributes.get(a);
          boolean same = Arrays.equals(sa.raw(), pa.raw());
          if (sa.name.equals("Code") && pa.name.equals("Code")) {
            codeChanged |= !same;
          } else if (!same) {
            otherChanged = true;
            r.violation("NameNode." + sm.key() + ": attribute " + sa.name + " changed");
          }
        }
        if (codeChanged && !otherChanged) {
          r.changedMethods.add(sm.name);
        } else if (!codeChanged) {
          r.violation("NameNode." + sm.key() + " was not patched (Code unchanged)");
        }
      }
    }
    if (s.attributes.size() != p.attributes.size()) {
      r.violation("NameNode.class: class attribute count changed");
    } else {
      for (int i = 0; i < s.attributes.size(); i++) {
        if (!Arrays.equals(s.attributes.get(i).raw(), p.attributes.get(i).raw())) {
          r.violation("NameNode.class: class attribute " + s.attributes.get(i).name + " changed");
        }
      }
    }
  }

  private static boolean isTarget(ClassFile.Member m) {
    return m.name.equals(LOAD_NAMESYSTEM) && m.descriptor.equals(LOAD_NAMESYSTEM_DESC)
        || m.name.equals(CREATE_RPC_SERVER) && m.descriptor.equals(CREATE_RPC_SERVER_DESC);
  }

  static void checkBodiesWithAsm(byte[] patchedNameNode, Report r) {
    Map<String, MethodListing.Method> methods;
    try {
      methods = MethodListing.of(patchedNameNode);
    } catch (PatchException e) {
      r.violation("NameNode.class: " + e.getMessage());
      return;
    }
    if (methods.size() != r.methods) {
      r.violation(
          "NameNode.class: ASM sees "
              + methods.size()
              + " methods, the class file has "
              + r.methods);
    }
    checkBody(methods.get(LOAD_NAMESYSTEM + LOAD_NAMESYSTEM_DESC), EXPECTED_LOAD_NAMESYSTEM, 3, r);
    checkBody(
        methods.get(CREATE_RPC_SERVER + CREATE_RPC_SERVER_DESC), EXPECTED_CREATE_RPC_SERVER, 2, r);
  }

  private static void checkBody(
      MethodListing.Method m, List<String> expected, int maxStack, Report r) {
    if (m == null) {
      r.violation("ASM does not see a patched method with the expected instructions " + expected);
      return;
    }
    if (!m.instructions.equals(expected)
        || m.maxStack != maxStack
        || m.maxLocals != 2
        || m.tryCatchBlocks != 0
        || m.frames != 0
        || m.lineNumbers != 0
        || m.localVariables != 0) {
      r.violation(
          "NameNode."
              + m.name
              + " as decoded by ASM: "
              + m
              + "; expected "
              + expected
              + " maxStack="
              + maxStack
              + " maxLocals=2, no handlers/frames/debug info");
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
  }

  private static void checkHook(ClassFile h, String name, String desc, Report r) {
    ClassFile.Member m = h.method(name, desc);
    if (m == null) {
      r.violation(HOOKS + " has no method " + name + desc);
    } else if ((m.accessFlags & 0x0008) == 0 || (m.accessFlags & 0x0002) != 0) {
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
