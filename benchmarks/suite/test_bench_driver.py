#!/usr/bin/env python3
"""Tests of bench_driver.py and bench_profiles.py: profile resolution and environment overrides,
every profile's configurations against the table, the steps (commands and environment) a run
takes, --into's checks, run-info.txt, and whole runs with stub workloads in a temporary tree
(results directory layout, segments, the latest pointer, the exit status). Run by `make test`."""
import io
import os
import re
import stat
import tempfile
import unittest
from contextlib import redirect_stderr, redirect_stdout

import bench_configs
import bench_driver as drv
from bench_profiles import PROFILES


def env_of(profile, **environ):
    return drv.environment(drv.resolve(profile, environ), environ)


class ProfilesTest(unittest.TestCase):

    def test_a_profile_value_is_overridden_by_a_non_empty_variable_of_its_name(self):
        p = drv.resolve("quick", {"NNT_N": "5000", "NNT_RUNS": "", "UNRELATED": "x"})
        self.assertEqual("5000", p["NNT_N"])
        self.assertEqual("2", p["NNT_RUNS"])
        self.assertEqual("stock-disk stock-tmpfs stock-nojournal nvm-emulated nvm-disk", p["NNT_CONFIGS"])
        self.assertNotIn("UNRELATED", p)

    def test_the_profiles_keep_the_values_bench_sh_had(self):
        self.assertEqual("1000000", drv.resolve("full", {})["NNT_N"])
        self.assertEqual("2 8", drv.resolve("targets", {})["NNT_THREADS"])
        self.assertEqual("create mkdirs rename delete open fileStatus", drv.resolve("nnthroughput", {})["NNT_OPS"])
        self.assertEqual("500000", drv.resolve("heap-attrs", {})["HEAP_ATTRS_N"])
        self.assertEqual(["nnbench-nomr", "streaming", "ha-timings"], PROFILES["ha"]["workloads"])

    def test_an_unknown_profile_is_a_usage_error(self):
        with self.assertRaises(drv.UsageError):
            drv.resolve("fast", {})

    def test_every_profile_names_existing_workloads_and_configurations_that_run_them(self):
        for profile, p in PROFILES.items():
            with self.subTest(profile):
                self.assertTrue(set(p["workloads"]) <= set(drv.WORKLOADS))
                # every workload, the profile's own and those run only when named
                drv.validate(profile, list(drv.WORKLOADS), env_of(profile))
                for name, value in p["params"].items():
                    if name.endswith("_CONFIGS"):
                        self.assertFalse(set(value) - set(bench_configs.CONFIGS), name)

    def test_the_targets_and_full_runs_interleave_hadoop_3_5_0_with_the_2_7_3_configurations(self):
        for profile in ("targets", "full"):
            st = drv.steps(profile, ["nnthroughput"], env_of(profile))
            cfgs = st[0][2]["CONFIGS"].split()
            self.assertTrue({"stock-disk", "nvm-emulated", *bench_configs.H35_CONFIGS} <= set(cfgs), profile)

    def test_nvm_disk_runs_beside_stock_disk_wherever_the_msync_mode_ran_and_in_quick_and_targets(self):
        for profile, params in PROFILES.items():
            for name, value in params["params"].items():
                if name.endswith("_CONFIGS"):
                    self.assertNotIn("nvm-msync", value, (profile, name))
                    if "nvm-disk" in value:
                        self.assertIn("stock-disk", value, (profile, name))
        for profile in ("quick", "targets", "full"):
            self.assertIn("nvm-disk", PROFILES[profile]["params"]["NNT_CONFIGS"], profile)
        for name in ("NOMR_CONFIGS", "MR_CONFIGS", "STREAM_CONFIGS"):
            self.assertIn("nvm-disk", PROFILES["full"]["params"][name], name)
        self.assertIn("nvm-disk", PROFILES["quick"]["params"]["NOMR_CONFIGS"])

    def test_the_ha_profile_runs_the_three_pairs_with_the_journal_on_disk_side_by_side(self):
        p = drv.resolve("ha", {})
        self.assertEqual("stock-ha-disk nvm-ha-disk nvm-disk-ha-disk", p["HAT_CONFIGS"])
        for name in ("NOMR_CONFIGS", "STREAM_CONFIGS"):
            cfgs = p[name].split()
            # each pair beside the non-HA configuration of its NameNodes (HA's cost)
            self.assertTrue({"stock-ha-disk", "nvm-ha-disk", "nvm-disk-ha-disk", "stock-disk", "nvm-emulated",
                             "nvm-disk"} <= set(cfgs), name)
        # interleaved: the one run of each workload goes through its configurations in turn
        self.assertEqual(["stock-ha-disk", "nvm-ha-disk", "nvm-disk-ha-disk"],
                         drv.configs_of("ha-timings", env_of("ha")))

    def test_no_profile_sizes_nvm_disk_apart_from_the_other_configurations(self):
        # the msync mode's own small series and size caps are gone
        for profile, params in PROFILES.items():
            self.assertFalse([p for p in params["params"] if "MSYNC" in p], profile)

    def test_a_configuration_a_workload_cannot_run_is_refused_before_anything_runs(self):
        with self.assertRaisesRegex(drv.UsageError, "h35-disk does not run nnbench-nomr"):
            drv.validate("quick", ["nnbench-nomr"], env_of("quick", NOMR_CONFIGS="stock-disk h35-disk"))
        with self.assertRaisesRegex(drv.UsageError, "unknown configuration 'nvm-fast'"):
            drv.validate("quick", ["nnthroughput"], env_of("quick", NNT_CONFIGS="nvm-fast"))
        with self.assertRaisesRegex(drv.UsageError, "unknown workload dfsio"):
            drv.validate("quick", ["dfsio"], env_of("quick"))


