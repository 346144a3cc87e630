#!/usr/bin/env python3
"""Summarise an interleaved benchmark TSV (run, op, config, ops_per_sec): median ops/s per
(op, config), the ratio of the NVM configuration's median to each other configuration's,
and the per-run ratios (each run's configurations ran back to back)."""
import statistics
import sys
from collections import defaultdict

rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1]) if l.strip()][1:]
by = defaultdict(list)
per_run = defaultdict(dict)
configs = []
for run, op, cfg, v in rows:
    v = float(v)
    by[(op, cfg)].append(v)
    per_run[(op, run)][cfg] = v
    if cfg not in configs:
        configs.append(cfg)
ops = []
for _, op, _, _ in rows:
    if op not in ops:
        ops.append(op)
target = "nvm" if "nvm" in configs else configs[-1]
others = [c for c in configs if c != target]
hdr = ["op"] + [f"{c} (median ops/s)" for c in configs] + [f"{target}/{c}" for c in others]
print("| " + " | ".join(hdr) + " |")
print("|" + "---|" * len(hdr))
for op in ops:
    med = {c: statistics.median(by[(op, c)]) for c in configs if by[(op, c)]}
    cells = [op] + [f"{med.get(c, 0):,.0f}" for c in configs]
    for c in others:
        cells.append(f"{med[target] / med[c]:.2f}x" if med.get(c) else "n/a")
    print("| " + " | ".join(cells) + " |")
print()
print("per-run ratios (" + target + " / other), run by run:")
for op in ops:
    parts = []
    for c in others:
        rs = [per_run[(op, r)][target] / per_run[(op, r)][c]
              for (o, r) in sorted(per_run) if o == op and per_run[(op, r)].get(c) and target in per_run[(op, r)]]
        parts.append(f"vs {c}: " + ", ".join(f"{x:.2f}" for x in rs))
    print(f"  {op}: " + "; ".join(parts))
