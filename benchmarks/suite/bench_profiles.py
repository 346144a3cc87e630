"""The benchmark suite's profiles, as data: the workloads each runs by default and every workload
parameter it sets (docs/benchmarks.md). bench_driver.py runs them; an environment variable of the
same name as a parameter, when set and not empty, wins over the profile's value.

A value is a string, a number or a list (written space-separated, as the workload scripts read
it). Parameters a profile does not set keep the workload script's own default (the top of each
wl-*.sh); a workload a profile does not list runs only when named on the command line.
"""

# The HA configurations (bench-ha-lib.sh) and Apache Hadoop 3.5.0's (NNThroughputBenchmark only).
HA_CFGS = ["stock-ha-disk", "stock-ha-tmpfs", "nvm-ha-disk", "nvm-ha-tmpfs", "nvm-disk-ha-disk"]
# the HA pairs whose JournalNodes keep their edits on the local disk: stock, NVM in the emulated mode
# (regions on tmpfs) and NVM in the disk mode (regions and their logs on the local disk)
HA_DISK_CFGS = ["stock-ha-disk", "nvm-ha-disk", "nvm-disk-ha-disk"]
H35_CFGS = ["h35-disk", "h35-tmpfs", "h35-fgl-disk", "h35-fgl-tmpfs"]
NNT_ANCHORED = ["stock-disk", "stock-tmpfs", "stock-nojournal", "nvm-emulated"]
# with the NVM NameNode whose region is on the local disk (persist.mode=disk), as durable as stock-disk
NNT_WITH_DISK = NNT_ANCHORED + ["nvm-disk"]

