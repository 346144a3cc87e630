#!/usr/bin/env python3
"""Tests of bench_configs.py, the configuration table: the naming convention the shell scripts
match on, the Hadoop 3.5.0 configurations' lock settings, and what bench_conf reads through
`bench_configs.py shell` and `check`. Run by `make test`."""
import os
import subprocess
import sys
import unittest

import bench_chart_colors
import bench_configs
from bench_configs import CONFIGS

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "bench_configs.py")


def cli(*args):
    return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True)


class TableTest(unittest.TestCase):

    def test_names_follow_the_convention_the_shell_scripts_match_on(self):
        for name, c in CONFIGS.items():
            with self.subTest(name):
                self.assertEqual(name.startswith("nvm-"), c["nvm"])
                self.assertEqual("-ha-" in name, c["ha"])
                self.assertEqual(name.startswith("h35-"), c["runtime"] == "hadoop-3.5.0")
                self.assertTrue(name.startswith(("stock-", "nvm-", "h35-")))

    def test_every_field_has_a_known_value(self):
        for name, c in CONFIGS.items():
            with self.subTest(name):
                self.assertIn(c["runtime"], bench_configs.RUNTIMES)
                self.assertIn(c["name_dir"], ("disk", "tmpfs"))
                self.assertIn(c["region"], (None, "disk", "tmpfs"))
                self.assertEqual(c["nvm"], c["region"] is not None)
                self.assertEqual(c["ha"], c["journal_nodes"] is not None)
                self.assertIn(c["journal_nodes"], (None, "disk", "tmpfs"))
                self.assertTrue(c["workloads"])
                self.assertFalse(set(c["workloads"]) - set(bench_configs.WORKLOADS))
                self.assertTrue(c["description"])

    def test_the_default_set_is_the_seven_2_7_3_configurations(self):
        self.assertEqual(["stock-disk", "stock-tmpfs", "stock-nojournal", "nvm-emulated", "nvm-disk", "nvm-cold",
                          "nvm-warm"], bench_configs.names(default=True))
        self.assertEqual(["stock-ha-disk", "stock-ha-tmpfs", "nvm-ha-disk", "nvm-ha-tmpfs", "nvm-disk-ha-disk"],
                         bench_configs.names(ha=True))

    def test_hadoop_3_5_0_runs_nnthroughput_only_with_the_lock_it_must_report(self):
        key = "dfs.namenode.lock.model.provider.class"
        self.assertEqual(("h35-disk", "h35-tmpfs", "h35-fgl-disk", "h35-fgl-tmpfs"), bench_configs.H35_CONFIGS)
        for name in bench_configs.H35_CONFIGS:
            c = CONFIGS[name]
            with self.subTest(name):
                self.assertEqual(("nnthroughput",), c["workloads"])
                self.assertFalse(c["nvm"])
                if "-fgl-" in name:
                    self.assertEqual(bench_configs.H35_FGL, c["conf"][key])
                    self.assertEqual(bench_configs.H35_FGL, c["lock"])
                else:
                    # 3.5.0's default, left unset
                    self.assertNotIn(key, c["conf"])
                    self.assertEqual(bench_configs.H35_GLOBAL, c["lock"])
                # edit logging is left at 3.5.0's default
                self.assertNotIn("dfs.namenode.edits.asynclogging", c["conf"])

    def test_each_h35_configuration_keeps_its_edits_where_the_stock_one_of_the_same_medium_does(self):
        for medium in ("disk", "tmpfs"):
            for name in (f"h35-{medium}", f"h35-fgl-{medium}"):
                self.assertEqual(CONFIGS[f"stock-{medium}"]["name_dir"], CONFIGS[name]["name_dir"])

    def test_nvm_disk_keeps_its_region_and_log_on_the_disk_in_the_disk_mode(self):
        c = CONFIGS["nvm-disk"]
        self.assertEqual((True, "disk", False), (c["nvm"], c["region"], c["pmem_force"]))
        self.assertEqual({"dfs.namenode.nvm.persist.mode": "disk"}, c["conf"])
        # the msync mode's configuration is gone (older results still name it)
        self.assertNotIn("nvm-msync", CONFIGS)
        self.assertEqual(1, len(bench_configs.problems("nnthroughput", ["nvm-msync"])))

    def test_nvm_disk_ha_disk_pairs_nvm_disks_namenodes_over_journalnodes_on_the_disk(self):
        c, single = CONFIGS["nvm-disk-ha-disk"], CONFIGS["nvm-disk"]
        self.assertEqual((True, True, "disk"), (c["ha"], c["nvm"], c["journal_nodes"]))
        for field in ("region", "pmem_force", "conf", "name_dir"):
            self.assertEqual(single[field], c[field], field)
        self.assertTrue(bench_configs.persists_on_disk("nvm-disk-ha-disk"))
        # the emulated mode's pair keeps its regions on tmpfs
        self.assertFalse(bench_configs.persists_on_disk("nvm-ha-disk"))
        self.assertEqual(CONFIGS["nvm-ha-disk"]["workloads"], c["workloads"])

    def test_the_configurations_that_persist_on_the_disk(self):
        self.assertEqual(["stock-disk", "nvm-disk", "nvm-disk-nodelay", "h35-disk", "h35-fgl-disk"],
                         [c for c in CONFIGS if "nnthroughput" in CONFIGS[c]["workloads"]
                          and bench_configs.persists_on_disk(c)])
        # an NVM NameNode's name dir on the disk holds no namespace
        self.assertEqual("disk", CONFIGS["nvm-emulated"]["name_dir"])
        self.assertFalse(bench_configs.persists_on_disk("nvm-emulated"))

    def test_every_configuration_has_a_place_and_a_colour_in_the_charts(self):
        for name in CONFIGS:
            self.assertIn(name, bench_chart_colors.ORDER)
            self.assertIn(name, bench_chart_colors.COLORS)
        self.assertEqual(len(bench_chart_colors.ORDER), len(set(bench_chart_colors.ORDER)))

    def test_problems_names_unknown_configurations_and_unsupported_workloads(self):
        self.assertEqual([], bench_configs.problems("nnthroughput", ["stock-disk", "h35-fgl-tmpfs"]))
        self.assertEqual(1, len(bench_configs.problems("streaming", ["h35-disk"])))
        self.assertIn("unknown configuration 'stock-ssd'", bench_configs.problems("nnthroughput", ["stock-ssd"])[0])
        self.assertEqual(1, len(bench_configs.problems("nnthroughput", ["nvm-ha-disk"])))
        self.assertEqual([], bench_configs.problems("ha-timings", ["nvm-ha-disk"]))


