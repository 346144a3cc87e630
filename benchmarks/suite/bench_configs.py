#!/usr/bin/env python3
"""The benchmark suite's configurations, as data: what each one runs (runtime, stock or NVM
NameNode), where its namespace is persisted, and the hdfs-site.xml keys it adds.

The shell helpers read this table (bench-lib.sh's bench_conf, bench-ha-lib.sh's ha_bench_conf,
check_configs) through the command line below; the driver (bench_driver.py) validates profiles
against it. The names follow a convention the shell scripts also match on, and which the tests
check: nvm-* is an NVM NameNode, *-ha-* an HA pair, h35-* Apache Hadoop 3.5.0.

Usage:
  bench_configs.py names [--default] [--ha]   the configuration names, one line
  bench_configs.py shell CFG                  bash assignments for bench_conf (CFG_*)
  bench_configs.py check WORKLOAD CFG...      exit 2, with a message, unless every CFG exists
                                              and can run WORKLOAD
"""
import shlex
import sys

# Every workload of the suite (bench_driver.WORKLOADS runs them).
WORKLOADS = ("nnthroughput", "nnbench-nomr", "nnbench-mr", "recovery", "heap", "heap-attrs", "streaming",
             "ha-timings", "snapshots")
# What a configuration without a "workloads" entry can run: every workload but the HA timings.
NON_HA_WORKLOADS = tuple(w for w in WORKLOADS if w != "ha-timings")

# The runtimes (the class path a configuration's JVMs run with), relative to the repository root.
RUNTIMES = {
    # the drop-in hadoop-hdfs-2.7.3-nvm.jar and the rest of Hadoop 2.7.3 (make bench-build)
    "nvm-2.7.3": {"lib": "nvm-dist/target/lib"},
    # another build's nvm-dist/target/lib, from NVM_BASELINE_LIB
    "baseline": {"lib": None, "lib_env": "NVM_BASELINE_LIB"},
    # unmodified Apache Hadoop 3.5.0 (benchmarks/hadoop35, make bench-build) and the launcher
    # that prints the lock and edit log classes of NNThroughputBenchmark's NameNode
    "hadoop-3.5.0": {"lib": "benchmarks/hadoop35/target/lib",
                     "jar": "benchmarks/hadoop35/target/nnthroughput-lock-check.jar"},
}

H35_FGL = "org.apache.hadoop.hdfs.server.namenode.fgl.FineGrainedFSNamesystemLock"
H35_GLOBAL = "org.apache.hadoop.hdfs.server.namenode.fgl.GlobalFSNamesystemLock"
NULL_JOURNAL = {
    # the stock journal-plugin mechanism: a URI scheme mapped to a JournalManager class
    "dfs.namenode.edits.dir": "nvmnull:/namespace",
    "dfs.namenode.edits.journal-plugin.nvmnull": "org.apache.hadoop.hdfs.server.namenode.NullJournalManager",
}
EMULATED = {"dfs.namenode.nvm.persist.mode": "emulated"}
DISK_MODE = {"dfs.namenode.nvm.persist.mode": "disk"}


def config(description, runtime="nvm-2.7.3", nvm=False, name_dir="disk", region=None, pmem_force=True,
           conf=None, ha=False, journal_nodes=None, workloads=NON_HA_WORKLOADS, default=False, lock=None):
    """One configuration.

    runtime    a RUNTIMES key
    nvm        the NVM NameNode (dfs.namenode.nvm.enabled=true) or the stock one
    name_dir   disk (DISK_BASE) or tmpfs (SHM_BASE): dfs.namenode.name.dir, for a stock NameNode
               its fsimage and edit log
    region     None, tmpfs or disk: the NVM region file
    pmem_force PMEM_IS_PMEM_FORCE=1 in the NameNode's environment (flushes without msync)
    conf       hdfs-site.xml keys added to the common ones
    ha         an HA pair (bench-ha-lib.sh); journal_nodes: disk or tmpfs, the JournalNodes' edits
    workloads  the workloads it can run
    default    among the configurations a workload script runs when CONFIGS is not set
    lock       the namesystem lock class the NameNode must report (Hadoop 3.5.0: checked per
               measurement, bench_nnthroughput.py)
    """
    return {"description": description, "runtime": runtime, "nvm": nvm, "name_dir": name_dir, "region": region,
            "pmem_force": pmem_force, "conf": dict(conf or {}), "ha": ha, "journal_nodes": journal_nodes,
            "workloads": tuple(workloads), "default": default, "lock": lock}