PROFILES = {
    "quick": {
        "description": "a subset that finishes in under 6 minutes, build included, on the project's 2-core "
                       "machine when quiet (make bench-quick)",
        # heap-attrs and ha-timings run in quick only when named (bench.sh quick ha-timings): the
        # quick run's time
        "workloads": ["nnthroughput", "nnbench-nomr", "nnbench-mr", "recovery", "heap", "streaming"],
        "params": {
            "NNT_N": 100000, "NNT_THREADS": 8, "NNT_OPS": ["create", "open"], "NNT_RUNS": 2,
            "NNT_CONFIGS": NNT_WITH_DISK,
            "NOMR_SIZES": 1000, "NOMR_RUNS": 1, "NOMR_CONFIGS": ["stock-disk", "nvm-emulated", "nvm-disk"],
            "MR_FILES": 1000, "MR_MAPS": 4, "MR_RUNS": 1, "MR_CONFIGS": ["stock-disk", "nvm-emulated"],
            "REC_SIZES": 10000, "REC_RUNS": 1, "REC_CONFIGS": ["stock-disk", "nvm-emulated"],
            "HEAP_N": 100000, "HEAP_RUNS": 1,
            "HEAP_ATTRS_N": 100000, "HEAP_ATTRS_RUNS": 1,
            "STREAM_THREADS": 16, "STREAM_BYTES": 256, "STREAM_SECONDS": 8, "STREAM_WARMUP": 3, "STREAM_RUNS": 1,
            "STREAM_CONFIGS": ["stock-disk", "nvm-emulated"],
            "HAT_FILES": 10000, "HAT_RUNS": 1, "HAT_CONFIGS": ["stock-ha-disk", "nvm-ha-disk"],
        },
    },
    "full": {
        "description": "everything (many hours; recorded in segments with --into: make bench)",
        "workloads": ["nnthroughput", "nnbench-nomr", "nnbench-mr", "recovery", "heap", "heap-attrs", "streaming",
                      "ha-timings"],
        "params": {
            "NNT_N": 1000000, "NNT_THREADS": [2, 8],
            "NNT_OPS": ["create", "mkdirs", "open", "delete", "fileStatus", "rename", "blockReport"],
            "NNT_RUNS": 3,
            "NNT_CONFIGS": ["stock-disk", "stock-tmpfs", "stock-nojournal", "nvm-emulated", "nvm-disk", "nvm-cold"]
            + H35_CFGS,
            "NOMR_SIZES": [1000, 5000, 10000, 50000, 100000, 500000], "NOMR_RUNS": 3,
            # an HA pair's single client runs at a few hundred files/s here: its series stops at 100k
            "NOMR_HA_MAX": 100000,
            "NOMR_CONFIGS": ["stock-disk", "stock-tmpfs", "stock-nojournal", "nvm-emulated", "nvm-disk"] + HA_CFGS,
            "MR_FILES": [10000, 50000], "MR_MAPS": [2, 8, 16], "MR_RUNS": 3,
            "MR_CONFIGS": ["stock-disk", "stock-tmpfs", "stock-nojournal", "nvm-emulated", "nvm-disk"],
            "REC_SIZES": [100000, 1000000, 10000000], "REC_RUNS": 3, "REC_CONFIGS": ["stock-disk", "nvm-emulated"],
            "HEAP_N": 1000000, "HEAP_RUNS": 2,
            "HEAP_ATTRS_N": 1000000, "HEAP_ATTRS_RUNS": 2,
            "STREAM_THREADS": [16, 64], "STREAM_BYTES": [256, 1024], "STREAM_SECONDS": 30, "STREAM_WARMUP": 5,
            "STREAM_RUNS": 3,
            "STREAM_CONFIGS": ["stock-disk", "stock-tmpfs", "stock-nojournal", "nvm-emulated", "nvm-disk"] + HA_CFGS,
            "HAT_FILES": 100000, "HAT_RUNS": 3, "HAT_CONFIGS": HA_CFGS,
        },
    },
    "targets": {
        "description": "what the NNThroughputBenchmark and restart targets are judged on: the write and read ops "
                       "at 2 and 8 threads against the stock 2.7.3 configurations and Hadoop 3.5.0, restart at "
                       "100k and 1M files (make bench-targets)",
        "workloads": ["nnthroughput", "recovery"],
        "params": {
            "NNT_N": 100000, "NNT_THREADS": [2, 8], "NNT_OPS": ["create", "mkdirs", "rename", "delete", "open",
                                                                "fileStatus"],
            "NNT_RUNS": 3, "NNT_CONFIGS": NNT_WITH_DISK + H35_CFGS,
            # nvm-disk: restarts after kill -9 with its write-ahead log at the checkpoint bound (issue 39)
            "REC_SIZES": [100000, 1000000], "REC_RUNS": 3, "REC_CONFIGS": ["stock-disk", "nvm-emulated", "nvm-disk"],
        },
    },
    "nnthroughput": {
        "description": "the NNThroughputBenchmark part alone: 100k ops, 2 threads, 3 runs (make nnthroughput)",
        "workloads": ["nnthroughput"],
        "params": {
            "NNT_N": 100000, "NNT_THREADS": 2, "NNT_OPS": ["create", "mkdirs", "rename", "delete", "open",
                                                           "fileStatus"],
            "NNT_RUNS": 3, "NNT_CONFIGS": NNT_ANCHORED,
        },
    },
    "heap-attrs": {
        "description": "heap per file with and without an ACL and two xattrs, 500k files, 2 runs "
                       "(make bench-heap-attrs)",
        "workloads": ["heap-attrs"],
        "params": {"HEAP_ATTRS_N": 500000, "HEAP_ATTRS_RUNS": 2},
    },
    "snapshots": {
        "description": "deleteSnapshot of a 1M-file tree with a diff on every tenth file (its time and the "
                       "longest wait of a concurrent reader for the namesystem lock), and create, mkdirs, "
                       "rename and delete with 0 and 100 snapshots over their directories, stock beside NVM, "
                       "2 runs (make bench-snapshots)",
        "workloads": ["snapshots"],
        "params": {"SNAP_FILES": 1000000, "SNAP_EVERY": 10, "SNAP_RUNS": 2,
                   "SNAP_OPS": 5000, "SNAP_OPS_SNAPSHOTS": [0, 100], "SNAP_THREADS": 8,
                   "SNAP_CONFIGS": ["stock-disk", "stock-tmpfs", "nvm-emulated", "nvm-disk"]},
    },
    "ha": {
        "description": "the HA configurations of NNBenchWithoutMR and streaming beside stock-disk, stock-tmpfs, "
                       "nvm-emulated and nvm-disk, and the HA timings of the three pairs with the journal on "
                       "disk; 30-45 minutes (make bench-ha)",
        "workloads": ["nnbench-nomr", "streaming", "ha-timings"],
        # the HA configurations beside the non-HA ones they are compared with (HA's cost), interleaved
        "params": {
            "NOMR_SIZES": 5000, "NOMR_RUNS": 2,
            "NOMR_CONFIGS": ["stock-disk", "stock-tmpfs", "nvm-emulated", "nvm-disk"] + HA_CFGS,
            "STREAM_THREADS": 16, "STREAM_BYTES": 256, "STREAM_SECONDS": 8, "STREAM_WARMUP": 3, "STREAM_RUNS": 2,
            "STREAM_CONFIGS": ["stock-disk", "stock-tmpfs", "nvm-emulated", "nvm-disk"] + HA_CFGS,
            "HAT_FILES": 50000, "HAT_RUNS": 3, "HAT_CONFIGS": HA_DISK_CFGS,
        },
    },
}


def env_value(v):
    """A parameter's value as its environment variable holds it."""
    if isinstance(v, (list, tuple)):
        return " ".join(str(x) for x in v)
    return str(v)
