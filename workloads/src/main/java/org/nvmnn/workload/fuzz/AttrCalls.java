package org.nvmnn.workload.fuzz;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.fs.XAttrSetFlag;

/**
 * The ACL and xattr calls: their arguments written as {@link AttrArgs} reads them (ACL specs, xattr
 * names and values as strings), and the xattrs set so far, which later calls name again.
 */
final class AttrCalls {
  private static final String[] ACL_NAMES = {"bob", "carol", "fz-user", "staff", "fz-group"};
  private static final String[] PERMS = {"rwx", "r-x", "rw-", "r--", "---", "-wx", "--x"};

  private final Dice d;
  private final Random rnd;
  private final Names names;
  private final PathChoice paths;

  /**
   * The newest xattrs the NameNodes agreed to set, as {path, name}: most removals and some sets
   * name one of them, so that removals, REPLACE and CREATE on an existing xattr happen.
   */
  private final List<String[]> xattrsSet = new ArrayList<>();

  AttrCalls(Dice d, Names names, PathChoice paths) {
    this.d = d;
    this.rnd = d.rnd;
    this.names = names;
    this.paths = paths;
  }

  /** After a fresh start: no xattr set yet. */
  void reset() {
    xattrsSet.clear();
  }

  /** The NameNodes agreed to set this xattr (the 64 newest are kept). */
  void wasSet(String path, String name) {
    xattrsSet.add(new String[] {path, name});
    if (xattrsSet.size() > 64) {
      xattrsSet.remove(0);
    }
  }

  /** The NameNodes agreed to remove this xattr. */
  void wasRemoved(String path, String name) {
    xattrsSet.removeIf(x -> x[0].equals(path) && x[1].equals(name));
  }

  // ---------------------------------------------------------------- xattrs

  Op setXAttr() {
    EnumSet<XAttrSetFlag> flags;
    if (d.hostile()) {
      flags = EnumSet.noneOf(XAttrSetFlag.class);
    } else {
      int k = rnd.nextInt(4);
      flags =
          k < 2
              ? EnumSet.of(XAttrSetFlag.CREATE)
              : k == 2
                  ? EnumSet.of(XAttrSetFlag.REPLACE)
                  : EnumSet.of(XAttrSetFlag.CREATE, XAttrSetFlag.REPLACE);
    }
    String[] x = !xattrsSet.isEmpty() && rnd.nextInt(4) == 0 ? setBefore() : null;
    return Op.of(
            Call.setXAttr,
            x != null ? x[0] : xattrTarget(),
            x != null ? x[1] : xattrName(),
            xattrValue(),
            flags)
        .as(d.caller())
        .tag("xattr");
  }

  Op removeXAttr() {
    String[] x = !xattrsSet.isEmpty() && rnd.nextInt(3) > 0 ? setBefore() : null;
    return Op.of(Call.removeXAttr, x != null ? x[0] : xattrTarget(), x != null ? x[1] : xattrName())
        .as(d.caller())
        .tag("xattr");
  }

  private String[] setBefore() {
    return xattrsSet.get(rnd.nextInt(xattrsSet.size()));
  }

  /** Mostly a path of the model; sometimes the same through /.reserved/raw (raw xattrs). */
  String xattrTarget() {
    String p = paths.target();
    return rnd.nextInt(8) == 0 && Model.plain(p) ? "/.reserved/raw" + p : p;
  }

  /** An xattr name ({@link AttrArgs}): mostly a few user and trusted ones, so they meet again. */
  private String xattrName() {
    if (!d.hostile()) {
      int k = rnd.nextInt(10);
      return k < 4
          ? d.pick(new String[] {"user.fz", "user.a", "user.b"})
          : k < 6 ? "trusted.t" : k < 8 ? "user.x" + rnd.nextInt(40) : "raw.r";
    }
    switch (rnd.nextInt(10)) {
      case 0:
        return "security.hdfs.unreadable.by.superuser";
      case 1:
        return "security.s";
      case 2:
        return "system.sys";
      case 3:
        return "user.";
      case 4:
        return "USER.Upper";
      case 5:
        return "user." + names.hostileName();
      case 6:
        return "trusted." + Text.repeat('t', d.pick(new Integer[] {255, 1000, 16384, 16385}));
      case 7:
        return d.pick(new String[] {"bogus.x", "nodot"});
      case 8:
        return "user.a.b";
      default:
        return "raw." + names.name();
    }
  }

