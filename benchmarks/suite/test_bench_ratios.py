#!/usr/bin/env python3
"""Tests of bench_ratios.py: run-by-run ratios, their direction per unit (counts per operation:
lower is better), a later segment's measurement superseding an earlier one, the targets (the 10M
restart, by thread count, issue 39's nvm-disk ones), the HA configurations' pairs and Hadoop
3.5.0's (h35-*). Run by `make test`:
python3 -m unittest discover -s benchmarks/suite -p 'test_*.py'"""
import csv
import io
import math
import os
import tempfile
import unittest
from contextlib import redirect_stdout

import bench_ratios

HEADER = ["suite", "workload", "op", "threads", "size", "config", "run", "value", "unit"]


def row(workload, op, threads, size, config, run, value, unit):
    return dict(zip(HEADER, ["full", workload, op, str(threads), str(size), config, str(run), str(value), unit]))


def nnt(config, run, value):
    return row("nnthroughput", "create", 2, 1000000, config, run, value, "ops/s")


def load(config, run, seconds, size=10000000):
    return row("recovery", "load", 0, size, config, run, seconds, "s")


class RatiosTest(unittest.TestCase):

    def ratio(self, rows, num, den):
        g, units = bench_ratios.group(rows)
        found = [r for r in bench_ratios.ratios(g, units) if r[1] == num and r[2] == den]
        self.assertEqual(1, len(found), found)
        _, _, _, median, lo, hi, n = found[0]
        return median, lo, hi, n

    def test_a_baseline_build_is_compared_with_nvm_emulated_only(self):
        rows = [nnt("nvm-emulated", 1, 97), nnt("nvm-baseline", 1, 100), nnt("nvm-disk", 1, 10),
                nnt("stock-disk", 1, 10)]
        median, _, _, n = self.ratio(rows, "nvm-emulated", "nvm-baseline")
        self.assertAlmostEqual(0.97, median)
        self.assertEqual(1, n)
        g, units = bench_ratios.group(rows)
        self.assertFalse([r for r in bench_ratios.ratios(g, units)
                          if r[1] == "nvm-disk" and r[2] == "nvm-baseline"])

    def test_nvm_disk_is_compared_with_the_stock_configurations_not_with_nvm_emulated(self):
        rows = [nnt(c, 1, v) for c, v in (("stock-disk", 100), ("stock-tmpfs", 300), ("nvm-emulated", 600),
                                          ("nvm-disk", 150))]
        g, units = bench_ratios.group(rows)
        found = {(r[1], r[2]) for r in bench_ratios.ratios(g, units) if r[1] == "nvm-disk" or r[2] == "nvm-disk"}
        self.assertEqual({("nvm-disk", "stock-disk"), ("nvm-disk", "stock-tmpfs")}, found)
        self.assertEqual((1.5, 1.5, 1.5, 1), self.ratio(rows, "nvm-disk", "stock-disk"))

    def test_older_results_with_nvm_msync_still_give_its_ratios(self):
        rows = [nnt("stock-disk", 1, 100), nnt("nvm-msync", 1, 120)]
        self.assertEqual((1.2, 1.2, 1.2, 1), self.ratio(rows, "nvm-msync", "stock-disk"))

    def test_rates_are_divided_run_by_run(self):
        # run 1: 4x, run 2: 2x, run 3: 3x; the medians of the values (300 / 100) would also give 3,
        # so the min and max are what show the pairing is by run
        rows = [nnt("stock-disk", 1, 100), nnt("nvm-emulated", 1, 400),
                nnt("stock-disk", 2, 200), nnt("nvm-emulated", 2, 400),
                nnt("stock-disk", 3, 100), nnt("nvm-emulated", 3, 300)]
        self.assertEqual((3.0, 2.0, 4.0, 3), self.ratio(rows, "nvm-emulated", "stock-disk"))

    def test_times_are_inverted_so_above_one_means_nvm_is_faster(self):
        rows = [load("stock-disk:fsimage", 1, 40.0), load("nvm-emulated", 1, 4.0)]
        self.assertEqual((10.0, 10.0, 10.0, 1), self.ratio(rows, "nvm-emulated", "stock-disk:fsimage"))

    def test_counts_per_operation_are_inverted_so_above_one_means_fewer(self):
        for unit in ("writes/op", "KiB/op", "flushes/op"):
            rows = [disk("create-disk-x", "stock-disk", 1, 6.0, unit), disk("create-disk-x", "nvm-disk", 1, 4.0, unit)]
            self.assertEqual((1.5, 1.5, 1.5, 1), self.ratio(rows, "nvm-disk", "stock-disk"), unit)

    def test_a_count_of_zero_is_a_measurement(self):
        self.assertEqual(1.0, bench_ratios.advantage(0.0, 0.0, "flushes/op"))
        self.assertEqual(math.inf, bench_ratios.advantage(0.0, 0.5, "flushes/op"))
        self.assertEqual(0.0, bench_ratios.advantage(0.5, 0.0, "flushes/op"))
        # a rate or a time of 0 is none
        self.assertIsNone(bench_ratios.advantage(0.0, 10.0, "ops/s"))
        self.assertIsNone(bench_ratios.advantage(0.0, 10.0, "s"))

    def test_a_run_missing_on_one_side_is_not_paired(self):
        rows = [nnt("stock-disk", 1, 100), nnt("nvm-emulated", 1, 500), nnt("nvm-emulated", 2, 900)]
        self.assertEqual((5.0, 5.0, 5.0, 1), self.ratio(rows, "nvm-emulated", "stock-disk"))

    def test_a_later_row_for_the_same_run_replaces_the_earlier_one(self):
        earlier = [load("stock-disk:fsimage", r, 38.0) for r in (1, 2, 3)] + \
                  [load("nvm-emulated", r, 11.0) for r in (1, 2, 3)]
        later = [load("stock-disk:fsimage", r, 36.0) for r in (1, 2, 3)] + \
                [load("nvm-emulated", r, 3.6) for r in (1, 2, 3)]
        g, _ = bench_ratios.group(earlier + later)
        self.assertEqual({"1": 3.6, "2": 3.6, "3": 3.6}, g[("recovery", "load", "0", "10000000")]["nvm-emulated"])
        self.assertEqual((10.0, 10.0, 10.0, 3), self.ratio(earlier + later, "nvm-emulated", "stock-disk:fsimage"))