class StepsTest(unittest.TestCase):

    def test_a_workload_gets_its_configurations_as_configs(self):
        (w, cmd, delta), = drv.steps("quick", ["streaming"], env_of("quick"), suite_dir="/s")
        self.assertEqual(("streaming", ["/s/wl-streaming.sh"]), (w, cmd))
        self.assertEqual({"CONFIGS": "stock-disk nvm-emulated"}, delta)

    def test_unset_configurations_leave_the_scripts_default(self):
        (_, _, delta), = drv.steps("targets", ["streaming"], env_of("targets"))
        self.assertEqual("", delta["CONFIGS"])
        self.assertEqual(bench_configs.names(default=True), drv.configs_of("streaming", env_of("targets")))

    def test_heap_attrs_runs_the_heap_script_at_its_own_size(self):
        (_, cmd, delta), = drv.steps("quick", ["heap-attrs"], env_of("quick", HEAP_ATTRS_N="7"), suite_dir="/s")
        self.assertEqual(["/s/wl-heap.sh"], cmd)
        self.assertEqual({"HEAP_KIND": "attrs", "HEAP_N": "7", "HEAP_RUNS": "1"}, delta)
        # a profile that does not size it: the default
        (_, _, delta), = drv.steps("targets", ["heap-attrs"], env_of("targets"))
        self.assertEqual("100000", delta["HEAP_N"])

    def test_nnthroughput_is_one_step_with_every_configuration_at_the_same_size(self):
        for profile in ("targets", "full", "quick"):
            (w, _, delta), = drv.steps(profile, ["nnthroughput"], env_of(profile, NNT_MSYNC_N="10000"))
            self.assertEqual(["CONFIGS"], list(delta), profile)
            self.assertIn("nvm-disk", delta["CONFIGS"].split(), profile)

    def test_the_plan_shows_each_nnthroughput_measurement_with_its_command_line(self):
        env = env_of("targets", NNT_OPS="create", NNT_THREADS="2", NNT_RUNS="1",
                     NNT_CONFIGS="nvm-emulated h35-fgl-tmpfs")
        text = drv.plan_text("targets", ["nnthroughput"], env, "/results/x", 1, root="/r")
        lines = [ln for ln in text.splitlines() if re.match(r"^    \d+ run", ln)]
        self.assertEqual(2, len(lines))
        self.assertIn("nvm-emulated: java ", lines[0])
        self.assertIn(" -cp WORK/conf:/r/nvm-dist/target/lib/* " + "org.apache.hadoop.hdfs.server.namenode."
                      "NNThroughputBenchmark -fs hdfs://127.0.0.1:0 ", lines[0])
        self.assertIn("h35-fgl-tmpfs: java ", lines[1])
        self.assertIn(" org.nvmnn.bench.h35.LockCheckedNNThroughput -fs file:/// ", lines[1])
        self.assertIn("[1/1] nnthroughput: CONFIGS='nvm-emulated h35-fgl-tmpfs' ", text)
        self.assertIn("  NNT_CONFIGS=nvm-emulated h35-fgl-tmpfs", text)


