package org.nvmnn.workload.fuzz;

import java.util.Arrays;
import java.util.Random;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.StorageType;

/**
 * The calls that change the namespace's shape or an inode's attributes: renames (into the own
 * subtree, onto itself or its parent, onto what may exist), deletes, and setOwner, setTimes and
 * setQuota; and the delete that keeps the namespace under the generator's size.
 */
final class NamespaceCalls {
  private static final String[] USERS = {"fz-owner", "alice", "root"};
  private static final String[] GROUPS = {"fz-group", "supergroup", "staff"};

  private final Dice d;
  private final Random rnd;
  private final Model m;
  private final Names names;
  private final PathChoice paths;
  private final Values values;

  NamespaceCalls(Dice d, Model m, Names names, PathChoice paths, Values values) {
    this.d = d;
    this.rnd = d.rnd;
    this.m = m;
    this.names = names;
    this.paths = paths;
    this.values = values;
  }

  Op rename() {
    String src = paths.target();
    String dst = renameTarget(src);
    return Op.of(Call.rename, src, dst).as(d.caller());
  }

  Op rename2() {
    String src = paths.target();
    String dst = renameTarget(src);
    Options.Rename[] opts;
    switch (rnd.nextInt(5)) {
      case 0:
        opts = new Options.Rename[] {Options.Rename.OVERWRITE};
        break;
      case 1:
        opts = new Options.Rename[] {Options.Rename.NONE};
        break;
      case 2:
        opts = new Options.Rename[] {Options.Rename.NONE, Options.Rename.OVERWRITE};
        break;
      default:
        opts = new Options.Rename[0];
    }
    Op op = Op.of(Call.rename2, src, dst, opts).as(d.caller());
    if (Arrays.asList(opts).contains(Options.Rename.OVERWRITE) && m.open.contains(dst)) {
      op.tag("overwrite-open"); // onto a file under construction (its lease)
    }
    return op;
  }

  private String renameTarget(String src) {
    int k = rnd.nextInt(20);
    if (k == 0 && Model.plain(src) && !src.equals("/")) {
      return src + "/" + names.name(); // into its own subtree
    }
    if (k == 1) {
      return src; // onto itself
    }
    if (k == 2) {
      return Model.parent(src); // onto its parent
    }
    if (k <= 5) {
      return paths.target(); // something that may exist
    }
    return paths.freshPath();
  }

  Op delete() {
    String p = rnd.nextInt(60) == 0 ? "/" : paths.target();
    return Op.of(Call.delete, p, rnd.nextInt(4) > 0).as(d.caller());
  }

  /**
   * A recursive delete that makes the namespace smaller: of the top-level directory a random
   * directory is in, or of the directory itself when it is /wide or /d or under one of them.
   */
  Op shrink() {
    String victim = m.dirs.random(rnd);
    for (int i = 0; i < 3 && victim != null && victim.equals("/"); i++) {
      victim = m.dirs.random(rnd);
    }
    if (victim == null || victim.equals("/")) {
      victim = "/d";
    }
    // the top-level directory it is in
    String top = victim;
    while (!Model.parent(top).equals("/")) {
      top = Model.parent(top);
    }
    if (top.equals("/wide") || top.equals("/d")) {
      top = victim;
    }
    return Op.of(Call.delete, top, true);
  }

  Op setOwner() {
    String user;
    String group;
    if (d.hostile()) {
      user = names.hostileName();
      group = rnd.nextBoolean() ? names.hostileName() : null;
    } else {
      int k = rnd.nextInt(3);
      user = k == 2 ? null : d.pick(USERS);
      group = k == 1 ? null : d.pick(GROUPS);
    }
    return Op.of(Call.setOwner, paths.target(), user, group).as(d.caller());
  }

  Op setTimes() {
    String p = paths.target();
    Op op = Op.of(Call.setTimes, p, values.time(), values.time()).as(d.caller());
    if (m.isDir(p) && (Long) op.args[2] != -1L) {
      op.tag("dir-atime"); // a directory's access time
    }
    return op;
  }

  Op setQuota() {
    StorageType type = rnd.nextInt(3) == 0 ? d.pick(StorageType.values()) : null;
    Op op =
        Op.of(Call.setQuota, paths.dirOrAny(), values.quota(), values.quota(), type)
            .as(d.callerMostlySuper());
    if (type != null) {
      // a storage-type quota: after a restart 2.7.3 caches the quota walk's running total as the
      // directory's usage (docs/bad-input.md), so stock refuses calls that fit
      op.tag("type-quota");
    }
    return op;
  }
}
