#!/usr/bin/env python3
"""Tests of bench_nnthroughput.py: the interleaving, NNThroughputBenchmark's command line for 2.7.3
and for Hadoop 3.5.0, the lock and mode checks of a measurement's log, the summary of the
3.5.0 checks for run-info.txt, and the disk statistics' window (the benchmark's start line to the
JVM's exit) with the output copied line by line. Run by `make test`."""
import os
import sys
import tempfile
import time
import unittest

import bench_configs
import bench_nnthroughput as nnt

FGL = bench_configs.H35_FGL
GLOBAL = bench_configs.H35_GLOBAL
ASYNC_EDIT_LOG = "org.apache.hadoop.hdfs.server.namenode.FSEditLogAsync"
SYNC_EDIT_LOG = "org.apache.hadoop.hdfs.server.namenode.FSEditLog"


def h35_log(lock, edit_log=ASYNC_EDIT_LOG):
    return ("07:43:15,146 INFO NNThroughputBenchmark:  Ops per sec: 2724.79\n"
            "lock-check hadoop-version: 3.5.0\n"
            f"lock-check namesystem-lock: {lock}\n"
            f"lock-check edit-log: {edit_log}\n")


class PlanTest(unittest.TestCase):

    def test_each_run_takes_every_thread_count_op_and_configuration_in_turn(self):
        s = nnt.settings({"NNT_OPS": "create open", "NNT_THREADS": "2 8", "NNT_RUNS": "2",
                          "CONFIGS": "stock-tmpfs h35-fgl-tmpfs"})
        p = nnt.plan(s)
        self.assertEqual(16, len(p))
        self.assertEqual([(1, "2", "create", "stock-tmpfs"), (1, "2", "create", "h35-fgl-tmpfs"),
                          (1, "2", "open", "stock-tmpfs"), (1, "2", "open", "h35-fgl-tmpfs"),
                          (1, "8", "create", "stock-tmpfs")], p[:5])
        self.assertEqual((2, "8", "open", "h35-fgl-tmpfs"), p[-1])

    def test_settings_default_as_wl_nnthroughput_sh_did_and_an_empty_variable_is_unset(self):
        s = nnt.settings({"NNT_N": "", "CONFIGS": ""})
        self.assertEqual(100000, s["n"])
        self.assertEqual(3, s["runs"])
        self.assertEqual(["2", "8"], s["threads"])
        self.assertEqual(nnt.ALL_OPS.split(), s["ops"])
        self.assertEqual(bench_configs.names(default=True), s["configs"])

    def test_op_arguments(self):
        s = nnt.settings({"NNT_N": "1000"})
        self.assertEqual(["-op", "mkdirs", "-threads", "2", "-dirs", "1000", "-dirsPerDir", "1000"],
                         nnt.op_args("mkdirs", "2", s))
        self.assertEqual(["-op", "create", "-threads", "8", "-files", "1000", "-filesPerDir", "1000", "-close"],
                         nnt.op_args("create", "8", s))
        self.assertEqual(["-op", "blockReport", "-datanodes", "2", "-reports", "100", "-blocksPerReport", "100",
                          "-blocksPerFile", "1"], nnt.op_args("blockReport", "2", s))
        self.assertEqual(100, nnt.size_of("blockReport", 1000))


class CommandTest(unittest.TestCase):

    def setUp(self):
        self.s = nnt.settings({"NNT_N": "10000", "NNT_HEAP": "4g"})

    def test_2_7_3_runs_its_own_benchmark_class_against_an_in_process_namenode(self):
        cmd = nnt.command("nvm-emulated", "create", "2", self.s, "/w", "/lib273", root="/r")
        self.assertEqual(["java", "-Xms4g", "-Xmx4g", "-XX:+UseParallelGC", "-Dhadoop.tmp.dir=/w/conf/tmp",
                          "-Djava.net.preferIPv4Stack=true", "-cp", "/w/conf:/lib273/*", nnt.MAIN_273,
                          "-fs", "hdfs://127.0.0.1:0", "-D", "hadoop.tmp.dir=/w/conf/tmp"], cmd[:13])

    def test_3_5_0_runs_through_the_lock_checking_launcher_with_no_remote_namenode(self):
        cmd = nnt.command("h35-fgl-disk", "create", "2", self.s, "/w", "/lib35", root="/r")
        self.assertEqual("/w/conf:/lib35/*:/r/benchmarks/hadoop35/target/nnthroughput-lock-check.jar",
                         cmd[cmd.index("-cp") + 1])
        self.assertEqual(nnt.MAIN_H35, cmd[cmd.index("-cp") + 2])
        self.assertEqual("file:///", cmd[cmd.index("-fs") + 1])
        # the same JVM flags and benchmark arguments as 2.7.3's
        ref = nnt.command("stock-disk", "create", "2", self.s, "/w", "/lib35", root="/r")
        self.assertEqual(ref[:6], cmd[:6])
        self.assertEqual(ref[-10:], cmd[-10:])

    def test_every_measurement_keeps_its_results_so_that_the_jvm_exits_without_deleting_them(self):
        for cfg in ("stock-disk", "nvm-disk", "h35-disk"):
            for op in ("create", "open", "blockReport"):
                cmd = nnt.command(cfg, op, "2", self.s, "/w", "/lib", root="/r")
                self.assertEqual(["-op", op], cmd[-len(nnt.op_args(op, "2", self.s)) - 1:][:2])
                self.assertEqual("-keepResults", cmd[-1])


