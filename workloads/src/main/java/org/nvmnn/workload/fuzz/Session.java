package org.nvmnn.workload.fuzz;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.SafeModeAction;

/**
 * A stock and an NVM NameNode side by side, fed the same calls. A call goes to the NVM NameNode
 * first: if it refuses the call by design (an {@code NvmUnsupportedOperationException} for a call
 * on the {@link RefusalList}) or for want of region space ({@code NvmRegionFullException}), the
 * call is counted and not sent to the stock NameNode, so both namespaces stay equal; otherwise the
 * stock NameNode gets it and the two outcomes must agree. RESTART SIGKILLs both, restarts both,
 * re-registers the DataNodes and compares the full listings before and after.
 */
final class Session implements AutoCloseable {
  static final String REFUSED =
      "org.apache.hadoop.hdfs.server.namenode.NvmUnsupportedOperationException";
  static final String REGION_FULL = "org.apache.hadoop.hdfs.server.namenode.NvmRegionFullException";

  /**
   * Calls whose return value is not compared, only whether they threw and what: transaction ids,
   * which the NVM NameNode's edit log (it carries no namespace transactions) counts differently,
   * and createSnapshot's path (a default snapshot name holds the NameNode's clock; refused in NVM
   * mode anyway, it matters for BASELINE runs).
   */
  static final java.util.Set<Call> VALUE_NOT_COMPARED =
      java.util.EnumSet.of(Call.getCurrentEditLogTxid, Call.rollEdits, Call.createSnapshot);

  /**
   * Not divergences but stock bugs: the two namespaces were equal before a restart, and either the
   * NVM NameNode came back with exactly what it served while the stock NameNode's restart changed
   * its namespace (its edit log did not say what it had done in memory), or the stock NameNode did
   * not come back (its edit-log replay threw) while the NVM one did. Counted and reproduced like
   * divergences, reported apart (docs/bad-input.md).
   */
  static final String STOCK_RESTART_CHANGED = "stock-restart-changed";

  static final String STOCK_RESTART_FAILED = "stock-restart-failed";

  static boolean stockBug(Divergence d) {
    return d.kind.equals(STOCK_RESTART_CHANGED) || d.kind.equals(STOCK_RESTART_FAILED);
  }

  final Side stock;
  final Side nvm;
  private final RefusalList refusals;
  private final long startTimeoutMs;
  private final int maxEntries;
  private final ExecutorService pool = Executors.newFixedThreadPool(2);
  private boolean closed;

  /**
   * Both NameNodes are stock (BASELINE=1): a check of the fuzzer itself, where every divergence is
   * a false positive (or a stock NameNode that fails to restart); refusals are not expected.
   */
  boolean baseline;

  /** The stock NameNode saves its namespace before each kill ({@link #checkpoint}). */
  boolean stockCheckpoint;

  /** Per call: how often the NVM NameNode refused it by design; and region-full refusals. */
  final Map<String, Long> refused = new TreeMap<>();

  long regionFull;

  /** The counters as they were at the end of the run (before shrinking ran more calls). */
  String frozen;

  void freeze() {
    long refusedTotal = 0;
    for (long v : refused.values()) {
      refusedTotal += v;
    }
    frozen =
        String.format(
            "both NameNodes threw the same exception: %d calls; refused by design by the NVM"
                + " NameNode (not sent to stock): %d %s; region full: %d",
            bothThrew, refusedTotal, refused, regionFull);
  }

  long restarts;
  long bothThrew;
  Outcome lastStock;
  Outcome lastNvm;

  /** The stock NameNode's listing after the last restart (the generator resynchronizes). */
  Map<String, Canon> lastListing;

  Session(Side stock, Side nvm, RefusalList refusals, long startTimeoutMs, int maxEntries) {
    this.stock = stock;
    this.nvm = nvm;
    this.refusals = refusals;
    this.startTimeoutMs = startTimeoutMs;
    this.maxEntries = maxEntries;
  }

