package org.nvmnn.workload.fuzz;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.nvmnn.workload.Flags;

/**
 * The differential RPC fuzzer (scripts/test/fuzz-rpc.sh, docs/bad-input.md): a seeded sequence of
 * ClientProtocol calls sent to a stock and an NVM NameNode process (the same jar), their answers
 * compared call by call, both SIGKILLed and restarted every K calls and their full namespaces
 * compared. A divergence is recorded, the pair restarts from a fresh format and the run goes on; at
 * the end each distinct divergence is shrunk to a short sequence, printed and written to a file
 * that {@code --replay} runs again.
 *
 * <p>Exit status: 0 no divergence, 1 divergences, 2 the NameNodes could not be started.
 */
public final class FuzzRpc {
  private final Flags f;
  private final PrintStream out = System.out;
  private final File outDir;
  private final Session session;
  private final RefusalList refusals;
  private final long seed;
  private final long t0 = System.currentTimeMillis();
  private long startupMs;

  /** The first occurrence of each distinct divergence, with the calls that led to it. */
  private final Map<String, Record> records = new LinkedHashMap<>();

  private final Map<String, Long> byKind = new TreeMap<>();
  private final Map<String, Long> calls = new TreeMap<>();

  /** Per call: how often both NameNodes answered it without an exception (and agreed). */
  private final Map<String, Long> answered = new TreeMap<>();

  private long divergences;

  /** Stock restart bugs ({@link Session#stockBug}): recorded and reproduced, not divergences. */
  private long stockBugs;

  private static final class Record {
    final Divergence first;
    final List<Op> sequence;
    long count = 1;
    List<Op> minimal;
    String shrinkNote;

    Record(Divergence first, List<Op> sequence) {
      this.first = first;
      this.sequence = sequence;
    }
  }

  private FuzzRpc(Flags f) throws IOException {
    this.f = f;
    this.seed = f.getLong("--seed", System.currentTimeMillis());
    this.outDir = new File(f.get("--out", "."));
    outDir.mkdirs();
    String java = f.get("--java", "java");
    String lib = req(f, "--lib");
    String heap = f.get("--nn-heap", "-Xmx1g");
    File template = new File(req(f, "--template"));
    NnProcess sp =
        new NnProcess(
            "stock",
            new File(req(f, "--stock-conf")),
            new File(req(f, "--stock-name")),
            null,
            template,
            java,
            lib,
            heap);
    NnProcess np =
        new NnProcess(
            "nvm",
            new File(req(f, "--nvm-conf")),
            new File(req(f, "--nvm-name")),
            new File(req(f, "--nvm-region")),
            template,
            java,
            lib,
            heap);
    this.refusals = RefusalList.read(Paths.get(req(f, "--refusals")));
    this.session =
        new Session(
            new Side("stock", false, sp),
            new Side("nvm", true, np),
            refusals,
            f.getLong("--start-timeout", 120) * 1000,
            f.getInt("--max-list", 200000));
    session.baseline = Boolean.parseBoolean(f.get("--baseline", "false"));
    session.stockCheckpoint = Boolean.parseBoolean(f.get("--stock-checkpoint", "false"));
  }

  private static String req(Flags f, String name) {
    String v = f.get(name, null);
    if (v == null) {
      throw new IllegalArgumentException(name + " is required");
    }
    return v;
  }

  public static void main(String[] args) throws Exception {
    Flags f =
        Flags.parse(
            args,
            "--seed",
            "--ops",
            "--restart-every",
            "--hostile",
            "--max-entries",
            "--renew-every",
            "--skip",
            "--shrink-seconds",
            "--shrinks",
            "--max-divergences",
            "--progress-seconds",
            "--start-timeout",
            "--max-list",
            "--replay",
            "--replay-shrink",
            "--baseline",
            "--stock-checkpoint",
            "--snapshots",
            "--out",
            "--java",
            "--lib",
            "--nn-heap",
            "--template",
            "--stock-conf",
            "--stock-name",
            "--nvm-conf",
            "--nvm-name",
            "--nvm-region",
            "--refusals");
    FuzzRpc fz = new FuzzRpc(f);
    // SIGTERM/SIGINT: the NameNodes go too
    Runtime.getRuntime().addShutdownHook(new Thread(fz.session::close));
    int rc;
    try {
      rc = f.get("--replay", null) != null ? fz.replay(f.get("--replay", null)) : fz.run();
    } finally {
      fz.session.close();
    }
    System.exit(rc);
  }