# In this order in listings and charts.
CONFIGS = {
    "stock-disk": config("stock NameNode; name dir (fsimage + edits) on the local disk: edits fsync'd",
                         default=True),
    "stock-tmpfs": config("stock NameNode; name dir on tmpfs", name_dir="tmpfs", default=True),
    "stock-nojournal": config("stock NameNode; the only journal is NullJournalManager (persists nothing)",
                              name_dir="tmpfs", conf=NULL_JOURNAL, default=True),
    "nvm-emulated": config("NVM NameNode; region on tmpfs, persist.mode=emulated, PMEM_IS_PMEM_FORCE=1",
                           nvm=True, region="tmpfs", conf=EMULATED, default=True),
    # the disk mode (region-format.md §12): a group commit is one append to <region>.wal and one
    # fdatasync; the region file is made durable by checkpoints. It replaced the msync mode, whose
    # configuration was nvm-msync (a name older results still hold)
    "nvm-disk": config("NVM NameNode; region and its write-ahead log on the local disk, persist.mode=disk",
                       nvm=True, region="disk", pmem_force=False, conf=DISK_MODE,
                       default=True),
    # nvm-disk without its default commit delay (dfs.namenode.nvm.commit.delay, region-format.md §7.7)
    "nvm-disk-nodelay": config("nvm-disk with the commit delay off (dfs.namenode.nvm.commit.delay=0)", nvm=True,
                               region="disk", pmem_force=False,
                               conf=dict(DISK_MODE, **{"dfs.namenode.nvm.commit.delay": "0"})),
    "nvm-cold": config("nvm-emulated with a 1,000-file inode cache (reads miss the cache)", nvm=True,
                       region="tmpfs", conf=dict(EMULATED, **{"dfs.namenode.nvm.cache.inodes": "1000"}),
                       default=True),
    "nvm-warm": config("nvm-emulated with a 4,000,000-file inode cache (every file of a 1M-file run cached)",
                       nvm=True, region="tmpfs", conf=dict(EMULATED, **{"dfs.namenode.nvm.cache.inodes": "4000000"}),
                       default=True),
    "nvm-baseline": config("nvm-emulated run with another build's runtime (NVM_BASELINE_LIB)", runtime="baseline",
                           nvm=True, region="tmpfs", conf=EMULATED, workloads=("nnthroughput",)),
    "stock-ha-disk": config("HA pair of stock NameNodes, name dirs and the JournalNodes' edits on the local disk",
                            ha=True, journal_nodes="disk", workloads=("nnbench-nomr", "streaming", "ha-timings")),
    "stock-ha-tmpfs": config("HA pair of stock NameNodes, name dirs and the JournalNodes' edits on tmpfs",
                             name_dir="tmpfs", ha=True, journal_nodes="tmpfs",
                             workloads=("nnbench-nomr", "streaming", "ha-timings")),
    "nvm-ha-disk": config("HA pair of NVM NameNodes (as nvm-emulated), the JournalNodes' edits on the local disk",
                          nvm=True, region="tmpfs", conf=EMULATED, ha=True, journal_nodes="disk",
                          workloads=("nnbench-nomr", "streaming", "ha-timings")),
    "nvm-ha-tmpfs": config("HA pair of NVM NameNodes (as nvm-emulated), the JournalNodes' edits on tmpfs",
                           nvm=True, region="tmpfs", conf=EMULATED, ha=True, journal_nodes="tmpfs",
                           workloads=("nnbench-nomr", "streaming", "ha-timings")),
    # the NameNodes of nvm-disk paired (<NameNodes>-ha-<JournalNodes' medium>): each region and its
    # write-ahead log on the local disk, as durable as stock-ha-disk's name dirs
    "nvm-disk-ha-disk": config("HA pair of NVM NameNodes in persist.mode=disk (as nvm-disk): regions and their "
                               "write-ahead logs on the local disk; the JournalNodes' edits on the local disk",
                               nvm=True, region="disk", pmem_force=False, conf=DISK_MODE, ha=True,
                               journal_nodes="disk", workloads=("nnbench-nomr", "streaming", "ha-timings")),
    # Apache Hadoop 3.5.0's own NameNode, in its own NNThroughputBenchmark; edit logging left at
    # 3.5.0's default (dfs.namenode.edits.asynclogging=true: FSEditLogAsync)
    "h35-disk": config("Hadoop 3.5.0 NameNode, default global lock; name dir on the local disk: edits fsync'd",
                       runtime="hadoop-3.5.0", workloads=("nnthroughput",), lock=H35_GLOBAL),
    "h35-tmpfs": config("Hadoop 3.5.0 NameNode, default global lock; name dir on tmpfs", runtime="hadoop-3.5.0",
                        name_dir="tmpfs", workloads=("nnthroughput",), lock=H35_GLOBAL),
    "h35-fgl-disk": config("Hadoop 3.5.0 NameNode, fine-grained locking; name dir on the local disk",
                           runtime="hadoop-3.5.0", conf={"dfs.namenode.lock.model.provider.class": H35_FGL},
                           workloads=("nnthroughput",), lock=H35_FGL),
    "h35-fgl-tmpfs": config("Hadoop 3.5.0 NameNode, fine-grained locking; name dir on tmpfs",
                            runtime="hadoop-3.5.0", name_dir="tmpfs",
                            conf={"dfs.namenode.lock.model.provider.class": H35_FGL},
                            workloads=("nnthroughput",), lock=H35_FGL),
}
H35_CONFIGS = tuple(c for c in CONFIGS if CONFIGS[c]["runtime"] == "hadoop-3.5.0")
HA_CONFIGS = tuple(c for c in CONFIGS if CONFIGS[c]["ha"])


