#!/usr/bin/env python3
"""Charts (PNG) of a run, drawn from its results.csv only, after the seed paper's figures.

Usage: bench_charts.py RESULTS_DIR   (writes RESULTS_DIR/charts/*.png and prints their names)
Every bar or point is the median over the runs; error bars span min to max.
"""
import os
import statistics
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from bench_chart_colors import COLORS, ORDER  # noqa: E402
from bench_diskstats import ROWS as DISK_ROWS  # noqa: E402
from bench_ratios import group, load as load_rows  # noqa: E402


def load(d):
    """(workload, op, threads, size, config) -> [value of each run], and the unit per (workload, op).

    The runs are the ones bench_ratios counts (bench_ratios.group: a later row for the same run
    replaces an earlier one), so a chart shows the measurements its ratios are computed from."""
    g, group_units = group(load_rows(os.path.join(d, "results.csv")))
    v = {key + (cfg,): list(runs.values()) for key, cfgs in g.items() for cfg, runs in cfgs.items()}
    units = {(key[0], key[1]): u for key, u in group_units.items()}
    return v, units


def legend(ax, **kw):
    if ax.get_legend_handles_labels()[0]:
        ax.legend(**kw)


def stat(vals):
    m = statistics.median(vals)
    return m, m - min(vals), max(vals) - m


def configs_of(v, pred):
    cs = {k[4] for k in v if pred(k)}
    return [c for c in ORDER if c in cs] + sorted(cs - set(ORDER))


def grouped_bars(ax, groups, configs, getter):
    width = 0.8 / max(1, len(configs))
    for i, c in enumerate(configs):
        xs, ys, lo, hi = [], [], [], []
        for j, g in enumerate(groups):
            vals = getter(g, c)
            if vals:
                m, a, b = stat(vals)
                xs.append(j + i * width - 0.4 + width / 2)
                ys.append(m)
                lo.append(a)
                hi.append(b)
        if xs:
            ax.bar(xs, ys, width, yerr=[lo, hi], capsize=2, label=c, color=COLORS.get(c))
    ax.set_xticks(range(len(groups)))


def save(fig, d, name, out):
    p = os.path.join(d, "charts", name)
    fig.tight_layout()
    fig.savefig(p, dpi=110)
    plt.close(fig)
    out.append(p)


def nnthroughput(v, units, d, out):
    # the ops' rates (the disk statistics' rows per operation have their own chart)
    v = {k: vals for k, vals in v.items() if k[0] == "nnthroughput" and units.get((k[0], k[1])) == "ops/s"}
    keys = {(k[2], k[3]) for k in v if k[0] == "nnthroughput"}
    for t, s in sorted(keys, key=lambda x: (int(x[0]), int(x[1]))):
        ops = sorted({k[1] for k in v if k[0] == "nnthroughput" and k[2] == t and (k[3] == s or k[1] == "blockReport")},
                     key=lambda o: ["create", "mkdirs", "delete", "rename", "open", "fileStatus", "blockReport"].index(o)
                     if o in ["create", "mkdirs", "delete", "rename", "open", "fileStatus", "blockReport"] else 99)
        ops = [o for o in ops if o != "blockReport" or any(k[0] == "nnthroughput" and k[1] == o and k[2] == t for k in v)]
        cfgs = configs_of(v, lambda k: k[0] == "nnthroughput" and k[2] == t)
        # wider with Hadoop 3.5.0's four configurations beside 2.7.3's
        fig, ax = plt.subplots(figsize=(10 if len(cfgs) <= 6 else 13, 4.5))
        grouped_bars(ax, ops, cfgs, lambda o, c: [x for k, vals in v.items() for x in vals
                                                  if k[0] == "nnthroughput" and k[1] == o and k[2] == t and k[4] == c
                                                  and (k[3] == s or o == "blockReport")])
        ax.set_xticklabels(ops)
        ax.set_yscale("log")
        ax.set_ylabel("operations / s (log)")
        ax.set_title(f"NNThroughputBenchmark, {t} threads, {int(s):,} operations")
        legend(ax, fontsize=8)
        save(fig, d, f"nnthroughput-t{t}-n{s}.png", out)


def nnthroughput_disk(v, d, out):
    """The disk statistics per operation of the configurations that persist on the local disk: per
    thread count and size, writes, KiB and flushes per operation, by op."""
    suffixes = {f"-{suffix}": unit for suffix, unit in DISK_ROWS}

    def split(op):
        return next(((op[:-len(x)], x) for x in suffixes if op.endswith(x)), (None, None))
    keys = {(k[2], k[3]) for k in v if k[0] == "nnthroughput" and split(k[1])[0]}
    order = ["create", "mkdirs", "delete", "rename", "open", "fileStatus", "blockReport"]
    for t, s in sorted(keys, key=lambda x: (int(x[0]), int(x[1]))):
        mine = {k: vals for k, vals in v.items() if k[0] == "nnthroughput" and k[2] == t and k[3] == s
                and split(k[1])[0]}
        ops = sorted({split(k[1])[0] for k in mine}, key=lambda o: order.index(o) if o in order else 99)
        cfgs = configs_of(mine, lambda k: True)
        fig, axs = plt.subplots(1, len(suffixes), figsize=(15, 4.2))
        for ax, (x, unit) in zip(axs, suffixes.items()):
            grouped_bars(ax, ops, cfgs, lambda o, c: mine.get(("nnthroughput", o + x, t, s, c), []))
            ax.set_xticklabels(ops, fontsize=8)
            ax.set_ylabel(unit.replace("/op", " per operation"))
            legend(ax, fontsize=7)
        fig.suptitle(f"NNThroughputBenchmark, the local disk's statistics: {t} threads, {int(s):,} operations")
        save(fig, d, f"nnthroughput-disk-t{t}-n{s}.png", out)