class RunInfoTest(unittest.TestCase):

    def test_parameters_are_the_workload_variables_sorted(self):
        env = {"NNT_N": "1", "HEAP_N": "2", "HAT_FILES": "3", "PATH": "/bin", "NNTX": "4", "REC_SIZES": "5"}
        self.assertEqual(["HAT_FILES=3", "HEAP_N=2", "NNT_N=1", "REC_SIZES=5"], drv.parameters_listing(env))

    def test_a_segment_block_is_indented_under_its_header(self):
        info = ["started: x", "parameters:", "  NNT_N=1"]
        self.assertEqual("suite: quick; workloads: heap\nstarted: x\nparameters:\n  NNT_N=1\n",
                         drv.run_info_block("quick", ["heap"], 1, info))
        self.assertEqual("\nsegment 3: full; workloads: heap recovery\n  started: x\n  parameters:\n    NNT_N=1\n",
                         drv.run_info_block("full", ["heap", "recovery"], 3, info))
        self.assertEqual(2, drv.segment_number("suite: full; workloads: heap\nstarted: x\n"))
        self.assertEqual(4, drv.segment_number("suite: full\n\nsegment 2: full\n\nsegment 3: full\n"))
        self.assertEqual("  finished: 1970-01-01 00:02:05 UTC, 1 min 5 s", drv.finished_line(60, 2, now=125))

    def test_the_segment_info_names_the_machine_and_the_parameters(self):
        lines = drv.segment_info({"NNT_N": "9", "DISK_BASE": "/tmp"}, drv.ROOT, now=0)
        self.assertEqual("started: 1970-01-01 00:00:00 UTC", lines[0])
        for prefix in ("commit: ", "cpu: ", "memory: ", "kernel: ", "java: ", "disk (DISK_BASE=/tmp): ",
                       "tmpfs (SHM_BASE=/dev/shm): ", "load average at start: "):
            self.assertTrue([ln for ln in lines if ln.startswith(prefix)], prefix)
        self.assertEqual(["parameters:", "  NNT_N=9"], lines[-2:])


STUB = """#!/usr/bin/env bash
# a stub workload: one row per configuration, and the environment it was given
echo "$(basename "$0") CONFIGS=${CONFIGS-unset} NNT_N=${NNT_N-} HEAP_KIND=${HEAP_KIND-} SUITE=$SUITE" \
  >> "$RESULTS/stub-calls.txt"
for c in ${CONFIGS:-stock-disk nvm-emulated}; do
  echo "$SUITE,nnthroughput,create,2,${NNT_N:-1},$c,1,${STUB_VALUE:-100},ops/s" >> "$RESULTS/results.csv"
done
[ -z "${STUB_FAIL:-}" ] || echo "create,2,stock-disk,1" >> "$RESULTS/failures.txt"
"""


