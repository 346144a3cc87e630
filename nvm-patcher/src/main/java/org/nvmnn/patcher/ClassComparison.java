package org.nvmnn.patcher;

import static org.nvmnn.patcher.NameNodePatch.*;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.nvmnn.patcher.PatchVerifier.ClassReport;
import org.nvmnn.patcher.PatchVerifier.Report;

/**
 * Part (b) of {@link PatchVerifier}: one patched class against its stock version, raw bytes member
 * by member (with {@link ClassFile}, no ASM). The constant pool only grew at the end; the header,
 * every field and every class attribute are byte-identical; the stock methods keep their order and
 * bytes, except that exactly the target methods have a different {@code Code} attribute (every
 * other attribute identical); after them come exactly the expected stock copies, each with its
 * stock method's descriptor index and attributes byte for byte and the stock access flags without
 * public/private/protected, plus synthetic.
 */
final class ClassComparison {
  private ClassComparison() {}

  /** The stock copies one class must gain, by copy name. */
  private static Map<String, RenameAndDelegate> copies(String className) {
    Map<String, RenameAndDelegate> m = new LinkedHashMap<>();
    for (RenameAndDelegate d : delegations(className)) {
      m.put(d.stockCopyName, d);
    }
    return m;
  }

  /**
   * Compares a stock class with its patched version, raw member by member; {@code targets} are the
   * name + descriptor of the methods whose Code attribute must differ.
   */
  static void compare(ClassFile s, ClassFile p, Set<String> targets, ClassReport cr, Report r) {
    String cls = simpleName(cr.className);
    String where = entry(cls) + ": ";
    if (!cr.className.equals(s.thisClassName()) || !cr.className.equals(p.thisClassName())) {
      r.violation(where + "declares " + s.thisClassName() + " / " + p.thisClassName());
      return;
    }
    byte[] sb = s.bytes(), pb = p.bytes();
    if (!Arrays.equals(Arrays.copyOf(sb, 8), Arrays.copyOf(pb, 8))) {
      r.violation(where + "magic or version changed");
    }
    byte[] scp = s.constantPoolEntries(), pcp = p.constantPoolEntries();
    if (p.constantPoolCount < s.constantPoolCount
        || pcp.length < scp.length
        || !Arrays.equals(scp, Arrays.copyOf(pcp, scp.length))) {
      r.violation(where + "the stock constant pool is not an unchanged prefix of the patched one");
    }
    cr.constantPoolAdded = p.constantPoolCount - s.constantPoolCount;
    if (!Arrays.equals(s.header(), p.header())) {
      r.violation(where + "access flags, this_class, super_class or interfaces changed");
    }
    if (s.fields.size() != p.fields.size()) {
      r.violation(where + "field count " + s.fields.size() + " -> " + p.fields.size());
    } else {
      for (int i = 0; i < s.fields.size(); i++) {
        if (!Arrays.equals(s.fields.get(i).raw(), p.fields.get(i).raw())) {
          r.violation(where + "field " + s.fields.get(i).key() + " changed");
        }
      }
    }
    Map<String, RenameAndDelegate> copies = copies(cr.className);
    int n = s.methods.size();
    cr.methods = n;
    if (p.methods.size() != n + copies.size()) {
      r.violation(
          where
              + "method count "
              + n
              + " -> "
              + p.methods.size()
              + ", expected "
              + n
              + " + "
              + copies.size()
              + " stock copies "
              + copies.keySet());
    }
    for (int i = 0; i < Math.min(n, p.methods.size()); i++) {
      compareStockMethod(cls, s.methods.get(i), p.methods.get(i), targets, cr, r);
    }
    for (int i = n; i < p.methods.size(); i++) {
      checkCopy(s, p.methods.get(i), copies, cr, r);
    }
    for (String missing : copies.keySet()) {
      if (!cr.addedMethods.contains(missing)) {
        r.violation(where + "the stock copy " + missing + " was not added (or is not valid)");
      }
    }
    if (s.attributes.size() != p.attributes.size()) {
      r.violation(where + "class attribute count changed");
    } else {
      for (int i = 0; i < s.attributes.size(); i++) {
        if (!Arrays.equals(s.attributes.get(i).raw(), p.attributes.get(i).raw())) {
          r.violation(where + "class attribute " + s.attributes.get(i).name + " changed");
        }
      }
    }
  }