  /**
   * Both NameNodes from the formatted template, started, ready, DataNodes registered. Returns null,
   * or why they could not be started (an environment problem, not a divergence: nothing was sent
   * yet).
   */
  String fresh() throws Exception {
    stock.fresh();
    nvm.fresh();
    lastListing = null;
    return startBoth();
  }

  private String startBoth() throws Exception {
    stock.proc.start();
    nvm.proc.start();
    Future<String> s = pool.submit(() -> stock.awaitReady(startTimeoutMs));
    Future<String> n = pool.submit(() -> nvm.awaitReady(startTimeoutMs));
    String rs = s.get();
    String rn = n.get();
    if (rs == null && rn == null) {
      stock.connectDatanode();
      nvm.connectDatanode();
      return null;
    }
    return (rs != null ? rs : "") + (rs != null && rn != null ? "; " : "") + (rn != null ? rn : "");
  }

  /** One call on both NameNodes; a divergence, or null when they agree. */
  Divergence step(Op op, long index) throws Exception {
    if (op.call == Call.RESTART) {
      return restart(op, index);
    }
    lastStock = null;
    lastNvm = nvm.run(op);
    Divergence d = died(nvm, op, index, lastNvm);
    if (d != null) {
      stock.skip();
      return d;
    }
    if (lastNvm.isException() && REFUSED.equals(lastNvm.exClass)) {
      stock.skip();
      if (refusals.listed(op)) {
        refused.merge(op.call.name(), 1L, Long::sum);
        return null;
      }
      return new Divergence("undocumented-refusal", "nvm", index, op, lastNvm.shortClass())
          .detail("nvm: " + lastNvm)
          .detail("the call is not in docs/unsupported-operations.md's refusal list");
    }
    if (lastNvm.isException() && REGION_FULL.equals(lastNvm.exClass)) {
      stock.skip();
      regionFull++;
      return null;
    }
    lastStock = stock.run(op);
    d = died(stock, op, index, lastStock);
    if (d != null) {
      return d;
    }
    if (!baseline && refusals.listed(op) && !refusals.conditional(op) && !lastNvm.isException()) {
      return new Divergence("refusal-bypassed", "nvm", index, op, "accepted")
          .detail("the NVM NameNode accepted a call its refusal list names")
          .detail("stock: " + lastStock)
          .detail("nvm:   " + lastNvm);
    }
    if (lastStock.isException() || lastNvm.isException()) {
      if (lastStock.isException()
          && lastNvm.isException()
          && lastStock.exClass.equals(lastNvm.exClass)) {
        bothThrew++;
        return null;
      }
      return new Divergence(
              "exception", "nvm", index, op, lastStock.shortClass() + "/" + lastNvm.shortClass())
          .detail("stock: " + lastStock)
          .detail("nvm:   " + lastNvm);
    }
    if (VALUE_NOT_COMPARED.contains(op.call)) {
      return null;
    }
    String diff = Compare.canon(lastStock.value, stock.w, lastNvm.value, nvm.w);
    if (diff != null) {
      return new Divergence("result", "nvm", index, op, Compare.aspect("x: " + diff))
          .detail(diff)
          .detail("stock: " + lastStock)
          .detail("nvm:   " + lastNvm);
    }
    return null;
  }

  /** A NameNode that did not answer, or exited after answering. */
  private Divergence died(Side side, Op op, long index, Outcome o) {
    if (!o.unreachable && side.proc.alive()) {
      return null;
    }
    boolean exited = side.proc.waitExit(o.unreachable ? 3000 : 0) || !side.proc.alive();
    String kind = exited ? side.name + "-exit" : "hang";
    String reason = side.proc.failureLine();
    Divergence d =
        new Divergence(kind, side.name, index, op, Divergence.reason(reason))
            .at(Divergence.pathIn(reason))
            .detail(side.name + ": " + o)
            .detail(
                exited ? "the process exited with status " + side.proc.exitStatus() : "no answer");
    d.logTail = side.proc.logSinceStart(25);
    return d;
  }

