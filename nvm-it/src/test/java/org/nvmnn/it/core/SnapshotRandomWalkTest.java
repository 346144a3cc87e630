package org.nvmnn.it.core;

import static org.junit.Assert.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.protocol.SnapshottableDirectoryStatus;
import org.apache.hadoop.hdfs.server.namenode.nvm.NvmConfigKeys;
import org.apache.hadoop.ipc.RemoteException;
import org.junit.After;
import org.junit.Test;

/**
 * Random walks over a namespace of a few names (three per directory, three deep) in which
 * snapshots, renames and deletes meet far more often than in the differential fuzzer's large tree:
 * creates, mkdirs, recursive deletes, renames (both kinds) into, out of and across snapshotted
 * trees, snapshots allowed, taken, renamed and deleted, attribute changes, and a restart of the
 * NameNode every {@value #RESTART_EVERY} calls. The NVM NameNode runs with its debugging checks (a
 * batch that frees a directory page a live inode still names, or leaves a snapshot record unequal
 * to memory, fails its call) and an inode cache of 8 files. A walk fails when a call meets a check
 * or a NameNode's own error (a RuntimeException sent back to the client), or when a restart serves
 * anything (every listing, every snapshot's listing, diff report and content summary) other than
 * what was served before it. Each walk ends by deleting every snapshot it took.
 *
 * <p>A failing walk is reduced before it is reported: calls are removed while a replay under a
 * fresh directory still fails the same way, so the message holds a short sequence to start from.
 * {@code -Dwalk.seed}, {@code -Dwalk.count} and {@code -Dwalk.length} run other or longer walks.
 */
public class SnapshotRandomWalkTest {
  static {
    System.setProperty("nvm.debug.parentLinks", "true");
    System.setProperty("nvm.debug.snapshotSweep", "true");
    // a NameNode a check stopped may stop again when shut down: the walk goes on with a new one
    org.apache.hadoop.util.ExitUtil.disableSystemExit();
  }

  private static final int RESTART_EVERY = 40;
  private static final String[] NAMES = {"a", "b", "c"};
  private static final String[] SNAPSHOTS = {"s0", "s1", "s2"};

  private MiniDFSCluster cluster;
  private boolean nvm;
  private int roots;

  /** Of the calls replayed: answered without an exception, refused (as 2.7.3 refuses them). */
  private int answered;

  /** Walks that met an error 2.7.3 makes on the same calls (reported, not failed). */
  private final List<String> stockErrors = new ArrayList<>();

  /** Verb &rarr; calls answered without an exception. */
  private final java.util.Map<String, Integer> answeredByVerb = new java.util.TreeMap<>();

  private int refused;

  private int restarts;

  /** The calls the last replay ran, up to and including a failing one. */
  private List<Call> lastRun;

  @After
  public void tearDown() {
    shutdown();
  }

  private void shutdown() {
    if (cluster != null) {
      try {
        cluster.shutdown();
      } catch (RuntimeException | AssertionError e) {
        // a NameNode a check failed, stopping again (ExitUtil.ExitException), and
        // MiniDFSCluster's assertion that nothing called exit
        org.apache.hadoop.util.ExitUtil.resetFirstExitException();
      }
      cluster = null;
    }
  }

  /** One call of a walk, its paths relative to the walk's directory ("" is the directory). */
  static final class Call {
    final String verb;
    final String p;
    final String q;

    Call(String verb, String p, String q) {
      this.verb = verb;
      this.p = p;
      this.q = q;
    }

    @Override
    public String toString() {
      return verb + "(" + p + (q == null ? "" : ", " + q) + ")";
    }
  }

  private static String path(Random r) {
    StringBuilder b = new StringBuilder();
    int depth = 1 + r.nextInt(3);
    for (int i = 0; i < depth; i++) {
      b.append('/').append(NAMES[r.nextInt(NAMES.length)]);
    }
    return b.toString();
  }