  /** A stock method at its stock position: byte-identical, or (a target) only its Code differs. */
  private static void compareStockMethod(
      String cls,
      ClassFile.Member sm,
      ClassFile.Member pm,
      Set<String> targets,
      ClassReport cr,
      Report r) {
    String what = cls + "." + sm.key();
    boolean target = targets.contains(sm.key());
    if (Arrays.equals(sm.raw(), pm.raw())) {
      if (target) {
        r.violation(what + " was not patched");
      }
      return;
    }
    if (!target) {
      List<String> names = new ArrayList<>();
      for (String t : targets) {
        names.add(t.substring(0, t.indexOf('(')));
      }
      r.violation(what + " changed; only " + String.join(", ", names) + " may");
      return;
    }
    if (sm.accessFlags != pm.accessFlags
        || !sm.key().equals(pm.key())
        || sm.attributes.size() != pm.attributes.size()) {
      r.violation(what + ": flags, name, descriptor or attribute count changed");
      return;
    }
    boolean codeChanged = false, otherChanged = false;
    for (int a = 0; a < sm.attributes.size(); a++) {
      ClassFile.Attribute sa = sm.attributes.get(a), pa = pm.attributes.get(a);
      boolean same = Arrays.equals(sa.raw(), pa.raw());
      if (sa.name.equals("Code") && pa.name.equals("Code")) {
        codeChanged |= !same;
      } else if (!same) {
        otherChanged = true;
        r.violation(what + ": attribute " + sa.name + " changed");
      }
    }
    if (codeChanged && !otherChanged) {
      cr.changedMethods.add(sm.name);
      r.changedMethods.add(cls + "." + sm.name);
    } else if (!codeChanged) {
      r.violation(what + " was not patched (Code unchanged)");
    }
  }

  /**
   * A method after the stock ones: one of the expected stock copies, with the stock method's
   * descriptor index and attributes byte for byte, and its flags made package-private and
   * synthetic.
   */
  private static void checkCopy(
      ClassFile s,
      ClassFile.Member pm,
      Map<String, RenameAndDelegate> copies,
      ClassReport cr,
      Report r) {
    String cls = simpleName(cr.className);
    String what = cls + "." + pm.key();
    RenameAndDelegate d = copies.get(pm.name);
    if (d == null) {
      r.violation(what + " was added; only the stock copies " + copies.keySet() + " may be");
      return;
    }
    if (cr.addedMethods.contains(pm.name)) {
      r.violation(what + " was added twice");
      return;
    }
    ClassFile.Member sm = s.method(d.name, d.descriptor);
    if (sm == null) {
      r.violation(what + ": the stock class has no " + d.name + d.descriptor + " to copy");
      return;
    }
    int expectedFlags =
        (sm.accessFlags & ~(ACC_PUBLIC | ACC_PRIVATE | ACC_PROTECTED)) | ACC_SYNTHETIC;
    byte[] sr = sm.raw(), pr = pm.raw();
    boolean ok = true;
    if (pm.accessFlags != expectedFlags) {
      ok = false;
      r.violation(
          what
              + ": access flags 0x"
              + Integer.toHexString(pm.accessFlags)
              + ", expected 0x"
              + Integer.toHexString(expectedFlags)
              + " (stock flags without public/private/protected, plus synthetic)");
    }
    if (!pm.descriptor.equals(d.descriptor)) {
      ok = false;
      r.violation(what + ": descriptor differs from the stock " + d.name + d.descriptor);
    }
    // descriptor_index, attributes_count and every attribute, byte for byte
    if (!Arrays.equals(
        Arrays.copyOfRange(sr, 4, sr.length), Arrays.copyOfRange(pr, 4, pr.length))) {
      ok = false;
      r.violation(what + ": its attributes are not byte-identical to those of the stock " + d.name);
    }
    if (ok) {
      cr.addedMethods.add(pm.name);
      r.addedMethods.add(cls + "." + pm.name);
    }
  }
}