class CommandLineTest(unittest.TestCase):

    def shell_vars(self, name, *expr):
        script = f'eval "$({sys.executable} {SCRIPT} shell {name})"; ' + "; ".join(expr)
        out = subprocess.run(["bash", "-c", script], capture_output=True, text=True, check=True)
        return out.stdout.split("\n")[:-1]

    def test_shell_gives_bench_conf_its_keys_as_a_bash_array_of_pairs(self):
        out = self.shell_vars("nvm-cold", 'echo "${#CFG_CONF[@]}"', 'echo "${CFG_CONF[2]}=${CFG_CONF[3]}"',
                              'echo "$CFG_NVM $CFG_NAME_ON $CFG_REGION_ON $CFG_ENV_FORCE $CFG_RUNTIME"')
        self.assertEqual(["4", "dfs.namenode.nvm.cache.inodes=1000", "true disk tmpfs 1 nvm-2.7.3"], out)

    def test_shell_gives_nvm_disk_no_pmem_force(self):
        out = self.shell_vars("nvm-disk", 'echo "$CFG_NVM $CFG_NAME_ON $CFG_REGION_ON $CFG_ENV_FORCE"',
                              'echo "${CFG_CONF[0]}=${CFG_CONF[1]}"')
        self.assertEqual(["true disk disk 0", "dfs.namenode.nvm.persist.mode=disk"], out)

    def test_shell_gives_the_disk_modes_ha_pair_its_regions_on_the_disk_and_no_pmem_force(self):
        out = self.shell_vars("nvm-disk-ha-disk", 'echo "$CFG_NVM $CFG_REGION_ON $CFG_ENV_FORCE $CFG_JN_ON"',
                              'echo "${CFG_CONF[0]}=${CFG_CONF[1]}"')
        self.assertEqual(["true disk 0 disk", "dfs.namenode.nvm.persist.mode=disk"], out)
        out = self.shell_vars("nvm-ha-disk", 'echo "$CFG_REGION_ON $CFG_ENV_FORCE ${CFG_CONF[1]}"')
        self.assertEqual(["tmpfs 1 emulated"], out)

    def test_shell_describes_an_h35_configuration(self):
        out = self.shell_vars("h35-fgl-tmpfs", 'echo "$CFG_RUNTIME_LIB"', 'echo "$CFG_RUNTIME_JAR"',
                              'echo "$CFG_LOCK"', 'echo "$CFG_NAME_ON $CFG_NVM"')
        self.assertEqual(["benchmarks/hadoop35/target/lib", "benchmarks/hadoop35/target/nnthroughput-lock-check.jar",
                          bench_configs.H35_FGL, "tmpfs false"], out)

    def test_check_exits_2_with_a_message_for_a_configuration_a_workload_cannot_run(self):
        self.assertEqual(0, cli("check", "nnthroughput", "stock-disk", "h35-tmpfs").returncode)
        bad = cli("check", "recovery", "stock-disk", "h35-tmpfs")
        self.assertEqual(2, bad.returncode)
        self.assertIn("h35-tmpfs does not run recovery", bad.stderr)
        self.assertEqual(2, cli("shell", "nvm-fast").returncode)

    def test_names(self):
        self.assertEqual(" ".join(CONFIGS), cli("names").stdout.strip())


if __name__ == "__main__":
    unittest.main()
