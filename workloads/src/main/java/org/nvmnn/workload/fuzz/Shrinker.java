package org.nvmnn.workload.fuzz;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Makes a diverging sequence short. For a divergence at a restart, a binary search first finds the
 * call that left the state behind (the shortest prefix that still diverges at a restart). A
 * candidate reproduces when a fresh pair of NameNodes fed it diverges with the same signature
 * (kind, side, call, and the exception classes, field or log reason). First a few guesses, smallest
 * first: the diverging call alone; the calls with a hostile tag; the calls whose paths are related
 * to it (ancestors, descendants, rename partners); the whole sequence. Then delta debugging (ddmin:
 * drop halves, then quarters, … down to single calls) on the first guess that reproduces, keeping
 * the last call. Every test starts a fresh pair, so it costs a NameNode start-up (about 3-5 s
 * here); the time budget bounds the whole.
 */
final class Shrinker {
  /** Runs a sequence on a fresh pair: the first divergence, or null. */
  interface Oracle {
    Divergence run(List<Op> ops) throws Exception;
  }

  private final Oracle oracle;
  private final long deadline;
  int tests;

  Shrinker(Oracle oracle, long budgetMs) {
    this.oracle = oracle;
    this.deadline = System.currentTimeMillis() + budgetMs;
  }

  boolean outOfTime() {
    return System.currentTimeMillis() > deadline;
  }

  /**
   * The shortest sequence found that reproduces {@code signature}, or null if not even the whole
   * sequence does (the divergence depends on timing).
   */
  List<Op> shrink(List<Op> seq, String signature, String focus) throws Exception {
    Op last = seq.get(seq.size() - 1);
    List<List<Op>> guesses = new ArrayList<>();
    if (last.call == Call.RESTART && seq.size() > 2) {
      // what a restart trips over was written by one call: the shortest prefix that still
      // diverges at a restart right after it ends with that call
      int m = culprit(seq, signature);
      if (m >= 0) {
        Op c = seq.get(m);
        List<Op> prefix = new ArrayList<>(seq.subList(0, m + 1));
        prefix.add(last);
        List<Op> alone = new ArrayList<>();
        alone.add(c);
        alone.add(last);
        guesses.add(alone);
        Set<String> seeds = new LinkedHashSet<>(c.paths());
        if (focus != null) {
          seeds.add(focus);
        }
        seeds.remove("/");
        guesses.add(slice(prefix, seeds, false));
        guesses.add(prefix);
        seq = prefix;
      }
    } else {
      guesses.add(single(last));
    }
    guesses.add(slice(seq, focus));
    guesses.add(taggedSlice(seq, focus));
    guesses.add(tagged(seq));
    guesses.add(seq);
    List<Op> cur = null;
    Set<String> tried = new LinkedHashSet<>();
    for (List<Op> g : guesses) {
      if (!tried.add(g.toString())) {
        continue;
      }
      if (outOfTime() && cur != null) {
        break;
      }
      List<Op> r = test(g, signature);
      if (r != null) {
        cur = r;
        break;
      }
    }
    if (cur == null) {
      return null;
    }
    return ddmin(cur, signature);
  }

  /**
   * Binary search for the smallest m such that calls 0..m followed by the final RESTART diverge the
   * same way; -1 if none does within the budget. Assumes that once a prefix diverges at the
   * restart, every longer one does (true for state that stays wrong, such as an edit the log cannot
   * replay or a name the region refuses; a later call that removes the bad state breaks it, and the
   * guesses after this one still cover the whole sequence).
   */
  private int culprit(List<Op> seq, String signature) throws Exception {
    Op restart = seq.get(seq.size() - 1);
    int lo = 0;
    int hi = seq.size() - 2; // assumed to reproduce: the run saw it
    boolean found = false;
    while (lo < hi && !outOfTime()) {
      int mid = (lo + hi) >>> 1;
      List<Op> cand = new ArrayList<>(seq.subList(0, mid + 1));
      cand.add(restart);
      if (test(cand, signature) != null) {
        hi = mid;
        found = true;
      } else {
        lo = mid + 1;
      }
    }
    return found || lo == hi ? hi : -1;
  }