def disk(op, config, run, value, unit, threads=2, size=100000):
    return row("nnthroughput", op, threads, size, config, run, value, unit)


def nomr(config, run, files_per_s):
    return row("nnbench-nomr", "createWrite", 1, 5000, config, run, files_per_s, "files/s")


def hat(op, config, run, seconds):
    return row("ha-timings", op, 2, 50000, config, run, seconds, "s")


class HaRatiosTest(unittest.TestCase):

    def test_ha_configurations_are_compared_only_as_their_pairs(self):
        configs = ["stock-disk", "stock-tmpfs", "nvm-emulated", "stock-ha-disk", "stock-ha-tmpfs", "nvm-ha-disk",
                   "nvm-ha-tmpfs"]
        g, units = bench_ratios.group([nomr(c, 1, 100 + i) for i, c in enumerate(configs)])
        found = {(r[1], r[2]) for r in bench_ratios.ratios(g, units)}
        self.assertEqual({("nvm-emulated", "stock-disk"), ("nvm-emulated", "stock-tmpfs"),
                          ("nvm-ha-disk", "stock-ha-disk"), ("nvm-ha-tmpfs", "stock-ha-tmpfs"),
                          ("nvm-ha-disk", "nvm-emulated"), ("nvm-ha-tmpfs", "nvm-emulated"),
                          ("stock-ha-disk", "stock-disk"), ("stock-ha-tmpfs", "stock-tmpfs")}, found)

    def test_the_disk_modes_pair_is_compared_with_stock_ha_the_emulated_pair_and_nvm_disk(self):
        configs = ["stock-disk", "nvm-emulated", "nvm-disk", "stock-ha-disk", "nvm-ha-disk", "nvm-disk-ha-disk"]
        g, units = bench_ratios.group([nomr(c, 1, 100 + i) for i, c in enumerate(configs)])
        found = {(r[1], r[2]) for r in bench_ratios.ratios(g, units) if "nvm-disk-ha-disk" in r[1:3]}
        self.assertEqual({("nvm-disk-ha-disk", "stock-ha-disk"), ("nvm-disk-ha-disk", "nvm-ha-disk"),
                          ("nvm-disk-ha-disk", "nvm-disk")}, found)

    def test_catch_up_edits_are_a_count_the_workload_sets_and_get_no_ratio(self):
        rows = [row("ha-timings", "catch-up-edits", 2, 50000, c, 1, n, "edits")
                for c, n in (("stock-ha-disk", 20400), ("nvm-disk-ha-disk", 20380))]
        rows += [hat("catch-up", "stock-ha-disk", 1, 1.0), hat("catch-up", "nvm-disk-ha-disk", 1, 2.0)]
        g, units = bench_ratios.group(rows)
        found = [(r[0][1], r[3]) for r in bench_ratios.ratios(g, units)]
        self.assertEqual([("catch-up", 0.5)], found)
        self.assertIsNone(bench_ratios.advantage(20380.0, 20400.0, "edits"))

    def test_ha_cost_is_the_ha_rate_over_the_non_ha_rate_run_by_run(self):
        rows = [nomr("nvm-emulated", 1, 600), nomr("nvm-ha-disk", 1, 300),
                nomr("nvm-emulated", 2, 500), nomr("nvm-ha-disk", 2, 400)]
        g, units = bench_ratios.group(rows)
        found = [r for r in bench_ratios.ratios(g, units) if r[1:3] == ("nvm-ha-disk", "nvm-emulated")]
        self.assertEqual([(0.65, 0.5, 0.8, 2)], [tuple(round(x, 4) for x in r[3:6]) + (r[6],) for r in found])

    def test_ha_timings_are_times_so_above_one_means_the_nvm_pair_is_faster(self):
        rows = [hat("active-restart", "stock-ha-disk", 1, 6.0), hat("active-restart", "nvm-ha-disk", 1, 3.0),
                hat("active-restart", "stock-ha-disk", 2, 4.0), hat("active-restart", "nvm-ha-disk", 2, 4.0)]
        g, units = bench_ratios.group(rows)
        found = [r for r in bench_ratios.ratios(g, units) if r[1:3] == ("nvm-ha-disk", "stock-ha-disk")]
        self.assertEqual((1.5, 1.0, 2.0, 2), found[0][3:])