class RunTest(unittest.TestCase):
    """Whole runs of the driver against stub workloads in a temporary repository tree."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.root = self.tmp.name
        self.suite = os.path.join(self.root, "suite")
        os.makedirs(os.path.join(self.root, "nvm-dist", "target", "lib"))
        os.makedirs(self.suite)
        for spec in drv.WORKLOADS.values():
            p = os.path.join(self.suite, spec["script"])
            with open(p, "w") as f:
                f.write(STUB)
            os.chmod(p, os.stat(p).st_mode | stat.S_IEXEC)
        self.clock = iter(range(1_700_000_000, 1_700_000_000 + 10000, 65))

    def tearDown(self):
        self.tmp.cleanup()

    def run_driver(self, *argv, **environ):
        out, err = io.StringIO(), io.StringIO()
        env = {"PATH": os.environ["PATH"], **environ}
        with redirect_stdout(out), redirect_stderr(err):
            rc = drv.run(list(argv), env, root=self.root, suite_dir=self.suite, charts=False,
                         now=lambda: next(self.clock))
        return rc, out.getvalue(), err.getvalue()

    def read(self, *path):
        with open(os.path.join(*path)) as f:
            return f.read()

    def results(self):
        base = os.path.join(self.root, "benchmarks", "results")
        return os.path.join(base, os.readlink(os.path.join(base, "latest")))

    def test_a_run_writes_the_results_directory_and_points_latest_at_it(self):
        rc, out, _ = self.run_driver("quick", "nnthroughput", "heap-attrs", NNT_N="123", STUB_VALUE="50")
        self.assertEqual(0, rc, out)
        d = self.results()
        self.assertRegex(os.path.basename(d), r"^\d{8}-\d{6}$")
        for f in ("results.csv", "ratios.csv", "targets.csv", "report.txt", "run-info.txt"):
            self.assertTrue(os.path.isfile(os.path.join(d, f)), f)
        self.assertTrue(os.path.isdir(os.path.join(d, "logs")))
        rows = self.read(d, "results.csv").splitlines()
        self.assertEqual("suite,workload,op,threads,size,config,run,value,unit", rows[0])
        self.assertIn("quick,nnthroughput,create,2,123,nvm-emulated,1,50,ops/s", rows)
        calls = self.read(d, "stub-calls.txt").splitlines()
        self.assertEqual("wl-nnthroughput.sh CONFIGS=stock-disk stock-tmpfs stock-nojournal nvm-emulated nvm-disk "
                         "NNT_N=123 HEAP_KIND= SUITE=quick", calls[0])
        self.assertTrue(calls[1].startswith("wl-heap.sh CONFIGS=unset NNT_N=123 HEAP_KIND=attrs"), calls[1])
        info = self.read(d, "run-info.txt")
        self.assertTrue(info.startswith("suite: quick; workloads: nnthroughput heap-attrs\nstarted: "), info)
        self.assertIn("\n  NNT_N=123\n", info)
        self.assertRegex(info, r"\nfinished: [0-9-]+ [0-9:]+ UTC, \d+ min \d+ s\n$")
        self.assertIn("nvm-emulated,stock-disk,1.0000", self.read(d, "ratios.csv"))
        self.assertIn("== [2/2] heap-attrs", out)
        self.assertIn("targets:", out)

    def test_into_adds_a_segment_to_the_same_directory(self):
        self.assertEqual(0, self.run_driver("full", "heap")[0])
        d = self.results()
        rc, out, err = self.run_driver("full", "--into", d, "recovery", NNT_N="77")
        self.assertEqual(0, rc, err)
        self.assertEqual(d, self.results())
        info = self.read(d, "run-info.txt")
        self.assertEqual(1, info.count("suite: full; workloads: heap\n"))
        self.assertIn("\n\nsegment 2: full; workloads: recovery\n  started: ", info)
        self.assertIn("\n    NNT_N=77\n", info)
        self.assertRegex(info, r"\n  finished: [^\n]+\n$")
        self.assertEqual(1, self.read(d, "results.csv").count("suite,workload"))

    def test_into_refuses_a_directory_that_is_not_a_run_of_the_profile(self):
        self.assertEqual(0, self.run_driver("quick", "heap")[0])
        rc, _, err = self.run_driver("full", "--into", self.results(), "heap")
        self.assertEqual(2, rc)
        self.assertIn("a run of another profile (quick), not full", err)
        rc, _, err = self.run_driver("quick", "--into", self.root, "heap")
        self.assertEqual((2, True), (rc, "not a results directory" in err))

    def test_a_dry_run_prints_the_plan_and_writes_nothing(self):
        rc, out, _ = self.run_driver("targets", "--dry-run")
        self.assertEqual(0, rc)
        self.assertFalse(os.path.exists(os.path.join(self.root, "benchmarks")))
        self.assertIn("plan: profile targets; workloads: nnthroughput recovery", out)
        # 3 runs x 2 thread counts x 6 ops x 9 configurations (nvm-disk among them), each on a line
        # of its own
        self.assertEqual(3 * 2 * 6 * 9, len(re.findall(r"(?m)^    \d+ run", out)))
        self.assertIn("[1/2] nnthroughput: ", out)
        self.assertIn("[2/2] recovery: ", out)

    def test_a_failed_measurement_makes_the_exit_status_1(self):
        rc, out, _ = self.run_driver("quick", "heap", STUB_FAIL="1")
        self.assertEqual(1, rc)
        self.assertIn("FAILED measurements (1)", out)

    def test_a_missing_hadoop_3_5_0_runtime_stops_the_run_before_it_starts(self):
        rc, _, err = self.run_driver("quick", "nnthroughput", NNT_CONFIGS="stock-disk h35-tmpfs")
        self.assertEqual(1, rc)
        self.assertIn("h35-tmpfs needs Hadoop 3.5.0's runtime", err)
        self.assertFalse(os.path.exists(os.path.join(self.root, "benchmarks")))


if __name__ == "__main__":
    unittest.main()
