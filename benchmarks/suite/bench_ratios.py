#!/usr/bin/env python3
"""Side-by-side ratios and the performance targets, from a run's results.csv.

Usage: bench_ratios.py RESULTS_DIR
Writes RESULTS_DIR/ratios.csv and RESULTS_DIR/targets.csv, prints the medians, the ratios and
every target with its measured median ratio and PASS / MISS (or "not measured").

A ratio is always "how many times better the numerator configuration is": value(num) /
value(den) for rates (ops/s, files/s), value(den) / value(num) for times, sizes and counts per
operation (s, ms, B/file, writes/op, KiB/op, flushes/op), so > 1 means the numerator (an NVM
configuration) is better. Ratios are computed run by run (run k of one configuration against run
k of the other: they ran back to back) and summarised by their median, min and max.
"""
import csv
import math
import os
import statistics
import sys
from collections import defaultdict

HIGHER_IS_BETTER = {"ops/s", "files/s"}
# the local disk's statistics per operation (bench_diskstats.ROWS): lower is better, and 0 is a
# measurement (no flush at all), where a rate or time of 0 is none
COUNTS_PER_OP = {"writes/op", "KiB/op", "flushes/op"}
# what a run measured but no configuration does better or worse: the HA timings' catch-up-edits,
# how many edits the standby was behind (set by the workload, not by the configuration)
NO_RATIO = {"edits"}
# nvm-msync: the configuration nvm-disk replaced, still in older results (their ratios are recomputed
# with every segment added and by bench_ratios.py DIR)
NVM = ("nvm-emulated", "nvm-disk", "nvm-cold", "nvm-warm", "nvm-msync")
# The HA configurations are compared only as these pairs (numerator, denominator): NVM HA against
# stock HA with the JournalNodes' edits on the same medium, and each HA pair against the non-HA
# configuration of its NameNodes (HA's cost: below 1 when HA is slower).
# The disk mode's pair (nvm-disk-ha-disk) against stock HA, against the emulated mode's pair (the
# same JournalNodes; above 1 when the disk mode is better) and against nvm-disk (HA's cost).
HA_PAIRS = (
    ("nvm-ha-disk", "stock-ha-disk"),
    ("nvm-ha-tmpfs", "stock-ha-tmpfs"),
    ("nvm-disk-ha-disk", "stock-ha-disk"),
    ("nvm-disk-ha-disk", "nvm-ha-disk"),
    ("nvm-ha-disk", "nvm-emulated"),
    ("nvm-ha-tmpfs", "nvm-emulated"),
    ("nvm-disk-ha-disk", "nvm-disk"),
    ("stock-ha-disk", "stock-disk"),
    ("stock-ha-tmpfs", "stock-tmpfs"),
)


# Apache Hadoop 3.5.0 (the h35-* configurations, NNThroughputBenchmark): besides being a denominator
# of every NVM configuration, as the stock 2.7.3 ones are, compared with itself (fine-grained
# against the global lock, on the same medium) and with stock 2.7.3 on the same medium.
H35_PAIRS = (
    ("h35-fgl-disk", "h35-disk"),
    ("h35-fgl-tmpfs", "h35-tmpfs"),
    ("h35-disk", "stock-disk"),
    ("h35-tmpfs", "stock-tmpfs"),
    ("h35-fgl-disk", "stock-disk"),
    ("h35-fgl-tmpfs", "stock-tmpfs"),
)


def is_ha(config):
    return "-ha-" in config


