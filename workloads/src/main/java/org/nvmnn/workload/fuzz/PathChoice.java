package org.nvmnn.workload.fuzz;

import java.util.ArrayList;
import java.util.Random;
import java.util.function.Function;

/**
 * The paths calls act on, from the {@link Model}: mostly ones that exist (or just did), sometimes a
 * deleted one, a fresh one or a hostile one (past the depth and length limits, relative, with
 * empty, "." or ".." components, under /.reserved).
 */
final class PathChoice {
  private final Dice d;
  private final Random rnd;
  private final Model m;
  private final Names names;

  PathChoice(Dice d, Model m, Names names) {
    this.d = d;
    this.rnd = d.rnd;
    this.m = m;
    this.names = names;
  }

  /** A call on an open file mostly, else any file. */
  Op withFile(Function<String, Op> call) {
    String p = m.open.size() > 0 && rnd.nextInt(5) > 0 ? m.open.random(rnd) : fileOrAny();
    return call.apply(p);
  }

  String openOrAny() {
    return m.open.size() > 0 && rnd.nextInt(5) > 0 ? m.open.random(rnd) : target();
  }

  String fileOrAny() {
    return m.files.size() > 0 && rnd.nextInt(8) > 0 ? m.files.random(rnd) : target();
  }

  String dirOrAny() {
    return rnd.nextInt(8) > 0 ? m.dirs.random(rnd) : target();
  }

  /** A path to act on: mostly one that exists, sometimes a deleted one or a hostile one. */
  String target() {
    int k = rnd.nextInt(100);
    if (k < 4 && !m.gone.isEmpty()) {
      return new ArrayList<>(m.gone).get(rnd.nextInt(m.gone.size()));
    }
    if (k < 4 + (int) (d.hostileRate * 40)) {
      return hostilePath();
    }
    if (k < 60 && m.files.size() > 0) {
      return m.files.random(rnd);
    }
    if (k < 97) {
      return m.dirs.random(rnd);
    }
    return freshPath();
  }

  /** A path that does not exist yet, mostly in an existing directory. */
  String freshPath() {
    if (d.hostile() && rnd.nextInt(3) == 0) {
      return hostilePath();
    }
    String parent;
    int k = rnd.nextInt(100);
    if (k < 8) {
      parent = "/wide";
    } else if (k < 12 && !m.gone.isEmpty()) {
      parent = new ArrayList<>(m.gone).get(rnd.nextInt(m.gone.size())); // gone: fails
    } else {
      parent = m.dirs.random(rnd);
    }
    return Call.child(parent, names.name());
  }

  private String hostilePath() {
    switch (rnd.nextInt(11)) {
      case 0:
        {
          int depth = d.pick(new Integer[] {20, 200, 998, 999, 1000, 1001});
          StringBuilder b = new StringBuilder("/deep");
          for (int i = 1; i < depth; i++) {
            b.append("/d");
          }
          return b.toString();
        }
      case 1:
        {
          int len = d.pick(new Integer[] {7999, 8000, 8001});
          StringBuilder b = new StringBuilder("/long");
          while (b.length() < len) {
            int room = len - b.length() - 1;
            b.append('/').append(Text.repeat('p', Math.min(200, Math.max(1, room))));
          }
          return b.substring(0, len);
        }
      case 2:
        return "rel/" + names.name();
      case 3:
        return m.dirs.random(rnd) + "/";
      case 4:
        return m.dirs.random(rnd) + "//" + names.plainName();
      case 5:
        return m.dirs.random(rnd) + (rnd.nextBoolean() ? "/./" : "/../") + names.plainName();
      case 6:
        // an inode id about as high as the ones the run made, with or without a name under it
        return "/.reserved/.inodes/"
            + (16385 + rnd.nextInt(Math.max(1, (int) Math.min(names.issued() + 3, 5000))))
            + (rnd.nextBoolean() ? "" : "/" + names.plainName());
      case 7:
        return "/.reserved/raw" + m.dirs.random(rnd);
      case 8:
        return "";
      case 9:
        return "/";
      default:
        return Call.child(m.dirs.random(rnd), names.hostileName());
    }
  }
}