  private Divergence restart(Op op, long index) throws Exception {
    restarts++;
    Map<String, Canon> bs;
    Map<String, Canon> bn;
    try {
      bs = list(stock);
      bn = list(nvm);
    } catch (ListingFailed e) {
      return listingFailed(op, index, "before", e);
    }
    List<String> diffs = Compare.listings(bs, stock.w, bn, nvm.w, 20);
    if (!diffs.isEmpty()) {
      return namespace("namespace-before-restart", op, index, diffs);
    }
    if (stockCheckpoint) {
      checkpoint(stock);
      if (baseline) {
        checkpoint(nvm); // a stock NameNode too
      }
    } else {
      syncStockEditLog();
    }
    stock.disconnect();
    nvm.disconnect();
    stock.proc.kill();
    nvm.proc.kill();
    String why = startBoth();
    if (why != null) {
      boolean nvmDown = why.contains(nvm.name + " NameNode");
      boolean stockDown = why.contains(stock.name + " NameNode");
      Side s = nvmDown ? nvm : stock;
      String side = nvmDown && stockDown ? "both" : s.name;
      String reason = s.proc.failureLine();
      String kind = "restart-failed";
      List<String> nvmChanges = null;
      if (!baseline && !nvmDown) {
        // the NVM NameNode came back; with no stock namespace to compare it with, what its restart
        // changed is listed for the reader (some changes are a restart's in either mode: a last
        // block that was committed but not complete is under construction again, for instance)
        kind = STOCK_RESTART_FAILED;
        nvmChanges = nvmChanges(bn);
      }
      Divergence d =
          new Divergence(kind, side, index, op, Divergence.reason(reason))
              .at(Divergence.pathIn(reason))
              .detail(why)
              .detail("why: " + (reason == null ? "?" : reason));
      if (nvmChanges != null && !nvmChanges.isEmpty()) {
        d.detail("the NVM NameNode came back; what its restart changed:");
        for (String c : nvmChanges) {
          d.detail("  " + c);
        }
      }
      d.logTail = s.proc.logSinceStart(30);
      return d;
    }
    Map<String, Canon> as;
    Map<String, Canon> an;
    try {
      as = list(stock);
      an = list(nvm);
    } catch (ListingFailed e) {
      return listingFailed(op, index, "after", e);
    }
    lastListing = as;
    if (stockCheckpoint && !baseline) {
      // the stock fsimage has no directory access times (a loaded image gives 0): the NVM
      // NameNode must keep its own, and the stock ones are not compared after a restart
      List<String> lost =
          Compare.listings(dirAtimes(bn), nvm.w, "before", dirAtimes(an), nvm.w, "after", 20);
      if (!lost.isEmpty()) {
        return namespace("namespace-after-restart", op, index, lost);
      }
      as = withoutDirAtimes(as);
      an = withoutDirAtimes(an);
      bs = withoutDirAtimes(bs);
      bn = withoutDirAtimes(bn);
    }
    diffs = Compare.listings(as, stock.w, an, nvm.w, 20);
    if (diffs.isEmpty()) {
      return null;
    }
    if (!baseline && nvmKeptWhatItServed(bn, as, an)) {
      // equal before; where they differ now, the NVM NameNode lists what it listed before and the
      // stock one does not: the stock NameNode's restart changed its namespace there
      List<String> own = Compare.listings(bs, stock.w, "before", as, stock.w, "after", 20);
      Divergence d =
          new Divergence(STOCK_RESTART_CHANGED, "stock", index, op, Compare.aspect(own.get(0)));
      d.path = Compare.pathOf(own.get(0));
      d.detail("the stock NameNode's namespace before and after its restart:");
      for (String x : own) {
        d.detail(x);
      }
      return d;
    }
    Divergence d = namespace("namespace-after-restart", op, index, diffs);
    for (String[] own : new String[][] {{"stock", ""}, {"nvm", ""}}) {
      Side x = own[0].equals("stock") ? stock : nvm;
      List<String> changed =
          Compare.listings(
              x == stock ? bs : bn, x.w, "before", x == stock ? as : an, x.w, "after", 10);
      d.detail("the " + x.name + " NameNode's own changes across the restart: " + changed.size());
      for (String c : changed) {
        d.detail("  " + c);
      }
    }
    return d;
  }