def lines_by_size(v, d, out, workload, op, title, ylabel, name, logx=True, logy=False):
    cfgs = configs_of(v, lambda k: k[0] == workload and k[1] == op)
    if not cfgs:
        return
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for c in cfgs:
        pts = sorted((int(k[3]), stat(vals)) for k, vals in v.items() if k[0] == workload and k[1] == op and k[4] == c)
        if pts:
            ax.errorbar([p[0] for p in pts], [p[1][0] for p in pts],
                        yerr=[[p[1][1] for p in pts], [p[1][2] for p in pts]], marker="o", capsize=3, label=c,
                        color=COLORS.get(c))
    if logx:
        ax.set_xscale("log")
    if logy:
        ax.set_yscale("log")
    ax.set_xlabel("files")
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    legend(ax, fontsize=8)
    save(fig, d, name, out)


def nnbench_mr(v, d, out):
    sizes = sorted({k[3] for k in v if k[0] == "nnbench-mr"}, key=int)
    for s in sizes:
        maps = sorted({k[2] for k in v if k[0] == "nnbench-mr" and k[3] == s}, key=int)
        cfgs = configs_of(v, lambda k: k[0] == "nnbench-mr" and k[3] == s)
        fig, axs = plt.subplots(1, 2, figsize=(11, 4.2))
        for ax, op, yl in ((axs[0], "elapsed", "longest map time (s)"), (axs[1], "create_write-tps", "TPS create/write/close")):
            grouped_bars(ax, maps, cfgs, lambda m, c: v.get(("nnbench-mr", op, m, s, c), []))
            ax.set_xticklabels([f"{m} maps" for m in maps])
            ax.set_ylabel(yl)
            legend(ax, fontsize=7)
        fig.suptitle(f"NNBench (local runner), {int(s):,} files in total")
        save(fig, d, f"nnbench-mr-n{s}.png", out)


def recovery(v, d, out):
    # log time axis: the stock edit replay and the NVM load differ by two orders of magnitude (seed Fig. 13)
    for op, yl in (("load", "namesystem load (s, log)"), ("namespace-ready", "launch to first answered RPC (s, log)")):
        lines_by_size(v, d, out, "recovery", op, f"Restart: {op} vs namespace size", yl, f"recovery-{op}.png",
                      logy=True)


def heap(v, d, out):
    cfgs = configs_of(v, lambda k: k[0] == "heap")
    if not cfgs:
        return
    fig, axs = plt.subplots(1, 2, figsize=(11, 4.2))
    ops = ["namespace-per-file", "block-per-file", "one-block-per-file"]
    sizes = sorted({k[3] for k in v if k[0] == "heap" and k[1] == "namespace-per-file"}, key=int)
    s = sizes[-1] if sizes else "0"
    grouped_bars(axs[0], ops, cfgs, lambda o, c: [x for k, vals in v.items() for x in vals
                                                 if k[0] == "heap" and k[1] == o and k[3] == s and k[4] == c])
    axs[0].set_xticklabels(["namespace (empty file)", "block (one-block - empty)", "one-block file"], fontsize=8)
    axs[0].set_ylabel("live heap bytes per file")
    axs[0].set_title(f"heap per file, N={int(s):,}")
    legend(axs[0], fontsize=8)
    for c in cfgs:
        pts = sorted((int(k[3]), statistics.median(vals)) for k, vals in v.items()
                     if k[0] == "heap" and k[1] == "live-heap" and k[4] == c)
        if pts:
            axs[1].plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=c, color=COLORS.get(c))
    axs[1].set_xlabel("files created (empty files, then one-block files)")
    axs[1].set_ylabel("live heap after full GC (MB)")
    axs[1].set_title("heap vs files")
    legend(axs[1], fontsize=8)
    save(fig, d, "heap.png", out)