def load(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def advantage(num, den, unit):
    """How many times better num is than den in this unit (None: no ratio)."""
    if unit in NO_RATIO:
        return None
    if unit in COUNTS_PER_OP and num >= 0 and den >= 0:
        if num == 0:
            return 1.0 if den == 0 else math.inf
        return den / num
    if num <= 0 or den <= 0:
        return None
    return num / den if unit in HIGHER_IS_BETTER else den / num


def group(rows):
    """(workload, op, threads, size) -> config -> run -> value, and the unit per group.

    A later row for the same (workload, op, threads, size, config, run) replaces an earlier one:
    a segment added with --into that measures a size again supersedes the earlier measurement of
    it (results.csv keeps both; ratios, targets, medians and charts use the later one)."""
    g = defaultdict(lambda: defaultdict(dict))
    units = {}
    for r in rows:
        key = (r["workload"], r["op"], r["threads"], r["size"])
        g[key][r["config"]][r["run"]] = float(r["value"])
        units[key] = r["unit"]
    return g, units


def pairs(cfgs):
    """The (numerator, denominator) pairs compared among the configurations of one group: every NVM
    configuration against every stock 2.7.3 and Hadoop 3.5.0 one, and the HA and 3.5.0 pairs."""
    out = []
    for num in [c for c in NVM if c in cfgs]:
        dens = [c for c in cfgs if not c.startswith("nvm-") and not is_ha(c)]
        if num == "nvm-emulated" and "nvm-baseline" in cfgs:
            dens.append("nvm-baseline")  # a code change: this build against another's
        out += [(num, den) for den in sorted(dens)]
        # the two NVM modes are not compared with each other here
    return out + [(num, den) for num, den in HA_PAIRS + H35_PAIRS if num in cfgs and den in cfgs]


def ratios(g, units):
    out = []
    for key in sorted(g, key=sort_key):
        cfgs = g[key]
        for num, den in pairs(cfgs):
            rs = [advantage(cfgs[num][run], cfgs[den][run], units[key])
                  for run in sorted(cfgs[num]) if run in cfgs[den]]
            rs = [x for x in rs if x is not None]
            if rs:
                out.append((key, num, den, statistics.median(rs), min(rs), max(rs), len(rs)))
    return out


def sort_key(key):
    w, op, t, s = key
    return (w, op, int(t) if t.isdigit() else 0, int(s) if s.isdigit() else 0)


WRITE_OPS = ("create", "mkdirs", "delete", "rename")
READ_OPS = ("open", "fileStatus")
# (description, workload, ops, size, threads, numerator, denominator, threshold); size or threads
# None: every size or thread count measured; a target passes when the median ratio (advantage:
# for a count per operation, den / num) reaches the threshold. Issue 39's targets are the nvm-disk
# ones (the restart one included) and the 2-thread one against stock-nojournal (1.0x; it was 0.9x); issue 27's, the 8-thread
# one against stock-nojournal and the 1M-file read one; the others are earlier issues' and still
# hold.
RATIO_TARGETS = [
    ("write ops: nvm-emulated >= 5x stock-disk", "nnthroughput", WRITE_OPS, None, None,
     "nvm-emulated", "stock-disk", 5.0),
    ("write ops: nvm-emulated >= 1.2x stock-tmpfs", "nnthroughput", WRITE_OPS, None, None,
     "nvm-emulated", "stock-tmpfs", 1.2),
    ("write ops, 8 threads: nvm-emulated >= 1.0x stock-nojournal", "nnthroughput", WRITE_OPS, None, "8",
     "nvm-emulated", "stock-nojournal", 1.0),
    ("write ops, 2 threads: nvm-emulated >= 1.0x stock-nojournal", "nnthroughput", WRITE_OPS, None, "2",
     "nvm-emulated", "stock-nojournal", 1.0),
    # the disk mode against the stock NameNode with its edits on the same disk: the same durability
    ("write ops, 2 threads: nvm-disk >= 1.0x stock-disk", "nnthroughput", WRITE_OPS, None, "2",
     "nvm-disk", "stock-disk", 1.0),
    ("write ops, 8 threads: nvm-disk >= 1.5x stock-disk", "nnthroughput", WRITE_OPS, None, "8",
     "nvm-disk", "stock-disk", 1.5),
    # per create+close, from the start of the creates to the JVM's exit (bench_nnthroughput.py): the
    # other ops' windows hold the write-back of their setup's creates too
    ("create+close, cache flushes per op: nvm-disk <= stock-disk (stock-disk's / nvm-disk's >= 1.0)",
     "nnthroughput", ("create-disk-flushes",), None, None, "nvm-disk", "stock-disk", 1.0),
    ("create+close, KiB written per op: nvm-disk <= 1.5x stock-disk (stock-disk's / nvm-disk's >= 0.67)",
     "nnthroughput", ("create-disk-KiB",), None, None, "nvm-disk", "stock-disk", 1 / 1.5),
    ("streaming files/s: nvm-disk >= 1.2x stock-disk", "streaming", ("files",), None, None,
     "nvm-disk", "stock-disk", 1.2),
    ("streaming files/s: nvm-disk >= 0.9x stock-nojournal", "streaming", ("files",), None, None,
     "nvm-disk", "stock-nojournal", 0.9),
    ("NNBenchWithoutMR createWrite files/s: nvm-disk >= 1.3x stock-disk", "nnbench-nomr", ("createWrite",), None,
     None, "nvm-disk", "stock-disk", 1.3),
    ("read ops: nvm-emulated >= 0.95x stock-disk", "nnthroughput", READ_OPS, None, None,
     "nvm-emulated", "stock-disk", 0.95),
    # 1M files through the default 100,000-file cache: reads materialize their files. Against
    # stock-tmpfs: a read does not touch the journal, and stock-disk's 1M-file setup alone takes
    # minutes per run
    ("read ops, 1M files, default cache: nvm-emulated >= 0.95x stock-tmpfs", "nnthroughput", READ_OPS, "1000000",
     None, "nvm-emulated", "stock-tmpfs", 0.95),
    ("read ops, every file cached: nvm-warm >= 0.95x stock-disk", "nnthroughput", READ_OPS, None, None,
     "nvm-warm", "stock-disk", 0.95),
    ("restart 1M files: NVM scan >= 10x faster than stock fsimage load", "recovery", ("load",), "1000000", None,
     "nvm-emulated", "stock-disk:fsimage", 10.0),
    ("restart 1M files: NVM scan >= 25x faster than stock edit replay", "recovery", ("load",), "1000000", None,
     "nvm-emulated", "stock-disk:edits", 25.0),
    # issue 39: the disk mode's worst case, a kill -9 with the write-ahead log at its checkpoint bound
    # (wl-recovery.sh's fill), every restart replaying it
    ("restart 1M files, log at its bound: nvm-disk load <= stock fsimage load", "recovery", ("load",), "1000000",
     None, "nvm-disk", "stock-disk:fsimage", 1.0),
]
# the same comparisons at other namespace sizes are shown as information, not as targets; the
# restart and heap lines leave out 1M files (the restart targets' size), the heap-attrs ones do not
INFO_RATIOS = [
    ("restart (other sizes): NVM scan vs stock fsimage load", "recovery", ("load", "namespace-ready"), None,
     "nvm-emulated", "stock-disk:fsimage"),
    ("restart (other sizes): NVM scan vs stock edit replay", "recovery", ("load", "namespace-ready"), None,
     "nvm-emulated", "stock-disk:edits"),
    ("restart (other sizes), log at its bound: nvm-disk vs stock fsimage load", "recovery", ("load", "namespace-ready"),
     None, "nvm-disk", "stock-disk:fsimage"),
    ("heap (ARCHITECTURE.md goal: namespace heap per file <= 50% of stock, i.e. >= 2x)", "heap",
     ("namespace-per-file",), None, "nvm-emulated", "stock-tmpfs"),
    ("heap per file without and with an ACL and two xattrs (stock bytes / NVM bytes)", "heap-attrs",
     ("empty-per-file", "attrs-per-file"), None, "nvm-emulated", "stock-tmpfs"),
]
# the HA comparisons shown with the targets: (description, {workload: ops}, numerator, denominator)
HA_OPS = {"nnbench-nomr": ("createWrite",), "streaming": ("files", "create-p50", "create-p99"),
          "ha-timings": ("catch-up", "catch-up-apply", "failover", "standby-restart", "active-restart", "rejoin")}
HA_INFO = [
    ("HA, JournalNodes on disk: NVM HA vs stock HA", HA_OPS, "nvm-ha-disk", "stock-ha-disk"),
    ("HA, JournalNodes on tmpfs: NVM HA vs stock HA", HA_OPS, "nvm-ha-tmpfs", "stock-ha-tmpfs"),
    ("HA, JournalNodes on disk: NVM HA in the disk mode vs stock HA", HA_OPS, "nvm-disk-ha-disk", "stock-ha-disk"),
    ("HA, JournalNodes on disk: NVM HA, the disk mode vs the emulated mode", HA_OPS, "nvm-disk-ha-disk",
     "nvm-ha-disk"),
    ("HA's cost, NVM: HA (JournalNodes on disk) vs nvm-emulated", HA_OPS, "nvm-ha-disk", "nvm-emulated"),
    ("HA's cost, NVM: HA (JournalNodes on tmpfs) vs nvm-emulated", HA_OPS, "nvm-ha-tmpfs", "nvm-emulated"),
    ("HA's cost, NVM in the disk mode: nvm-disk-ha-disk vs nvm-disk", HA_OPS, "nvm-disk-ha-disk", "nvm-disk"),
    ("HA's cost, stock: stock-ha-disk vs stock-disk", HA_OPS, "stock-ha-disk", "stock-disk"),
    ("HA's cost, stock: stock-ha-tmpfs vs stock-tmpfs", HA_OPS, "stock-ha-tmpfs", "stock-tmpfs"),
]


# Hadoop 3.5.0 as an anchor, listed with the targets as information (no target is set against it):
# (description, ops, numerator, denominator)
H35_INFO = [
    ("write ops vs Hadoop 3.5.0 (global lock, edits on disk): nvm-emulated / h35-disk", WRITE_OPS,
     "nvm-emulated", "h35-disk"),
    ("write ops vs Hadoop 3.5.0 (global lock, edits on tmpfs): nvm-emulated / h35-tmpfs", WRITE_OPS,
     "nvm-emulated", "h35-tmpfs"),
    ("write ops vs Hadoop 3.5.0 (fine-grained locking, edits on disk): nvm-emulated / h35-fgl-disk", WRITE_OPS,
     "nvm-emulated", "h35-fgl-disk"),
    ("write ops vs Hadoop 3.5.0 (fine-grained locking, edits on tmpfs): nvm-emulated / h35-fgl-tmpfs", WRITE_OPS,
     "nvm-emulated", "h35-fgl-tmpfs"),
    ("read ops vs Hadoop 3.5.0 (global lock): nvm-emulated / h35-tmpfs", READ_OPS, "nvm-emulated", "h35-tmpfs"),
    ("read ops vs Hadoop 3.5.0 (fine-grained locking): nvm-emulated / h35-fgl-tmpfs", READ_OPS,
     "nvm-emulated", "h35-fgl-tmpfs"),
]


def measurement(key):
    """How a target's line names one measurement (workload, op, threads, size)."""
    w, op, t, s = key
    if w == "nnthroughput":
        return f"{op} threads={t} n={s}"
    if w == "streaming":
        return f"{op} clients={t} bytes={s}"
    return f"{op} n={s}"


def evaluate(rat, g):
    by = {(k, n, d): (m, lo, hi, c) for k, n, d, m, lo, hi, c in rat}
    lines = []
    for desc, w, ops, size, threads, num, den, thr in RATIO_TARGETS:
        hits = [(k, v) for (k, n, d), v in by.items() if k[0] == w and k[1] in ops and n == num and d == den
                and (size is None or k[3] == size) and (threads is None or k[2] == threads)]
        if not hits:
            lines.append((desc, "-", "-", "-", "not measured in this run", ""))
            continue
        for k, (m, lo, hi, c) in sorted(hits, key=lambda x: sort_key(x[0])):
            lines.append((desc, measurement(k), f"{m:.2f}", f"{lo:.2f}-{hi:.2f}", f"{c} runs",
                          "PASS" if m >= thr else "MISS"))
    # 10M files: an absolute time
    desc = "restart 10M files: NVM namespace rebuild (loadFSImage) < 5 s"
    runs = g.get(("recovery", "load", "0", "10000000"), {}).get("nvm-emulated", {})
    if runs:
        v = sorted(runs.values())
        med = statistics.median(v)
        lines.append((desc, "load n=10000000", f"{med:.2f} s", f"{v[0]:.2f}-{v[-1]:.2f} s", f"{len(v)} runs",
                      "PASS" if med < 5.0 else "MISS"))
    else:
        lines.append((desc, "-", "-", "-", "not measured in this run", ""))
    info = []
    for desc, w, ops, size, num, den in INFO_RATIOS:
        for (k, n, d), (m, lo, hi, c) in sorted(by.items(), key=lambda x: sort_key(x[0][0])):
            if k[0] == w and k[1] in ops and n == num and d == den and (k[3] != "1000000" or w == "heap-attrs"):
                info.append((desc, f"{k[1]} n={k[3]}", f"{m:.2f}", f"{lo:.2f}-{hi:.2f}", f"{c} runs", "info"))
    for desc, ops, num, den in H35_INFO:
        for (k, n, d), (m, lo, hi, c) in sorted(by.items(), key=lambda x: sort_key(x[0][0])):
            if k[0] == "nnthroughput" and k[1] in ops and n == num and d == den:
                what = f"{k[1]} threads={k[2]} n={k[3]}"
                info.append((desc, what, f"{m:.2f}", f"{lo:.2f}-{hi:.2f}", f"{c} runs", "info"))
    for desc, ops, num, den in HA_INFO:
        for (k, n, d), (m, lo, hi, c) in sorted(by.items(), key=lambda x: sort_key(x[0][0])):
            if k[1] in ops.get(k[0], ()) and n == num and d == den:
                what = f"{k[0]} {k[1]} t={k[2]} n={k[3]}"
                info.append((desc, what, f"{m:.2f}", f"{lo:.2f}-{hi:.2f}", f"{c} runs", "info"))
    return lines, info


def print_medians(g, units):
    print("medians per configuration (all runs):")
    cur = None
    for key in sorted(g, key=sort_key):
        if key[0] != cur:
            cur = key[0]
            print(f"  [{cur}]")
        cells = []
        for c in sorted(g[key]):
            v = list(g[key][c].values())
            cells.append(f"{c}={statistics.median(v):,.2f}")
        print(f"    {key[1]} threads={key[2]} size={key[3]} ({units[key]}): " + ", ".join(cells))


def report(d):
    """Writes d/ratios.csv and d/targets.csv from d/results.csv and prints the report; 0 if any rows."""
    rows = load(os.path.join(d, "results.csv"))
    if not rows:
        print("no measurements in", d)
        return 1
    g, units = group(rows)
    rat = ratios(g, units)
    with open(os.path.join(d, "ratios.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["workload", "op", "threads", "size", "numerator", "denominator",
                    "median_ratio", "min_ratio", "max_ratio"])
        for (wl, op, t, s), num, den, m, lo, hi, _ in rat:
            w.writerow([wl, op, t, s, num, den, f"{m:.4f}", f"{lo:.4f}", f"{hi:.4f}"])
    print_medians(g, units)
    print()
    print("ratios (numerator better by; run by run: median [min-max] over n runs):")
    for (wl, op, t, s), num, den, m, lo, hi, c in rat:
        print(f"  {wl} {op} threads={t} size={s}: {num} / {den} = {m:.2f} [{lo:.2f}-{hi:.2f}] n={c}")
    lines, info = evaluate(rat, g)
    with open(os.path.join(d, "targets.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["target", "measurement", "median", "range", "runs", "verdict"])
        w.writerows(lines + info)
    print()
    print("targets:")
    width = max(len(x[0]) for x in lines + info)
    what_width = max([28] + [len(x[1]) for x in lines + info])
    for desc, what, med, rng, runs, verdict in lines + info:
        print(f"  {desc:<{width}}  {what:<{what_width}} median {med:>8}  [{rng}] {runs:<8} {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(report(sys.argv[1]))