  /** A content-summary field summed over a subtree (not the directory's own quotas). */
  private static boolean aggregate(String k) {
    return k.startsWith("summary.")
        && !k.equals("summary.nsquota")
        && !k.equals("summary.dsquota")
        && !k.startsWith("summary.quota.");
  }

  /**
   * Whether every difference between the two NameNodes after the restart is one where the NVM
   * NameNode kept what it served: a path in one listing only that the NVM NameNode listed (or not)
   * before too, and every field that differs unchanged on the NVM side. Content-summary fields
   * (aggregates of the entries' own fields and presence) and replica state (locations, corrupt
   * flags: the block report's) are not judged on their own; at least one entry-level difference
   * must be there, so a difference in aggregates alone stays a divergence.
   */
  private boolean nvmKeptWhatItServed(
      Map<String, Canon> bn, Map<String, Canon> as, Map<String, Canon> an) {
    boolean explained = false;
    for (String p : Compare.differingPaths(as, stock.w, an, nvm.w)) {
      Canon s = as.get(p);
      Canon n = an.get(p);
      Canon b = bn.get(p);
      if (s == null || n == null) {
        if ((b == null) != (n == null)) {
          return false; // the NVM NameNode gained or lost the path across its restart
        }
        explained = true;
        continue;
      }
      if (b == null) {
        return false;
      }
      java.util.Set<String> keys = new java.util.LinkedHashSet<>(s.keys);
      keys.addAll(n.keys);
      for (String k : keys) {
        if (aggregate(k) || k.endsWith(".locs") || k.endsWith(".corrupt")) {
          continue;
        }
        if (Compare.fieldDiffers(s, stock.w, n, nvm.w, k)) {
          if (Compare.fieldDiffers(b, nvm.w, n, nvm.w, k)) {
            return false; // the NVM NameNode changed this field too
          }
          explained = true;
        }
      }
    }
    return explained;
  }

  /**
   * The stock NameNode saves its namespace right before the kill (enter safe mode if it is not in
   * it, saveNamespace, leave again), so that its restart loads an fsimage of exactly what it served
   * instead of replaying edits: the NVM region, too, holds the state rather than the operations.
   * Replay differs from memory in ways that are stock bugs (docs/bad-input.md, "Stock restart
   * bugs") and in one that is not a bug on either side: a file under construction whose last block
   * is complete (append with NEW_BLOCK) keeps it complete through a replay, while a loaded fsimage,
   * like the region, makes every such last block under construction again. The listings compared
   * before the restart were taken before this.
   */
  private void checkpoint(Side side) {
    try {
      ClientProtocol p = side.proxy(0);
      boolean inSafeMode = p.setSafeMode(SafeModeAction.SAFEMODE_GET, false);
      if (!inSafeMode) {
        p.setSafeMode(SafeModeAction.SAFEMODE_ENTER, false);
      }
      try {
        p.saveNamespace();
      } finally {
        if (!inSafeMode) {
          p.setSafeMode(SafeModeAction.SAFEMODE_LEAVE, false);
        }
      }
    } catch (IOException e) {
      syncStockEditLog(); // the restart replays then, and tells
    }
  }