def heap_attrs(v, d, out):
    cfgs = configs_of(v, lambda k: k[0] == "heap-attrs")
    if not cfgs:
        return
    fig, axs = plt.subplots(1, 2, figsize=(11, 4.2))
    ops = ["empty-per-file", "attrs-per-file", "attr-bytes-per-file", "attrs-after-read-per-file"]
    sizes = sorted({k[3] for k in v if k[0] == "heap-attrs" and k[1] == "attrs-per-file"}, key=int)
    s = sizes[-1] if sizes else "0"
    grouped_bars(axs[0], ops, cfgs, lambda o, c: [x for k, vals in v.items() for x in vals
                                                 if k[0] == "heap-attrs" and k[1] == o and k[3] == s and k[4] == c])
    axs[0].set_xticklabels(["no attributes", "ACL + 2 xattrs", "difference", "ACL + 2 xattrs,\nall read"],
                           fontsize=8)
    axs[0].set_ylabel("live heap bytes per file")
    axs[0].set_title(f"heap per file with attributes, N={int(s):,}")
    legend(axs[0], fontsize=8)
    for c in cfgs:
        for op, style in (("live-heap-empty", "--"), ("live-heap-attrs", "-")):
            pts = sorted((int(k[3]), statistics.median(vals)) for k, vals in v.items()
                         if k[0] == "heap-attrs" and k[1] == op and k[4] == c)
            if pts:
                axs[1].plot([p[0] for p in pts], [p[1] for p in pts], style, marker="o", color=COLORS.get(c),
                            label=f"{c}, {'no attributes' if op.endswith('empty') else 'ACL + 2 xattrs'}")
    axs[1].set_xlabel("files created (each kind in a NameNode of its own)")
    axs[1].set_ylabel("live heap after full GC (MB)")
    axs[1].set_title("heap vs files")
    legend(axs[1], fontsize=7)
    save(fig, d, "heap-attrs.png", out)


def streaming(v, d, out):
    keys = sorted({(k[2], k[3]) for k in v if k[0] == "streaming"}, key=lambda x: (int(x[0]), int(x[1])))
    for t, b in keys:
        cfgs = configs_of(v, lambda k: k[0] == "streaming" and k[2] == t and k[3] == b)
        ops = [o for o in ("create", "addBlock", "complete", "rename", "delete")
               if any(k[0] == "streaming" and k[1] == o + "-p50" for k in v)]
        fig, axs = plt.subplots(1, 3, figsize=(15, 4.2), gridspec_kw={"width_ratios": [3, 3, 1]})
        for ax, q in ((axs[0], "p50"), (axs[1], "p99")):
            grouped_bars(ax, ops, cfgs, lambda o, c: v.get(("streaming", f"{o}-{q}", t, b, c), []))
            ax.set_xticklabels(ops)
            ax.set_ylabel(f"{q} latency per RPC (ms)")
            ax.set_title(f"NameNode RPC latency {q}")
            legend(ax, fontsize=7)
        grouped_bars(axs[2], ["files/s"], cfgs, lambda o, c: v.get(("streaming", "files", t, b, c), []))
        axs[2].set_xticklabels(["files/s"])
        axs[2].set_title("throughput")
        fig.suptitle(f"small-file streaming: {t} clients, {b} bytes per file")
        save(fig, d, f"streaming-t{t}-b{b}.png", out)


def ha_timings(v, d, out):
    """The HA timings per namespace size: the catch-up, the three side-by-side timings and the rejoin
    (left), and their parts (right): the standby's own apply, when the new active began its
    transition, and the NameNode's own load."""
    for s in sorted({k[3] for k in v if k[0] == "ha-timings"}, key=int):
        cfgs = configs_of(v, lambda k: k[0] == "ha-timings" and k[3] == s)
        fig, axs = plt.subplots(1, 2, figsize=(12, 4.5))
        for ax, ops, title in (
                (axs[0], ["catch-up", "failover", "standby-restart", "active-restart", "rejoin"], "timings"),
                (axs[1], ["catch-up-apply", "failover-begin", "standby-restart-load", "active-restart-begin",
                          "active-restart-load"], "their parts")):
            ops = [o for o in ops if any(k[0] == "ha-timings" and k[1] == o and k[3] == s for k in v)]
            grouped_bars(ax, ops, cfgs, lambda o, c: [x for k, vals in v.items() for x in vals
                                                     if k[0] == "ha-timings" and k[1] == o and k[3] == s and k[4] == c])
            ax.set_xticklabels(ops, fontsize=8, rotation=15)
            ax.set_ylabel("seconds")
            ax.set_title(title)
            legend(ax, fontsize=8)
        fig.suptitle(f"HA timings, {int(s):,} files (kill -9 or launch to the first acknowledgement / caught up)")
        save(fig, d, f"ha-timings-n{s}.png", out)


def main():
    d = sys.argv[1]
    os.makedirs(os.path.join(d, "charts"), exist_ok=True)
    v, units = load(d)
    out = []
    nnthroughput(v, units, d, out)
    nnthroughput_disk(v, d, out)
    lines_by_size(v, d, out, "nnbench-nomr", "createWrite-elapsed", "NNBenchWithoutMR createWrite: elapsed time",
                  "elapsed (s)", "nnbench-nomr.png")
    nnbench_mr(v, d, out)
    recovery(v, d, out)
    heap(v, d, out)
    heap_attrs(v, d, out)
    streaming(v, d, out)
    ha_timings(v, d, out)
    for p in out:
        print(p)
    return 0


if __name__ == "__main__":
    sys.exit(main())