  // ------------------------------------------------------------------ the run

  private int run() throws Exception {
    long ops = f.getLong("--ops", 2000);
    long k = f.getLong("--restart-every", 1000);
    double hostile = Double.parseDouble(f.get("--hostile", "0.15"));
    Set<String> skip = new HashSet<>();
    for (String s : f.get("--skip", "").split(",")) {
      if (!s.trim().isEmpty()) {
        skip.add(s.trim());
      }
    }
    if (session.stockCheckpoint && !session.baseline) {
      // a directory's access time: the stock fsimage has none (the NVM region has,
      // RestartKeepsWhatWasServedTest), so after a checkpointed restart reads would differ
      skip.add("dir-atime");
    }
    long maxDiv = f.getLong("--max-divergences", 100);
    long progressMs = f.getLong("--progress-seconds", 30) * 1000;
    Generator gen =
        new Generator(
            seed,
            hostile,
            f.getInt("--max-entries", 1500),
            f.getInt("--renew-every", 500),
            skip,
            Boolean.parseBoolean(f.get("--snapshots", "false")));
    out.printf(
        "== fuzz-rpc: seed %d, %d operations, restart every %d, hostile %.2f%s; refusal list: %d"
            + " calls (docs/unsupported-operations.md)%n",
        seed, ops, k, hostile, skip.isEmpty() ? "" : ", skipping tags " + skip, refusals.size());
    if (!startFresh()) {
      return 2;
    }
    List<Op> segment = new ArrayList<>();
    long done = 0;
    long sinceRestart = 0;
    long nextProgress = System.currentTimeMillis() + progressMs;
    long index = 0; // calls since the last fresh start (the op index of reports)
    // stock restart bugs are reported apart and do not stop the run: they are 2.7.3's
    while (done < ops && divergences < maxDiv) {
      Op op;
      if (sinceRestart >= k) {
        op = Op.of(Call.RESTART);
        sinceRestart = 0;
      } else {
        op = gen.next();
        done++;
        sinceRestart++;
        calls.merge(op.call.name(), 1L, Long::sum);
      }
      segment.add(op);
      Divergence d = session.step(op, index++);
      if (d == null) {
        if (op.call == Call.RESTART) {
          gen.resync(session.lastListing);
        } else {
          if (session.lastStock != null && !session.lastStock.isException()) {
            answered.merge(op.call.name(), 1L, Long::sum);
          }
          gen.observe(op, session.lastStock != null ? session.lastStock : session.lastNvm);
        }
      } else {
        record(d, segment);
        segment = new ArrayList<>();
        index = 0;
        sinceRestart = 0;
        gen.reset();
        if (!startFresh()) {
          return 2;
        }
      }
      if (System.currentTimeMillis() >= nextProgress) {
        progress(done);
        nextProgress = System.currentTimeMillis() + progressMs;
      }
    }
    if (divergences < maxDiv && (segment.isEmpty() || last(segment).call != Call.RESTART)) {
      Op op = Op.of(Call.RESTART);
      segment.add(op);
      Divergence d = session.step(op, index);
      if (d != null) {
        record(d, segment);
      }
    }
    long runMs = System.currentTimeMillis() - t0;
    long restarts = session.restarts;
    session.freeze();
    shrinkAll();
    summary(done, runMs, restarts);
    return divergences == 0 ? 0 : 1;
  }

  private boolean startFresh() throws Exception {
    long s = System.currentTimeMillis();
    String why = session.fresh();
    startupMs += System.currentTimeMillis() - s;
    if (why != null) {
      out.println("cannot start the NameNodes from the formatted template: " + why);
      out.println(session.nvm.proc.logSinceStart(20));
      out.println(session.stock.proc.logSinceStart(20));
      return false;
    }
    return true;
  }

  private static Op last(List<Op> l) {
    return l.get(l.size() - 1);
  }

  private void record(Divergence d, List<Op> segment) {
    boolean stockBug = Session.stockBug(d);
    long n = stockBug ? ++stockBugs : ++divergences;
    String what = stockBug ? "stock restart bug" : "divergence";
    byKind.merge(d.kind, 1L, Long::sum);
    Record r = records.get(d.signature);
    if (r != null) {
      r.count++;
      out.printf("   %s %d: %s again (op %d)%n", what, n, d.signature, d.opIndex);
      return;
    }
    Record fresh = new Record(d, new ArrayList<>(segment));
    records.put(d.signature, fresh);
    out.printf("   %s %d (new): %s%n", what, n, indent(d.describe(), "     "));
    if (!stockBug) {
      writeSegment(fresh);
    }
  }