  /**
   * 2.7.3 logs a call's edits before the call can still fail and syncs them only on success: an
   * addBlock that a quota refuses after it allocated a block id and a generation stamp leaves those
   * two edits in the buffer until some later call syncs. A SIGKILL before that loses them, and the
   * restarted stock NameNode hands out the same id and stamp again, while the NVM NameNode (its
   * counters persisted before the call went on) does not. Nothing of the namespace depends on it,
   * so the stock edit log is synced before each kill (rollEdits syncs and changes nothing of the
   * namespace); in safe mode it refuses, and no write can have failed that way since.
   */
  private void syncStockEditLog() {
    try {
      stock.proxy(0).rollEdits();
    } catch (IOException e) {
      // safe mode, or a NameNode that is down: the restart tells
    }
  }

  /**
   * What the NVM NameNode, up again, lists differently from before the restart, replica state
   * (locations, corrupt flags: the block report's) aside.
   */
  private List<String> nvmChanges(Map<String, Canon> before) {
    Map<String, Canon> after;
    try {
      nvm.connectDatanode();
      after = list(nvm);
    } catch (ListingFailed | IOException e) {
      return java.util.Collections.singletonList("the NVM NameNode could not be listed: " + e);
    }
    return Compare.listings(
        namespaceOnly(before), nvm.w, "before", namespaceOnly(after), nvm.w, "after", 10);
  }

  private static boolean isDir(Canon c) {
    return "dir".equals(c.get("type"));
  }

  /** The access times of the directories of a listing (an entry of only that field each). */
  private static Map<String, Canon> dirAtimes(Map<String, Canon> l) {
    Map<String, Canon> out = new TreeMap<>();
    for (Map.Entry<String, Canon> e : l.entrySet()) {
      Canon c = e.getValue();
      int i = c.keys.indexOf("atime");
      if (isDir(c) && i >= 0) {
        Canon a = new Canon();
        a.keys.add("atime");
        a.vals.add(c.vals.get(i));
        out.put(e.getKey(), a);
      }
    }
    return out;
  }

  private static Map<String, Canon> withoutDirAtimes(Map<String, Canon> l) {
    Map<String, Canon> out = new java.util.LinkedHashMap<>();
    for (Map.Entry<String, Canon> e : l.entrySet()) {
      Canon c = e.getValue();
      out.put(e.getKey(), isDir(c) ? c.without("atime") : c);
    }
    return out;
  }

  private static Map<String, Canon> namespaceOnly(Map<String, Canon> l) {
    Map<String, Canon> out = new TreeMap<>();
    for (Map.Entry<String, Canon> e : l.entrySet()) {
      out.put(e.getKey(), e.getValue().namespaceOnly());
    }
    return out;
  }

  private Divergence namespace(String kind, Op op, long index, List<String> diffs) {
    Divergence d = new Divergence(kind, "nvm", index, op, Compare.aspect(diffs.get(0)));
    d.path = Compare.pathOf(diffs.get(0));
    for (String x : diffs) {
      d.detail(x);
    }
    return d;
  }

  /** A listing that failed, with the side it failed on. */
  private static final class ListingFailed extends Exception {
    final Side side;

    ListingFailed(Side side, IOException cause) {
      super(cause);
      this.side = side;
    }
  }

  private Map<String, Canon> list(Side s) throws ListingFailed {
    try {
      return NamespaceListing.list(s.proxy(0), maxEntries);
    } catch (IOException e) {
      throw new ListingFailed(s, e);
    }
  }

  private Divergence listingFailed(Op op, long index, String when, ListingFailed e) {
    Side s = e.side;
    boolean exited = !s.proc.alive();
    Divergence d =
        new Divergence(
                exited ? s.name + "-exit" : "listing-failed",
                s.name,
                index,
                op,
                Outcome.exceptionClass(e.getCause()))
            .detail("listing " + when + " the restart failed: " + e.getCause());
    d.logTail = s.proc.logSinceStart(25);
    return d;
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    stock.disconnect();
    nvm.disconnect();
    stock.proc.kill();
    nvm.proc.kill();
    pool.shutdownNow();
  }
}