  /** The names getXAttrs asks for: mostly all (null). */
  String xattrNames() {
    if (rnd.nextInt(3) > 0) {
      return null; // all
    }
    return d.hostile()
        ? d.pick(new String[] {"user.missing", "raw.r", "trusted.t,system.sys", "user.fz,user.fz"})
        : d.pick(new String[] {"user.fz", "user.fz,user.a", "trusted.t"});
  }

  /** An xattr value ({@link AttrArgs}): none, empty, short, long, and around the size limit. */
  private String xattrValue() {
    if (!d.hostile()) {
      return d.pick(new String[] {null, "", "0x0102", "\"text\"", "0sAAEC", "#100", "#3000"});
    }
    return d.pick(
        new String[] {
          "#16300", "#16380", "#16381", "#16382", "#16383", "#16384", "#16385", "#20000", "#100000"
        });
  }

  // ---------------------------------------------------------------- ACLs

  /** A name for an ACL entry, with ':', ',' and '%' escaped ({@link AttrArgs}). */
  private String aclName() {
    if (!d.hostile()) {
      return d.pick(ACL_NAMES);
    }
    return names.hostileName().replace("%", "%25").replace(":", "%3A").replace(",", "%2C");
  }

  private String aclEntry(boolean dflt, String type, String name) {
    return (dflt ? "default:" : "") + type + ":" + name + ":" + d.pick(PERMS);
  }

  /**
   * An ACL spec: for setAcl ({@code full}) the base entries, named ones, a mask, and default
   * entries now and then; for modifyAclEntries a few entries. Hostile: a base entry missing,
   * duplicates, more than the 32 entries an ACL may have, bad permissions or types, an empty spec.
   */
  String aclSpec(boolean full) {
    List<String> e = new ArrayList<>();
    if (full) {
      e.add(aclEntry(false, "user", ""));
      e.add(aclEntry(false, "group", ""));
      e.add(aclEntry(false, "other", ""));
    }
    int named = rnd.nextInt(full ? 4 : 3) + (full ? 0 : 1);
    for (int i = 0; i < named; i++) {
      e.add(aclEntry(false, rnd.nextBoolean() ? "user" : "group", aclName()));
    }
    if (named > 0 && rnd.nextInt(3) == 0) {
      e.add(aclEntry(false, "mask", ""));
    }
    if (rnd.nextInt(3) == 0) {
      if (full || rnd.nextBoolean()) {
        e.add(aclEntry(true, "user", ""));
        e.add(aclEntry(true, "group", ""));
        e.add(aclEntry(true, "other", ""));
      }
      e.add(aclEntry(true, rnd.nextBoolean() ? "user" : "group", aclName()));
      if (rnd.nextBoolean()) {
        e.add(aclEntry(true, "mask", ""));
      }
    }
    if (d.hostile()) {
      switch (rnd.nextInt(6)) {
        case 0:
          e.remove(0); // a base entry missing (setAcl), or one named entry fewer
          break;
        case 1:
          e.add(e.get(0)); // a duplicate
          break;
        case 2:
          for (int i = 0; i < 33; i++) {
            e.add(aclEntry(false, "user", "u" + i)); // over the 32 entries of an ACL
          }
          break;
        case 3:
          e.add("user:bob:rwz");
          break;
        case 4:
          e.add("bogus::rwx");
          break;
        default:
          e.clear();
      }
    }
    return String.join(",", e);
  }

  /** The entries of a removeAclEntries call: named ones and masks, now and then a base one. */
  String aclRemoval() {
    List<String> e = new ArrayList<>();
    int n = 1 + rnd.nextInt(2);
    for (int i = 0; i < n; i++) {
      int k = rnd.nextInt(8);
      e.add(
          k == 0
              ? "mask:"
              : k == 1
                  ? "default:mask:"
                  : k == 2
                      ? d.pick(new String[] {"user:", "group:", "other:"}) // base: refused
                      : (k == 3 ? "default:" : "")
                          + (rnd.nextBoolean() ? "user:" : "group:")
                          + aclName());
    }
    return String.join(",", e);
  }
}