  /** The candidate cut after the call where it diverged, if it reproduces; else null. */
  private List<Op> test(List<Op> cand, String signature) throws Exception {
    tests++;
    Divergence d = oracle.run(cand);
    if (d == null || !d.signature.equals(signature)) {
      return null;
    }
    int end = (int) Math.min(cand.size(), d.opIndex + 1);
    return new ArrayList<>(cand.subList(0, end));
  }

  private List<Op> ddmin(List<Op> start, String signature) throws Exception {
    List<Op> cur = start;
    int n = 2;
    while (cur.size() > 1 && !outOfTime()) {
      // the last call (where it diverges) stays; chunks of the calls before it are dropped
      List<Op> body = cur.subList(0, cur.size() - 1);
      Op last = cur.get(cur.size() - 1);
      if (body.isEmpty()) {
        break;
      }
      n = Math.min(n, body.size());
      boolean reduced = false;
      for (int i = 0; i < n && !outOfTime(); i++) {
        int from = body.size() * i / n;
        int to = body.size() * (i + 1) / n;
        List<Op> cand = new ArrayList<>(body.subList(0, from));
        cand.addAll(body.subList(to, body.size()));
        cand.add(last);
        List<Op> r = test(cand, signature);
        if (r != null) {
          cur = r;
          n = Math.max(n - 1, 2);
          reduced = true;
          break;
        }
      }
      if (!reduced) {
        if (n >= body.size()) {
          break;
        }
        n = Math.min(body.size(), n * 2);
      }
    }
    return cur;
  }

  private static List<Op> single(Op last) {
    List<Op> l = new ArrayList<>();
    l.add(last);
    return l;
  }

  /**
   * The slice (below) seeded with the paths of every call with a hostile tag as well: the hostile
   * calls with what they depend on.
   */
  static List<Op> taggedSlice(List<Op> seq, String focus) {
    Set<String> seeds = new LinkedHashSet<>();
    if (focus != null) {
      seeds.add(focus);
    }
    for (Op o : seq) {
      if (!o.tags.isEmpty()) {
        seeds.addAll(o.paths());
      }
    }
    seeds.remove("/");
    return slice(seq, seeds, true);
  }

  /** The calls with a hostile tag, and RESTARTs, then the last call. */
  static List<Op> tagged(List<Op> seq) {
    List<Op> l = new ArrayList<>();
    for (int i = 0; i < seq.size() - 1; i++) {
      Op o = seq.get(i);
      if (!o.tags.isEmpty() || o.call == Call.RESTART) {
        l.add(o);
      }
    }
    l.add(seq.get(seq.size() - 1));
    return l;
  }

  /**
   * Walking back from the last call: a call is kept when one of its paths is an ancestor, a
   * descendant or the same as a path kept so far; its own paths are then kept too. Calls without
   * paths (lease renewals, heartbeats), calls on the root and RESTARTs are kept; the root is never
   * added to the kept paths (it would relate everything).
   */
  static List<Op> slice(List<Op> seq, String focus) {
    Set<String> seeds = new LinkedHashSet<>();
    if (focus != null) {
      seeds.add(focus);
    }
    return slice(seq, seeds, false);
  }

  private static List<Op> slice(List<Op> seq, Set<String> seeds, boolean keepTagged) {
    Op last = seq.get(seq.size() - 1);
    Set<String> rel = new LinkedHashSet<>(last.paths());
    rel.addAll(seeds);
    rel.remove("/");
    List<Op> keep = new ArrayList<>();
    keep.add(last);
    for (int i = seq.size() - 2; i >= 0; i--) {
      Op o = seq.get(i);
      Set<String> ps = o.paths();
      boolean related =
          ps.isEmpty()
              || o.call == Call.RESTART
              || rel.isEmpty()
              || (keepTagged && !o.tags.isEmpty());
      for (String p : ps) {
        for (String r : rel) {
          if (related(p, r)) {
            related = true;
            break;
          }
        }
        if (related) {
          break;
        }
      }
      if (related) {
        keep.add(0, o);
        for (String p : ps) {
          if (!p.equals("/")) {
            rel.add(p);
          }
        }
      }
    }
    return keep;
  }

  static boolean related(String a, String b) {
    if (a.equals("/") || b.equals("/")) {
      return true; // the root is everything's ancestor (quotas, permissions, policies on it)
    }
    return Bindings.under(a, b) || Bindings.under(b, a);
  }
}