def nnt_op(op, config, run, value, threads=2, size=1000000):
    return row("nnthroughput", op, threads, size, config, run, value, "ops/s")


class H35RatiosTest(unittest.TestCase):

    def test_nvm_is_compared_with_each_3_5_0_configuration_and_3_5_0_with_itself_and_stock(self):
        configs = ["stock-disk", "stock-tmpfs", "nvm-emulated", "h35-disk", "h35-tmpfs", "h35-fgl-disk",
                   "h35-fgl-tmpfs"]
        g, units = bench_ratios.group([nnt_op("create", c, 1, 100 + i) for i, c in enumerate(configs)])
        found = {(r[1], r[2]) for r in bench_ratios.ratios(g, units)}
        self.assertEqual({("nvm-emulated", "stock-disk"), ("nvm-emulated", "stock-tmpfs"),
                          ("nvm-emulated", "h35-disk"), ("nvm-emulated", "h35-tmpfs"),
                          ("nvm-emulated", "h35-fgl-disk"), ("nvm-emulated", "h35-fgl-tmpfs"),
                          ("h35-fgl-disk", "h35-disk"), ("h35-fgl-tmpfs", "h35-tmpfs"),
                          ("h35-disk", "stock-disk"), ("h35-tmpfs", "stock-tmpfs"),
                          ("h35-fgl-disk", "stock-disk"), ("h35-fgl-tmpfs", "stock-tmpfs")}, found)

    def test_the_ratio_against_3_5_0_is_run_by_run(self):
        rows = [nnt_op("create", "nvm-emulated", 1, 300), nnt_op("create", "h35-fgl-tmpfs", 1, 100),
                nnt_op("create", "nvm-emulated", 2, 200), nnt_op("create", "h35-fgl-tmpfs", 2, 200)]
        g, units = bench_ratios.group(rows)
        found = [r for r in bench_ratios.ratios(g, units) if r[1:3] == ("nvm-emulated", "h35-fgl-tmpfs")]
        self.assertEqual((2.0, 1.0, 3.0, 2), found[0][3:])