  /** A directory for a snapshot call: the walk's own one time in four. */
  private static String snapshotRoot(Random r) {
    int depth = r.nextInt(4) == 0 ? 0 : 1 + r.nextInt(2);
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < depth; i++) {
      b.append('/').append(NAMES[r.nextInt(NAMES.length)]);
    }
    return b.toString();
  }

  private static Call next(Random r, int index) {
    if (index > 0 && index % RESTART_EVERY == 0) {
      return new Call("restart", "", null);
    }
    int k = r.nextInt(100);
    String s = SNAPSHOTS[r.nextInt(SNAPSHOTS.length)];
    if (k < 12) {
      return new Call("mkdirs", path(r), null);
    } else if (k < 24) {
      return new Call("create", path(r), null);
    } else if (k < 34) {
      return new Call("delete", path(r), null);
    } else if (k < 50) {
      return new Call("rename", path(r), path(r));
    } else if (k < 55) {
      return new Call("rename2", path(r), path(r));
    } else if (k < 61) {
      return new Call("allow", snapshotRoot(r), null);
    } else if (k < 74) {
      return new Call("snapshot", snapshotRoot(r), s);
    } else if (k < 86) {
      return new Call("deleteSnapshot", snapshotRoot(r), s);
    } else if (k < 89) {
      // (a snapshot's own name too: 2.7.3 accepts that and logs it, the snapshot there or not)
      return new Call(
          "renameSnapshot", snapshotRoot(r), s + ">" + SNAPSHOTS[r.nextInt(SNAPSHOTS.length)]);
    } else if (k < 95) {
      return new Call("chmod", r.nextBoolean() ? "" : path(r), null);
    } else {
      return new Call("touch", path(r), null);
    }
  }

  private DistributedFileSystem start() throws Exception {
    return start(true);
  }

  /** A new cluster, NVM (the one under test) or stock (2.7.3's answer to a reduced walk). */
  private DistributedFileSystem start(boolean nvm) throws Exception {
    shutdown();
    this.nvm = nvm;
    cluster =
        MigrationTestSupport.cluster(
            getClass(),
            nvm ? "walk" : "stock",
            nvm,
            0,
            NvmConfigKeys.NVM_CACHE_INODES_KEY + "=8",
            NvmConfigKeys.NVM_SNAPSHOTS_PREVIEW_KEY + "=true");
    return cluster.getFileSystem();
  }

  /**
   * A NameNode a failed check left with memory ahead of its region restarts from the region (the
   * failed call is lost, nothing else): reduction goes on with the same cluster, as a new cluster
   * per trial costs more heap than the test JVM has.
   */
  private void recover() throws Exception {
    try {
      cluster.restartNameNode(0, true);
    } catch (Throwable e) {
      // the check fires after its batch committed: the region may hold the record it found
      // unequal, and refuse the restart for it; a new cluster then
      org.apache.hadoop.util.ExitUtil.resetFirstExitException();
      start();
    }
    org.apache.hadoop.util.ExitUtil.resetFirstExitException();
  }

  /** A failure the walk must report: a debugging check, or an error of the NameNode's own. */
  private static String failure(Throwable t) {
    String m = String.valueOf(t.getMessage());
    if (m.contains("nvm.debug.")) {
      return m.substring(m.indexOf("nvm.debug.")).split("\n")[0];
    }
    if (m.startsWith("Current inode is not a directory")) {
      // 2.7.3's rename(src, dst) under a file dst's parent: verifyFsLimitsForRename casts the
      // parent before anything checks it is a directory, and changes nothing; a stock NameNode
      // answers the same (the walk found it, the differential fuzzer compares it)
      return null;
    }
    if (t instanceof RemoteException) {
      String c = ((RemoteException) t).getClassName();
      try {
        if (RuntimeException.class.isAssignableFrom(Class.forName(c))) {
          return c + ": " + m.split("\n")[0];
        }
      } catch (ClassNotFoundException e) {
        return c + ": " + m.split("\n")[0];
      }
    }
    if (t instanceof RuntimeException) {
      return t.getClass().getName() + ": " + m.split("\n")[0];
    }
    return null;
  }

  /**
   * Runs {@code calls} under a fresh directory, then deletes the snapshots left; null, or what went
   * wrong (the kind first: "check", "error" or "restart").
   */
  private String replay(List<Call> calls, boolean cleanUp) throws Exception {
    Path root = new Path("/w" + roots++);
    DistributedFileSystem fs = cluster.getFileSystem();
    fs.mkdirs(root); // not snapshottable: 2.7.3 refuses nested snapshottable directories
    List<Call> all = new ArrayList<>(calls);
    for (int i = 0; i < all.size(); i++) {
      Call c = all.get(i);
      String why;
      if (c.verb.equals("restart") && !nvm) {
        why = null; // (a stock NameNode replaying its edit log rebuilds diffs differently)
      } else if (c.verb.equals("restart")) {
        why = restart(root.toString());
        restarts++;
      } else {
        try {
          apply(cluster.getFileSystem(), root, c);
          answered++;
          answeredByVerb.merge(c.verb, 1, Integer::sum);
          why = null;
        } catch (Throwable t) {
          why = failure(t);
          refused++;
          why = why == null ? null : (why.startsWith("nvm.debug.") ? "check " : "error ") + why;
        }
      }
      if (why != null) {
        lastRun = new ArrayList<>(all.subList(0, i + 1));
        return why + " at call " + i + " " + c;
      }
      if (cleanUp && i == calls.size() - 1) {
        all.addAll(snapshotDeletions(root));
        all.add(new Call("restart", "", null));
      }
    }
    return null;
  }

  /** A deletion of every snapshot under {@code root}, in the order the listing gives them. */
  private List<Call> snapshotDeletions(Path root) throws Exception {
    DistributedFileSystem fs = cluster.getFileSystem();
    List<Call> out = new ArrayList<>();
    SnapshottableDirectoryStatus[] dirs = fs.getSnapshottableDirListing();
    for (SnapshottableDirectoryStatus d :
        dirs == null ? new SnapshottableDirectoryStatus[0] : dirs) {
      String p = d.getFullPath().toUri().getPath();
      if (p.equals(root.toString()) || p.startsWith(root + "/")) {
        for (FileStatus s : fs.listStatus(new Path(p, ".snapshot"))) {
          out.add(
              new Call(
                  "deleteSnapshot", p.substring(root.toString().length()), s.getPath().getName()));
        }
      }
    }
    return out;
  }

  private static void apply(DistributedFileSystem fs, Path root, Call c) throws Exception {
    Path p = c.p.isEmpty() ? root : new Path(root + c.p);
    switch (c.verb) {
      case "mkdirs":
        fs.mkdirs(p);
        break;
      case "create":
        fs.create(p, false, 4096, (short) 1, 1 << 20).close(); // (no DataNode: no block)
        break;
      case "delete":
        fs.delete(p, true);
        break;
      case "rename":
        fs.rename(p, new Path(root + c.q));
        break;
      case "rename2":
        fs.rename(p, new Path(root + c.q), Options.Rename.OVERWRITE);
        break;
      case "allow":
        fs.allowSnapshot(p);
        break;
      case "snapshot":
        fs.createSnapshot(p, c.q);
        break;
      case "deleteSnapshot":
        fs.deleteSnapshot(p, c.q);
        break;
      case "renameSnapshot":
        fs.renameSnapshot(p, c.q.split(">")[0], c.q.split(">")[1]);
        break;
      case "chmod":
        fs.setPermission(p, new FsPermission((short) (0700 + (c.p.length() % 7) * 010)));
        break;
      case "touch":
        fs.setTimes(p, 1_000_000L + c.p.length(), -1);
        break;
      default:
        throw new AssertionError(c.verb);
    }
  }

  /** "restart …" if the NameNode serves anything else after its restart than before. */
  private String restart(String top) throws Exception {
    List<String> before = SnapshotRestartTest.state(cluster.getFileSystem(), "", top);
    try {
      cluster.restartNameNode(0, true);
      cluster.waitActive();
    } catch (Throwable t) {
      return "restart: the NameNode did not start: " + t;
    }
    List<String> after;
    try {
      after = SnapshotRestartTest.state(cluster.getFileSystem(), "", top);
    } catch (java.io.IOException e) {
      return "restart: what it served before fails now: " + e.getMessage().split("\n")[0];
    }
    if (!before.equals(after)) {
      for (int i = 0; i < Math.min(before.size(), after.size()); i++) {
        if (!before.get(i).equals(after.get(i))) {
          if (after.get(i).startsWith("snapshottable [")) {
            return "restart: snapshottable listing " + setDifference(before.get(i), after.get(i));
          }
          return "restart: served " + after.get(i) + " instead of " + before.get(i);
        }
      }
      return "restart: served " + after.size() + " lines instead of " + before.size();
    }
    return null;
  }

  /** What the listing {@code after} ("snapshottable [a, b]") has more and less than before. */
  private static String setDifference(String before, String after) {
    List<String> b = items(before);
    List<String> a = items(after);
    List<String> more = new ArrayList<>(a);
    more.removeAll(b);
    List<String> less = new ArrayList<>(b);
    less.removeAll(a);
    return "gained " + more + ", lost " + less;
  }

  private static List<String> items(String listing) {
    String inner = listing.substring(listing.indexOf('[') + 1, listing.lastIndexOf(']'));
    return inner.isEmpty()
        ? new ArrayList<String>()
        : new ArrayList<>(java.util.Arrays.asList(inner.split(", ")));
  }

  private static String kind(String why) {
    return why.split(" at call ")[0].replaceAll("@[0-9a-f]+", "@").replaceAll("[0-9]+", "#");
  }

  /**
   * The calls of a failing walk, reduced (ddmin over chunks, then single calls) while a replay on a
   * fresh NameNode still fails with a message of the same kind.
   */
  private List<Call> reduce(List<Call> calls, String why) throws Exception {
    String want = kind(why);
    List<Call> best = new ArrayList<>(calls);
    int chunk = Math.max(1, best.size() / 2);
    while (chunk >= 1) {
      boolean cut = false;
      for (int from = 0; from < best.size(); ) {
        List<Call> trial = new ArrayList<>(best.subList(0, from));
        trial.addAll(best.subList(Math.min(best.size(), from + chunk), best.size()));
        String got = replay(trial, false);
        if (got != null) {
          recover();
        }
        if (got != null && kind(got).equals(want)) {
          best = trial;
          cut = true;
        } else {
          from += chunk;
        }
      }
      if (!cut) {
        chunk /= 2;
      }
    }
    return best;
  }

  /**
   * Walks the random ones found and reduced, each a bug fixed since (written as the failure message
   * gives them; the walk test's own names).
   */
  private static final String[][] FOUND = {
    // first, while no snapshot exists: a rename of a snapshot to its own name (logged by 2.7.3
    // though no snapshot has the name) left its edit pending, and the next snapshot's batch wrote
    // the new snapshot's record twice, which stopped the NameNode (found by the differential
    // fuzzer, seed 20261129, shrunk to these calls)
    {"allow()", "renameSnapshot(, s2>s2)", "snapshot(, s2)", "restart()"},
    // a snapshot root's diff that the deletion of its snapshot gave the id of an ancestor's
    // snapshot (still flagged a root, its copy the deleted snapshot's root): the restart took the
    // copy from the ancestor's snapshot root, and s2 showed c with b's permission (the walks,
    // walk 118 of seed 17000, reduced to these calls)
    {
      "create(/b/a/c)",
      "create(/c/c/c)",
      "allow(/c)",
      "allow(/b)",
      "chmod(/c)",
      "rename(/c, /b)",
      "snapshot(/b, s2)",
      "snapshot(/b/c, s1)",
      "deleteSnapshot(/b/c, s1)",
      "restart()"
    },
    // a snapshottable directory renamed into a snapshotted tree (2.7.3 checks no nesting on a
    // rename) and taken out of the tree while a snapshot holds it, by a delete, a rename out and a
    // delete, or an overwrite: 2.7.3 takes it out of the snapshottable set; a restart put it back
    // (listing it failed: not found, or, renamed, "Absolute path required" as a reference's
    // referred inode has no parent of its own). Found by the differential fuzzer, seed 20261129,
    // its segment replayed and narrowed to the overwrite of such a directory
    {
      "mkdirs(/a/b)",
      "allow(/a/b)",
      "mkdirs(/c)",
      "allow(/c)",
      "rename(/a/b, /c/b)",
      "snapshot(/c, s0)",
      "delete(/c/b)",
      "restart()"
    },
    // the same below a renamed directory: a snapshottable directory inside one whose current
    // reference a delete destroyed while an old place still holds it (only its WithName left, so
    // it has no parent: the restart listed the snapshottable directory as "c/b"). Found by the
    // walks (walk 361 of seed 13000), which did not reduce it; written from what the walk showed
    {
      "mkdirs(/a/c)",
      "allow(/a)",
      "mkdirs(/b/b)",
      "allow(/b/b)",
      "rename(/b/b, /a/c/b)",
      "snapshot(/a, s1)",
      "rename(/a/c, /c)",
      "delete(/c)",
      "restart()"
    },
    {
      "mkdirs(/a/b)",
      "allow(/a/b)",
      "mkdirs(/c)",
      "allow(/c)",
      "rename(/a/b, /c/b)",
      "snapshot(/c, s0)",
      "rename(/c/b, /b)",
      "delete(/b)",
      "restart()"
    },
    {
      "mkdirs(/a/b)",
      "allow(/a/b)",
      "mkdirs(/c)",
      "allow(/c)",
      "rename(/a/b, /c/b)",
      "snapshot(/c, s0)",
      "rename2(/a, /c/b)",
      "restart()"
    },
    // a deleted directory held only by a deleted snapshot: the renamed directory below it, which
    // an older snapshot's old place still holds, must not keep its page under the freed one
    {
      "allow()",
      "mkdirs(/a/b/b)",
      "mkdirs(/c/c)",
      "snapshot(, s2)",
      "mkdirs(/a/a/b)",
      "rename(/c, /a/a)",
      "snapshot(, s1)",
      "delete(/a)",
      "deleteSnapshot(, s1)",
      "restart()"
    },
    // a delete destroying the current reference of a renamed directory an old place still holds:
    // 2.7.3 cleans the created lists below it with a walk no hook sees
    {
      "allow()",
      "mkdirs(/c/c/b)",
      "snapshot(, s1)",
      "mkdirs(/c/c/c)",
      "mkdirs(/b/b/c)",
      "rename2(/c, /b/c)",
      "delete(/b)",
      "restart()"
    },
  };

  private static Call parse(String text) {
    String verb = text.substring(0, text.indexOf('('));
    String[] args = text.substring(text.indexOf('(') + 1, text.length() - 1).split(", ", -1);
    return new Call(verb, args[0], args.length > 1 ? args[1] : null);
  }

  @Test(timeout = 600_000)
  public void theWalksFoundBeforeRunClean() throws Exception {
    start();
    for (String[] walk : FOUND) {
      List<Call> calls = new ArrayList<>();
      for (String c : walk) {
        calls.add(parse(c));
      }
      String why = replay(calls, false);
      if (why != null) {
        fail(why + "\n  " + String.join("\n  ", walk));
      }
    }
  }

  @Test(timeout = 1_800_000)
  public void randomWalksOverSnapshottedTreesKeepTheRegionEqualToMemory() throws Exception {
    long seed = Long.getLong("walk.seed", 20261129L);
    int count = Integer.getInteger("walk.count", 12);
    int length = Integer.getInteger("walk.length", 160);
    start();
    long t0 = System.currentTimeMillis();
    for (int w = 0; w < count; w++) {
      Random r = new Random(seed + w);
      List<Call> calls = new ArrayList<>();
      for (int i = 0; i < length; i++) {
        calls.add(next(r, i));
      }
      String why = replay(calls, true);
      if (why != null) {
        String where = "walk " + w + " of seed " + seed + ": " + why;
        List<Call> ran = lastRun;
        if (why.startsWith("error ")) {
          // an error 2.7.3 itself makes on the same calls is its own (the fuzzer compares answers)
          start(false);
          String stock = replay(ran, false);
          start();
          if (stock != null && kind(stock).equals(kind(why))) {
            stockErrors.add(where);
            continue;
          }
        } else {
          recover();
        }
        List<Call> small = reduce(ran, why);
        String again = replay(small, false);
        String listed =
            String.join("\n  ", small.stream().map(Call::toString).toArray(String[]::new));
        start(false);
        String stock = replay(small, false);
        start();
        fail(
            where
                + "\nreduced to "
                + small.size()
                + " calls ("
                + again
                + "; stock: "
                + stock
                + "):\n  "
                + listed);
      }
    }
    for (String e : stockErrors) {
      System.out.println("2.7.3's own error, not counted: " + e);
    }
    System.out.printf(
        "%d walks of seed %d: %d calls answered %s, %d refused, %d restarts compared, %.1f s%n",
        count,
        seed,
        answered,
        answeredByVerb,
        refused,
        restarts,
        (System.currentTimeMillis() - t0) / 1000.0);
    // walks in which a kind of call never succeeded would not test what they name
    for (String verb :
        new String[] {
          "mkdirs",
          "create",
          "delete",
          "rename",
          "rename2",
          "allow",
          "snapshot",
          "deleteSnapshot",
          "renameSnapshot",
          "chmod",
          "touch"
        }) {
      org.junit.Assert.assertTrue(
          verb + " never answered: " + answeredByVerb, answeredByVerb.containsKey(verb));
    }
  }
}