  private void progress(long done) {
    double s = (System.currentTimeMillis() - t0) / 1000.0;
    out.printf(
        "   %.0f s: %d operations (%.0f/s overall), %d restarts, %d divergences, %d stock restart"
            + " bugs (%d distinct)%n",
        s, done, done / s, session.restarts, divergences, stockBugs, records.size());
  }

  // ------------------------------------------------------------------ shrinking

  private void shrinkAll() throws Exception {
    int max = f.getInt("--shrinks", 6);
    long budget = f.getLong("--shrink-seconds", 300) * 1000;
    if (records.isEmpty() || max <= 0 || budget <= 0) {
      return;
    }
    List<Record> order = new ArrayList<>(records.values());
    order.sort((a, b) -> Integer.compare(severity(a.first), severity(b.first)));
    int n = 0;
    for (Record r : order) {
      if (n++ >= max) {
        r.shrinkNote = "not shrunk (--shrinks " + max + ")";
        continue;
      }
      long t = System.currentTimeMillis();
      out.printf(
          "   shrinking %s (%d calls, budget %d s)…%n",
          r.first.signature, r.sequence.size(), budget / 1000);
      Shrinker sh = new Shrinker(this::runFresh, budget);
      List<Op> min = sh.shrink(r.sequence, r.first.signature, r.first.path);
      long took = (System.currentTimeMillis() - t) / 1000;
      if (min == null) {
        r.shrinkNote =
            "did not reproduce from a fresh start in "
                + sh.tests
                + " tests ("
                + took
                + " s): it depends on timing";
      } else {
        r.minimal = min;
        r.shrinkNote =
            min.size()
                + " of "
                + r.sequence.size()
                + " calls, "
                + sh.tests
                + " tests, "
                + took
                + " s"
                + (sh.outOfTime() ? " (budget used up: may shrink further)" : "");
        writeRepro(r);
      }
    }
  }

  private static int severity(Divergence d) {
    List<String> order =
        Arrays.asList(
            "nvm-exit",
            "restart-failed",
            "hang",
            "stock-exit",
            "namespace-after-restart",
            "namespace-before-restart",
            "listing-failed",
            "exception",
            "result",
            "refusal-bypassed",
            "undocumented-refusal");
    int i = order.indexOf(d.kind);
    return i < 0 ? order.size() : i;
  }

  /** The oracle: a fresh pair, the calls one by one; the first divergence or null. */
  private Divergence runFresh(List<Op> ops) throws Exception {
    String why = session.fresh();
    if (why != null) {
      throw new IOException("cannot start the NameNodes: " + why);
    }
    for (int i = 0; i < ops.size(); i++) {
      Divergence d = session.step(ops.get(i), i);
      if (d != null) {
        return d;
      }
    }
    return null;
  }

  private void writeRepro(Record r) throws IOException {
    List<String> lines = new ArrayList<>();
    lines.add("# fuzz-rpc reproduction: " + r.first.signature);
    lines.add("# found with seed " + seed + " at op " + r.first.opIndex + " of its segment");
    lines.add(
        "# replay: REPLAY=" + reproFile(r) + " ./scripts/test/fuzz-rpc.sh   (from a fresh pair)");
    for (Op o : r.minimal) {
      lines.add(o.toString());
    }
    Files.write(reproFile(r).toPath(), lines, StandardCharsets.UTF_8);
  }

  /**
   * A new divergence's whole segment (every call since the pair's last fresh start), written at
   * once: it replays from a fresh pair as it ran (REPLAY), also when shrinking cannot reduce it.
   */
  private void writeSegment(Record r) {
    List<String> lines = new ArrayList<>();
    lines.add("# fuzz-rpc segment: " + r.first.signature);
    lines.add("# seed " + seed + ", divergence at op " + r.first.opIndex + " of this segment");
    for (Op o : r.sequence) {
      lines.add(o.toString());
    }
    File f = new File(outDir, "segment-" + records.size() + ".ops");
    try {
      Files.write(f.toPath(), lines, StandardCharsets.UTF_8);
      out.printf("     (its %d calls: %s)%n", r.sequence.size(), f);
    } catch (IOException e) {
      out.printf("     (could not write %s: %s)%n", f, e);
    }
  }