class ChecksTest(unittest.TestCase):

    def test_an_fgl_configuration_needs_the_fine_grained_lock_in_its_log(self):
        self.assertIsNone(nnt.lock_problem("h35-fgl-tmpfs", h35_log(FGL)))
        self.assertIn("GlobalFSNamesystemLock, not", nnt.lock_problem("h35-fgl-tmpfs", h35_log(GLOBAL)))
        self.assertIn("not reported", nnt.lock_problem("h35-fgl-disk", "Ops per sec: 10\n"))
        self.assertIsNone(nnt.lock_problem("h35-disk", h35_log(GLOBAL)))
        self.assertIsNotNone(nnt.lock_problem("h35-disk", h35_log(FGL)))
        # 2.7.3 configurations have no lock to check
        self.assertIsNone(nnt.lock_problem("stock-disk", "Ops per sec: 10\n"))

    def test_the_mode_comes_from_the_namenodes_log(self):
        self.assertIsNone(nnt.mode_problem("nvm-emulated", "... NVM namesystem loaded in 12 ms"))
        self.assertIsNotNone(nnt.mode_problem("nvm-emulated", "Ops per sec: 10"))
        self.assertIsNotNone(nnt.mode_problem("stock-disk", "NVM namesystem loaded"))
        self.assertIsNone(nnt.mode_problem("h35-tmpfs", h35_log(GLOBAL)))

    def test_a_kept_log_name_gives_back_its_configuration(self):
        name = nnt.kept_log_name("blockReport", "8", 100000, "h35-fgl-tmpfs", 3)
        self.assertEqual("blockReport-t8-n10000-h35-fgl-tmpfs-run3.log", name)
        m = nnt.KEPT_LOG.match(name)
        self.assertEqual(("blockReport", "8", "10000", "h35-fgl-tmpfs", "3"),
                         (m["op"], m["t"], m["n"], m["cfg"], m["run"]))

    def test_the_summary_counts_this_segments_3_5_0_measurements(self):
        with tempfile.TemporaryDirectory() as d:
            def write(name, text, age=0):
                p = os.path.join(d, name)
                with open(p, "w") as f:
                    f.write(text)
                t = time.time() - age
                os.utime(p, (t, t))
            write("create-t2-n100-h35-fgl-tmpfs-run1.log", h35_log(FGL))
            write("mkdirs-t2-n100-h35-fgl-tmpfs-run1.log", h35_log(FGL))
            write("create-t2-n100-h35-disk-run1.log", h35_log(GLOBAL, SYNC_EDIT_LOG))
            write("create-t2-n100-stock-disk-run1.log", "Ops per sec: 1\n")
            # an earlier segment's
            write("open-t2-n100-h35-tmpfs-run1.log", h35_log(GLOBAL), age=3600)
            lines = nnt.checks_summary(d, since=time.time() - 60)
        self.assertEqual([f"h35-disk: namesystem lock {GLOBAL}, edit log {SYNC_EDIT_LOG} (1 measurement)",
                          f"h35-fgl-tmpfs: namesystem lock {FGL}, edit log {ASYNC_EDIT_LOG} (2 measurements)"], lines)


def sample_of(values):
    """A bench_diskstats.sample stand-in answering the next counters of `values` at each call."""
    it = iter(values)

    def sample(dev):
        w, kib, f = next(it)
        return {"name": "vda", "writes": w, "sectors_written": kib * 2, "flushes": f}
    return sample


class DiskWindowTest(unittest.TestCase):

    def test_the_start_line_of_the_op_itself_opens_the_window(self):
        m = nnt.start_marker("open")
        self.assertEqual("1000", m.search("12:00:01,5 INFO namenode.NNThroughputBenchmark: "
                                          "Starting 1000 open(s).").group(1))
        self.assertIsNone(m.search("Starting 1000 create(s)."))
        self.assertIsNone(nnt.start_marker("create").search("Starting benchmark: create"))

    def test_an_open_measurement_counts_from_its_own_start_line_not_its_setups(self):
        w = nnt.DiskWindow("open", (254, 0), sample_of([(100, 1000, 50), (300, 1400, 150)]))
        for line in ("Starting benchmark: open", "Starting 100 create(s).", "Created 100 files.",
                     "Starting 100 open(s).", "--- open stats  ---", "Starting 100 open(s)."):
            w.watch(line)
        self.assertEqual(100, w.ops)
        w.end()
        self.assertEqual([("disk-writes", "2.0000", "writes/op"), ("disk-KiB", "4.0000", "KiB/op"),
                          ("disk-flushes", "1.0000", "flushes/op")], w.rows())

    def test_no_start_line_no_rows(self):
        w = nnt.DiskWindow("create", (254, 0), sample_of([]))
        w.watch("Exception in thread main")
        w.end()
        self.assertEqual([], w.rows())

    def test_the_output_is_copied_line_by_line_and_watched_as_it_comes(self):
        seen = []
        with tempfile.TemporaryDirectory() as d:
            log = os.path.join(d, "bench.log")
            rc = nnt.run_logged([sys.executable, "-c", "import sys; print('a'); print('Starting 5 create(s).'); "
                                 "sys.stdout.flush(); sys.stderr.write('err\\n'); sys.exit(3)"],
                                dict(os.environ), log, seen.append)
            with open(log) as f:
                text = f.read()
        self.assertEqual(3, rc)
        self.assertEqual("a\nStarting 5 create(s).\nerr\n", text)
        self.assertEqual(["a\n", "Starting 5 create(s).\n", "err\n"], seen)

    def test_the_note_names_the_device_or_says_there_is_none(self):
        self.assertIn("vda (254:0), which holds DISK_BASE=/var/tmp",
                      nnt.disk_note((254, 0, "vda"), "/var/tmp", ["stock-disk", "nvm-disk"]))
        self.assertIn("no block device found", nnt.disk_note(None, "/x", ["nvm-disk"]))


if __name__ == "__main__":
    unittest.main()