class TargetsTest(unittest.TestCase):

    def targets(self, rows):
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "results.csv"), "w", newline="") as f:
                w = csv.DictWriter(f, fieldnames=HEADER)
                w.writeheader()
                w.writerows(rows)
            with redirect_stdout(io.StringIO()):
                self.assertEqual(0, bench_ratios.report(d))
            with open(os.path.join(d, "targets.csv"), newline="") as f:
                return {(t["target"], t["measurement"]): t for t in csv.DictReader(f)}

    def test_10m_restart_passes_under_5_s_and_misses_at_5_s_or_more(self):
        ten_m = "restart 10M files: NVM namespace rebuild (loadFSImage) < 5 s"
        fast = self.targets([load("nvm-emulated", r, s) for r, s in ((1, 3.4), (2, 3.6), (3, 5.2))])
        self.assertEqual(("3.60 s", "3.40-5.20 s", "PASS"),
                         (fast[(ten_m, "load n=10000000")]["median"], fast[(ten_m, "load n=10000000")]["range"],
                          fast[(ten_m, "load n=10000000")]["verdict"]))
        slow = self.targets([load("nvm-emulated", r, s) for r, s in ((1, 5.0), (2, 4.0), (3, 6.0))])
        self.assertEqual("MISS", slow[(ten_m, "load n=10000000")]["verdict"])

    def test_1m_restart_target_is_judged_on_the_median_ratio(self):
        fsimage = "restart 1M files: NVM scan >= 10x faster than stock fsimage load"
        rows = [load("stock-disk:fsimage", 1, 2.0, 1000000), load("nvm-emulated", 1, 0.25, 1000000),
                load("stock-disk:fsimage", 2, 2.0, 1000000), load("nvm-emulated", 2, 0.1, 1000000),
                load("stock-disk:fsimage", 3, 2.0, 1000000), load("nvm-emulated", 3, 0.4, 1000000)]
        t = self.targets(rows)[(fsimage, "load n=1000000")]
        self.assertEqual(("8.00", "5.00-20.00", "MISS"), (t["median"], t["range"], t["verdict"]))

    def test_1m_restart_of_nvm_disk_with_its_log_at_the_bound_against_the_stock_fsimage_load(self):
        disk = "restart 1M files, log at its bound: nvm-disk load <= stock fsimage load"
        rows = [load("stock-disk:fsimage", 1, 2.0, 1000000), load("nvm-disk", 1, 1.6, 1000000),
                load("stock-disk:fsimage", 2, 2.0, 1000000), load("nvm-disk", 2, 2.5, 1000000),
                load("stock-disk:fsimage", 3, 2.0, 1000000), load("nvm-disk", 3, 1.9, 1000000),
                load("stock-disk:edits", 1, 12.0, 1000000), load("nvm-emulated", 1, 0.7, 1000000),
                # the replayed log's rows have no stock counterpart: no ratio, no effect on the target
                row("recovery", "log-replayed-records", 0, 1000000, "nvm-disk", 1, 87169, "records"),
                row("recovery", "log-replayed-bytes", 0, 1000000, "nvm-disk", 1, 33336496, "B")]
        t = self.targets(rows)
        self.assertEqual(("1.05", "0.80-1.25", "3 runs", "PASS"),
                         (t[(disk, "load n=1000000")]["median"], t[(disk, "load n=1000000")]["range"],
                          t[(disk, "load n=1000000")]["runs"], t[(disk, "load n=1000000")]["verdict"]))
        self.assertEqual(1, len([k for k in t if k[0] == disk]))  # judged against the fsimage variant only
        slow = self.targets([load("stock-disk:fsimage", 1, 2.0, 1000000), load("nvm-disk", 1, 2.1, 1000000)])
        self.assertEqual("MISS", slow[(disk, "load n=1000000")]["verdict"])
        # another size is information only
        other = self.targets([load("stock-disk:fsimage", 1, 0.4, 100000), load("nvm-disk", 1, 0.2, 100000)])
        self.assertEqual("not measured in this run", other[(disk, "-")]["runs"])
        info = "restart (other sizes), log at its bound: nvm-disk vs stock fsimage load"
        self.assertEqual(("2.00", "info"), (other[(info, "load n=100000")]["median"],
                                            other[(info, "load n=100000")]["verdict"]))

    def test_a_target_without_measurements_says_so(self):
        t = self.targets([nnt("stock-disk", 1, 100), nnt("nvm-emulated", 1, 600)])
        reads = t[("read ops: nvm-emulated >= 0.95x stock-disk", "-")]
        self.assertEqual("not measured in this run", reads["runs"])
        writes = t[("write ops: nvm-emulated >= 5x stock-disk", "create threads=2 n=1000000")]
        self.assertEqual(("6.00", "PASS"), (writes["median"], writes["verdict"]))

    def test_a_target_by_thread_count_judges_only_that_count(self):
        rows = [nnt_op("create", c, 1, v, threads) for c, v, threads in (
            ("stock-nojournal", 100, 8), ("nvm-emulated", 95, 8), ("stock-nojournal", 100, 2),
            ("nvm-emulated", 105, 2))]
        t = self.targets(rows)
        eight = t[("write ops, 8 threads: nvm-emulated >= 1.0x stock-nojournal", "create threads=8 n=1000000")]
        two = t[("write ops, 2 threads: nvm-emulated >= 1.0x stock-nojournal", "create threads=2 n=1000000")]
        self.assertEqual(("0.95", "MISS"), (eight["median"], eight["verdict"]))
        self.assertEqual(("1.05", "PASS"), (two["median"], two["verdict"]))
        self.assertFalse([k for k in t if k[0].startswith("write ops, 8 threads") and "threads=2" in k[1]])
        # issue 39 raised the 2-thread one from 0.9x
        self.assertFalse([k for k in t if "0.9x stock-nojournal" in k[0] and k[0].startswith("write ops")])

    def test_nvm_disk_writes_against_stock_disk_1_0x_with_2_threads_and_1_5x_with_8(self):
        rows = [nnt_op(op, c, 1, v, threads) for op, c, v, threads in (
            ("create", "stock-disk", 100, 2), ("create", "nvm-disk", 110, 2),
            ("rename", "stock-disk", 100, 2), ("rename", "nvm-disk", 90, 2),
            ("create", "stock-disk", 100, 8), ("create", "nvm-disk", 140, 8),
            ("mkdirs", "stock-disk", 100, 8), ("mkdirs", "nvm-disk", 150, 8),
            ("open", "stock-disk", 100, 8), ("open", "nvm-disk", 50, 8))]
        t = self.targets(rows)
        two = "write ops, 2 threads: nvm-disk >= 1.0x stock-disk"
        eight = "write ops, 8 threads: nvm-disk >= 1.5x stock-disk"
        self.assertEqual(("1.10", "PASS"), (t[(two, "create threads=2 n=1000000")]["median"],
                                            t[(two, "create threads=2 n=1000000")]["verdict"]))
        self.assertEqual("MISS", t[(two, "rename threads=2 n=1000000")]["verdict"])
        self.assertEqual("MISS", t[(eight, "create threads=8 n=1000000")]["verdict"])
        self.assertEqual("PASS", t[(eight, "mkdirs threads=8 n=1000000")]["verdict"])
        self.assertFalse([k for k in t if k[0] in (two, eight) and k[1].startswith("open")])
        # the msync mode's target is gone
        self.assertFalse([k for k in t if "nvm-msync" in k[0]])

    def test_nvm_disk_per_create_flushes_at_most_stock_disks_and_kib_at_most_1_5x(self):
        flushes = "create+close, cache flushes per op: nvm-disk <= stock-disk (stock-disk's / nvm-disk's >= 1.0)"
        kib = "create+close, KiB written per op: nvm-disk <= 1.5x stock-disk (stock-disk's / nvm-disk's >= 0.67)"
        rows = []
        # 3 runs: nvm-disk writes 1.4x, 1.6x and 1.45x the KiB (median 1.45x: PASS), flushes 0.5x-1.1x
        for run, (k_stock, k_nvm, f_stock, f_nvm) in enumerate(((4.0, 5.6, 0.6, 0.3), (4.0, 6.4, 0.6, 0.66),
                                                                  (4.0, 5.8, 0.6, 0.4)), 1):
            rows += [disk("create-disk-KiB", "stock-disk", run, k_stock, "KiB/op"),
                     disk("create-disk-KiB", "nvm-disk", run, k_nvm, "KiB/op"),
                     disk("create-disk-flushes", "stock-disk", run, f_stock, "flushes/op"),
                     disk("create-disk-flushes", "nvm-disk", run, f_nvm, "flushes/op")]
        # another op's window holds its setup's write-back: not a target
        rows += [disk("open-disk-KiB", "stock-disk", 1, 1.0, "KiB/op"),
                 disk("open-disk-KiB", "nvm-disk", 1, 9.0, "KiB/op")]
        t = self.targets(rows)
        k = t[(kib, "create-disk-KiB threads=2 n=100000")]
        self.assertEqual(("0.69", "0.62-0.71", "3 runs", "PASS"), (k["median"], k["range"], k["runs"], k["verdict"]))
        f = t[(flushes, "create-disk-flushes threads=2 n=100000")]
        self.assertEqual(("1.50", "PASS"), (f["median"], f["verdict"]))
        self.assertFalse([x for x in t if x[1].startswith("open")])
        more = self.targets([disk("create-disk-flushes", "stock-disk", 1, 0.5, "flushes/op"),
                             disk("create-disk-flushes", "nvm-disk", 1, 0.55, "flushes/op"),
                             disk("create-disk-KiB", "stock-disk", 1, 4.0, "KiB/op"),
                             disk("create-disk-KiB", "nvm-disk", 1, 6.4, "KiB/op")])
        self.assertEqual("MISS", more[(flushes, "create-disk-flushes threads=2 n=100000")]["verdict"])
        self.assertEqual("MISS", more[(kib, "create-disk-KiB threads=2 n=100000")]["verdict"])
        # a disk that takes no flush requests: equal, so at most stock-disk's
        none = self.targets([disk("create-disk-flushes", "stock-disk", 1, 0, "flushes/op"),
                             disk("create-disk-flushes", "nvm-disk", 1, 0, "flushes/op")])
        self.assertEqual(("1.00", "PASS"), tuple(none[(flushes, "create-disk-flushes threads=2 n=100000")][x]
                                                 for x in ("median", "verdict")))

    def test_nvm_disk_streaming_and_nnbench_without_mr_targets(self):
        rows = [row("streaming", "files", t, 256, c, 1, v, "files/s") for t, c, v in (
            (16, "stock-disk", 100), (16, "nvm-disk", 125), (16, "stock-nojournal", 150),
            (64, "stock-disk", 100), (64, "nvm-disk", 110), (64, "stock-nojournal", 100))]
        rows += [row("streaming", "create-p50", 16, 256, c, 1, v, "ms") for c, v in (("stock-disk", 2.0),
                                                                                    ("nvm-disk", 0.5))]
        rows += [nomr("stock-disk", 1, 100), nomr("nvm-disk", 1, 140)]
        rows += [row("nnbench-nomr", "createWrite-elapsed", 1, 5000, c, 1, v, "s") for c, v in (("stock-disk", 50.0),
                                                                                                ("nvm-disk", 5.0))]
        t = self.targets(rows)
        vs_disk, vs_nojournal = ("streaming files/s: nvm-disk >= 1.2x stock-disk",
                                 "streaming files/s: nvm-disk >= 0.9x stock-nojournal")
        self.assertEqual(("1.25", "PASS"), tuple(t[(vs_disk, "files clients=16 bytes=256")][x]
                                                 for x in ("median", "verdict")))
        self.assertEqual("MISS", t[(vs_disk, "files clients=64 bytes=256")]["verdict"])
        self.assertEqual("MISS", t[(vs_nojournal, "files clients=16 bytes=256")]["verdict"])
        self.assertEqual("PASS", t[(vs_nojournal, "files clients=64 bytes=256")]["verdict"])
        nomr_t = t[("NNBenchWithoutMR createWrite files/s: nvm-disk >= 1.3x stock-disk", "createWrite n=5000")]
        self.assertEqual(("1.40", "PASS"), (nomr_t["median"], nomr_t["verdict"]))
        # only files/s is judged, not the latencies or the elapsed time
        self.assertFalse([k for k in t if "create-p50" in k[1] or "elapsed" in k[1]])

    def test_the_cold_read_target_is_judged_at_1m_files_only(self):
        rows = [nnt_op("open", c, 1, v, 2, size) for c, v, size in (
            ("stock-tmpfs", 100, 100000), ("nvm-emulated", 50, 100000),
            ("stock-tmpfs", 100, 1000000), ("nvm-emulated", 96, 1000000))]
        t = self.targets(rows)
        cold = "read ops, 1M files, default cache: nvm-emulated >= 0.95x stock-tmpfs"
        self.assertEqual("PASS", t[(cold, "open threads=2 n=1000000")]["verdict"])
        self.assertNotIn((cold, "open threads=2 n=100000"), t)

    def test_ha_comparisons_are_listed_with_the_targets_as_information(self):
        rows = [hat(op, cfg, 1, v) for op, cfg, v in (
            ("failover", "stock-ha-disk", 3.0), ("failover", "nvm-ha-disk", 2.0),
            ("failover-begin", "stock-ha-disk", 2.0), ("failover-begin", "nvm-ha-disk", 1.0))]
        rows += [nomr("nvm-emulated", 1, 600), nomr("nvm-ha-disk", 1, 300)]
        t = self.targets(rows)
        nvm_vs_stock = t[("HA, JournalNodes on disk: NVM HA vs stock HA", "ha-timings failover t=2 n=50000")]
        self.assertEqual(("1.50", "info"), (nvm_vs_stock["median"], nvm_vs_stock["verdict"]))
        cost = t[("HA's cost, NVM: HA (JournalNodes on disk) vs nvm-emulated", "nnbench-nomr createWrite t=1 n=5000")]
        self.assertEqual("0.50", cost["median"])
        # the parts of a timing are in ratios.csv, not among the targets
        self.assertFalse([k for k in t if "failover-begin" in k[1]])

    def test_the_disk_modes_pair_is_listed_against_stock_ha_and_the_emulated_pair(self):
        rows = [hat(op, cfg, 1, v) for op, cfg, v in (
            ("catch-up", "stock-ha-disk", 1.0), ("catch-up", "nvm-ha-disk", 2.0), ("catch-up", "nvm-disk-ha-disk", 4.0),
            ("catch-up-apply", "stock-ha-disk", 0.5), ("catch-up-apply", "nvm-disk-ha-disk", 1.0))]
        t = self.targets(rows)
        vs_stock = t[("HA, JournalNodes on disk: NVM HA in the disk mode vs stock HA", "ha-timings catch-up t=2 n=50000")]
        self.assertEqual("0.25", vs_stock["median"])
        vs_emulated = t[("HA, JournalNodes on disk: NVM HA, the disk mode vs the emulated mode",
                         "ha-timings catch-up t=2 n=50000")]
        self.assertEqual("0.50", vs_emulated["median"])
        apply = t[("HA, JournalNodes on disk: NVM HA in the disk mode vs stock HA",
                   "ha-timings catch-up-apply t=2 n=50000")]
        self.assertEqual("0.50", apply["median"])

    def test_3_5_0_comparisons_are_listed_with_the_targets_as_information_at_every_size(self):
        rows = [nnt_op(op, c, 1, v) for op, c, v in (
            ("create", "nvm-emulated", 600), ("create", "h35-fgl-tmpfs", 200), ("create", "h35-disk", 100),
            ("open", "nvm-emulated", 900), ("open", "h35-fgl-tmpfs", 1000))]
        t = self.targets(rows)
        fgl = t[("write ops vs Hadoop 3.5.0 (fine-grained locking, edits on tmpfs): nvm-emulated / h35-fgl-tmpfs",
                 "create threads=2 n=1000000")]
        self.assertEqual(("3.00", "info"), (fgl["median"], fgl["verdict"]))
        disk = t[("write ops vs Hadoop 3.5.0 (global lock, edits on disk): nvm-emulated / h35-disk",
                  "create threads=2 n=1000000")]
        self.assertEqual("6.00", disk["median"])
        reads = t[("read ops vs Hadoop 3.5.0 (fine-grained locking): nvm-emulated / h35-fgl-tmpfs",
                   "open threads=2 n=1000000")]
        self.assertEqual("0.90", reads["median"])

    def test_heap_with_attributes_is_shown_at_every_size_as_stock_bytes_over_nvm_bytes(self):
        desc = "heap per file without and with an ACL and two xattrs (stock bytes / NVM bytes)"
        rows = [row("heap-attrs", op, 2, 1000000, cfg, 1, v, "B/file")
                for op, cfg, v in (("empty-per-file", "stock-tmpfs", 100.0), ("empty-per-file", "nvm-emulated", 40.0),
                                   ("attrs-per-file", "stock-tmpfs", 330.0), ("attrs-per-file", "nvm-emulated", 60.0))]
        t = self.targets(rows)
        self.assertEqual("2.50", t[(desc, "empty-per-file n=1000000")]["median"])
        self.assertEqual("5.50", t[(desc, "attrs-per-file n=1000000")]["median"])


if __name__ == "__main__":
    unittest.main()