  private File reproFile(Record r) {
    int i = new ArrayList<>(records.values()).indexOf(r) + 1;
    return new File(outDir, "repro-" + i + ".ops");
  }

  // ------------------------------------------------------------------ replay

  private int replay(String file) throws Exception {
    List<Op> ops = OpParser.read(Paths.get(file));
    out.printf("== fuzz-rpc replay: %d calls from %s on a fresh pair%n", ops.size(), file);
    if (!startFresh()) {
      return 2;
    }
    for (int i = 0; i < ops.size(); i++) {
      Op op = ops.get(i);
      Divergence d = session.step(op, i);
      out.printf("   %d: %s%n", i, op.brief());
      if (op.call != Call.RESTART) {
        Outcome o = session.lastNvm;
        out.printf("        nvm:   %s%n", o == null ? "-" : brief(o));
        out.printf(
            "        stock: %s%n",
            session.lastStock == null ? "(not sent)" : brief(session.lastStock));
      }
      if (d != null) {
        boolean stockBug = Session.stockBug(d);
        out.println(
            (stockBug ? "RESULT: STOCK RESTART BUG " : "RESULT: DIVERGENCE ")
                + indent(d.describe(), "  "));
        if (Boolean.parseBoolean(f.get("--replay-shrink", "false"))) {
          Record r = new Record(d, new ArrayList<>(ops.subList(0, i + 1)));
          records.put(d.signature, r);
          shrinkAll();
          out.println("   shrunk: " + r.shrinkNote);
          if (r.minimal != null) {
            out.println("   minimal reproduction (" + reproFile(r) + "):");
            for (Op o : r.minimal) {
              out.println("     " + o.brief());
            }
          }
        }
        return stockBug ? 0 : 1;
      }
    }
    out.println("RESULT: no divergence (" + ops.size() + " calls)");
    return 0;
  }

  private static String brief(Outcome o) {
    String s = o.toString();
    return s.length() <= 400 ? s : s.substring(0, 390) + "…";
  }

  // ------------------------------------------------------------------ summary

  private void summary(long done, long runMs, long restarts) {
    double secs = runMs / 1000.0;
    out.println();
    out.printf("== fuzz-rpc summary (seed %d)%n", seed);
    out.printf(
        "   operations: %d in %.1f s (%.0f/s including start-ups and restarts); restarts: %d;"
            + " NameNode pair start-ups (fresh): %.1f s%n",
        done, secs, done / secs, restarts, startupMs / 1000.0);
    out.println("   " + session.frozen);
    out.printf("   calls: %s%n", calls);
    out.printf("   answered without an exception by both: %s%n", answered);
    out.printf(
        "   divergences: %d; stock restart bugs (not divergences: the NVM NameNode came back with"
            + " what it served, the stock one did not): %d; by kind: %s; distinct: %d%n",
        divergences, stockBugs, byKind, records.size());
    int i = 0;
    for (Record r : records.values()) {
      i++;
      out.printf("%n   [%d] %s — seen %d time(s)%n", i, r.first.signature, r.count);
      out.println("     first: " + indent(r.first.describe(), "       "));
      if (r.shrinkNote != null) {
        out.println("     shrunk: " + r.shrinkNote);
      }
      if (r.minimal != null) {
        out.println("     minimal reproduction (" + reproFile(r) + "):");
        for (Op o : r.minimal) {
          out.println("       " + o.brief());
        }
      } else {
        int from = Math.max(0, r.sequence.size() - 8);
        out.println("     last calls before it (" + r.sequence.size() + " since the fresh start):");
        for (int j = from; j < r.sequence.size(); j++) {
          out.println("       " + j + ": " + r.sequence.get(j).brief());
        }
      }
    }
    out.println();
    out.println(
        divergences == 0
            ? "RESULT: PASS — no divergence (seed "
                + seed
                + (stockBugs == 0 ? "" : "; " + stockBugs + " stock restart bug(s) reported")
                + ")"
            : "RESULT: FAIL — "
                + divergences
                + " divergence(s), "
                + records.size()
                + " distinct (seed "
                + seed
                + ")");
  }

  private static String indent(String s, String pad) {
    return s.replace("\n", "\n" + pad);
  }
}