def persists_on_disk(name):
    """Whether the configuration keeps its namespace durable on the local disk (DISK_BASE): an NVM
    NameNode in its region (its name dir holds VERSION and seen_txid only), a stock or Hadoop 3.5.0
    one in its name dir (fsimage and edit log)."""
    c = CONFIGS[name]
    return (c["region"] if c["nvm"] else c["name_dir"]) == "disk"


def names(default=False, ha=False):
    return [c for c, v in CONFIGS.items() if (not default or v["default"]) and (not ha or v["ha"])]


def problems(workload, cfgs):
    """Why cfgs (names) cannot run workload: a list of messages, empty when they all can."""
    out = []
    for c in cfgs:
        if c not in CONFIGS:
            out.append(f"unknown configuration '{c}'; expected some of: {' '.join(CONFIGS)}")
        elif workload not in CONFIGS[c]["workloads"]:
            out.append(f"{c} does not run {workload} (it runs: {' '.join(CONFIGS[c]['workloads'])})")
    return out


def shell(name):
    """bash assignments describing one configuration, for bench_conf and ha_bench_conf."""
    c = CONFIGS[name]
    conf = []
    for k, v in c["conf"].items():
        conf += [k, v]
    rt = RUNTIMES[c["runtime"]]
    lines = {
        "CFG_RUNTIME": c["runtime"],
        "CFG_RUNTIME_LIB": rt.get("lib") or "",
        "CFG_RUNTIME_LIB_ENV": rt.get("lib_env", ""),
        "CFG_RUNTIME_JAR": rt.get("jar", ""),
        "CFG_NVM": "true" if c["nvm"] else "false",
        "CFG_NAME_ON": c["name_dir"],
        "CFG_REGION_ON": c["region"] or "",
        "CFG_ENV_FORCE": "1" if c["pmem_force"] else "0",
        "CFG_JN_ON": c["journal_nodes"] or "",
        "CFG_LOCK": c["lock"] or "",
    }
    out = [f"{k}={shlex.quote(v)}" for k, v in lines.items()]
    out.append("CFG_CONF=(" + " ".join(shlex.quote(x) for x in conf) + ")")
    return "\n".join(out)


def main(argv):
    if len(argv) >= 1 and argv[0] == "names":
        print(" ".join(names(default="--default" in argv, ha="--ha" in argv)))
        return 0
    if len(argv) == 2 and argv[0] == "shell":
        if argv[1] not in CONFIGS:
            print(f"unknown configuration '{argv[1]}'; expected some of: {' '.join(CONFIGS)}", file=sys.stderr)
            return 2
        print(shell(argv[1]))
        return 0
    if len(argv) >= 2 and argv[0] == "check":
        msgs = problems(argv[1], argv[2:])
        for m in msgs:
            print(m, file=sys.stderr)
        return 2 if msgs else 0
    print(__doc__.split("Usage:")[1], file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
