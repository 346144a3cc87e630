"""A run's results directory, as the suite writes it (docs/benchmarks.md, "Outputs"): the files
and their formats, shared by the driver (bench_driver.py) and the workloads written in Python
(bench_nnthroughput.py). The shell workloads write the same through bench-lib.sh (record,
keep_log, progress)."""
import os
import shutil
import time

HEADER = "suite,workload,op,threads,size,config,run,value,unit"
RESULTS_CSV = "results.csv"
RATIOS_CSV = "ratios.csv"
TARGETS_CSV = "targets.csv"
REPORT = "report.txt"
RUN_INFO = "run-info.txt"
FAILURES = "failures.txt"
CHARTS = "charts"
LOGS = "logs"
LATEST = "latest"


def results_base(root):
    """benchmarks/results: every run's directory, and the `latest` pointer."""
    return os.path.join(root, "benchmarks", "results")


def ensure(d):
    """d/logs and d/results.csv with its header (kept if it has rows)."""
    os.makedirs(os.path.join(d, LOGS), exist_ok=True)
    p = os.path.join(d, RESULTS_CSV)
    if not os.path.exists(p) or os.path.getsize(p) == 0:
        with open(p, "w") as f:
            f.write(HEADER + "\n")


def record(d, suite, workload, op, threads, size, config, run, value, unit):
    """One row of results.csv; the value as the benchmark printed it."""
    if value in (None, ""):
        raise ValueError(f"record: empty value for {workload} {op} {config} run {run}")
    with open(os.path.join(d, RESULTS_CSV), "a") as f:
        f.write(",".join(str(x) for x in (suite, workload, op, threads, size, config, run, value, unit)) + "\n")


def keep_log(d, src, workload, name):
    """A raw log copied to d/logs/WORKLOAD/NAME (nothing if src is missing)."""
    dst = os.path.join(d, LOGS, workload)
    os.makedirs(dst, exist_ok=True)
    if os.path.isfile(src):
        shutil.copyfile(src, os.path.join(dst, name))
    return os.path.join(dst, name)


def failure(d, line):
    with open(os.path.join(d, FAILURES), "a") as f:
        f.write(line + "\n")


def progress_line(t0, step, total, text, now=None):
    """One measurement's progress line, with the suite's elapsed time (bench-lib.sh's progress)."""
    el = int((now if now is not None else time.time()) - t0)
    return f"[{el // 3600:02d}:{el % 3600 // 60:02d}:{el % 60:02d}] [{step}/{total}] {text}"
