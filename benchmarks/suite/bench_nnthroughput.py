#!/usr/bin/env python3
"""Workload: the unmodified NNThroughputBenchmark (docs/benchmarks.md, "NNThroughputBenchmark").

2.7.3's, from hadoop-hdfs-2.7.3-tests.jar: it builds its NameNode in process
(NameNode.createNameNode), so the drop-in jar routes it through our hooks (-fs hdfs://127.0.0.1:0:
2.7.3 always creates its own NameNode). Hadoop 3.5.0's, from hadoop-hdfs-3.5.0-tests.jar, for the
h35-* configurations: it creates its own NameNode only when no remote one is named, so it runs with
-fs file:///, through LockCheckedNNThroughput (benchmarks/hadoop35), which prints the class of the
NameNode's namesystem lock and edit log after the run; a measurement whose lock is not its
configuration's (bench_configs.py, "lock") fails. Same ops, options, JVM flags and JDK for both;
-keepResults for both, so that the JVM does not delete what its op made before it exits (after the
timed part; the disk statistics below would count that delete).
Each measurement is a fresh JVM on a freshly formatted name directory / region (a copy of one
formatted per configuration and process, prepare-measurement.sh).
Interleaved: for each run, for each thread count, for each op, every configuration in turn.

Disk statistics: for a configuration whose namespace is durable on the local disk
(bench_configs.persists_on_disk: stock-disk, nvm-disk, h35-disk, h35-fgl-disk), the counters of
the block device holding DISK_BASE (bench_diskstats.py) are read when the benchmark logs
"Starting N OP(s)." (its setup done: the NameNode started, the files open, delete and rename need
created) and again once the JVM has exited (the NameNode stopped: its close's writes count), and
recorded per operation (divided by that N) as OP-disk-writes (writes/op), OP-disk-KiB (KiB/op)
and OP-disk-flushes (flushes/op; left out when the kernel does not count flushes).

Environment (wl-nnthroughput.sh runs this; every variable optional):
  NNT_OPS, NNT_THREADS, NNT_N (operations; for blockReport: N/10 blocks per report), NNT_RUNS,
  CONFIGS, NNT_HEAP, NNT_BR_REPORTS, NNT_BR_BLOCKS_PER_FILE; RESULTS, SUITE, BENCH_T0, DISK_BASE
blockReport runs with one block per file by default: 2.7.3's NNThroughputBenchmark sends its
received-block reports through the NameNode's asynchronous queue and then calls addBlock for
the file's next block at once, which fails with NotReplicatedYetException whenever the queue has
not caught up (every configuration, stock included, fails within a few files here). With one
block per file no addBlock commits a previous block (docs/benchmarks.md, "blockReport, one
block per file").

Usage: bench_nnthroughput.py           run the measurements
       bench_nnthroughput.py --plan    print them (configuration, op, threads, run, command line)
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import bench_configs
import bench_diskstats
import bench_results

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
WORKLOAD = "nnthroughput"
ALL_OPS = "create mkdirs open delete fileStatus rename blockReport"
MAIN_273 = "org.apache.hadoop.hdfs.server.namenode.NNThroughputBenchmark"
MAIN_H35 = "org.nvmnn.bench.h35.LockCheckedNNThroughput"
LOCK_LINE = re.compile(r"^lock-check namesystem-lock: (\S+)", re.M)
EDIT_LOG_LINE = re.compile(r"^lock-check edit-log: (\S+)", re.M)
OPS_LINE = re.compile(r"Ops per sec: (\S+)")
KEPT_LOG = re.compile(r"^(?P<op>[A-Za-z]+)-t(?P<t>\d+)-n(?P<n>\d+)-(?P<cfg>.+)-run(?P<run>\d+)\.log$")


def settings(env):
    """The workload's parameters from the environment, with wl-nnthroughput.sh's defaults."""
    def get(name, default):
        return env.get(name) or default
    return {
        "ops": get("NNT_OPS", ALL_OPS).split(),
        "threads": get("NNT_THREADS", "2 8").split(),
        "n": int(get("NNT_N", "100000")),
        "runs": int(get("NNT_RUNS", "3")),
        "configs": get("CONFIGS", " ".join(bench_configs.names(default=True))).split(),
        "heap": get("NNT_HEAP", "4g"),
        "br_reports": get("NNT_BR_REPORTS", "100"),
        "br_blocks_per_file": get("NNT_BR_BLOCKS_PER_FILE", "1"),
    }


def size_of(op, n):
    """The size column: operations, or blocks per report for blockReport."""
    return n // 10 if op == "blockReport" else n


def region_gb(n):
    """The NVM region's size: ~4M inodes per GiB."""
    return n // 2000000 + 1


def op_args(op, threads, s):
    """NNThroughputBenchmark's arguments for one op (the same for 2.7.3 and 3.5.0)."""
    args = ["-op", op]
    n = str(s["n"])
    if op == "mkdirs":
        return args + ["-threads", threads, "-dirs", n, "-dirsPerDir", "1000"]
    if op == "create":
        return args + ["-threads", threads, "-files", n, "-filesPerDir", "1000", "-close"]
    if op == "blockReport":
        return args + ["-datanodes", threads, "-reports", s["br_reports"], "-blocksPerReport",
                       str(size_of(op, s["n"])), "-blocksPerFile", s["br_blocks_per_file"]]
    return args + ["-threads", threads, "-files", n, "-filesPerDir", "1000"]


def command(cfg, op, threads, s, work, lib, root=ROOT):
    """The measurement's JVM command line. lib: the runtime's class path directory."""
    runtime = bench_configs.RUNTIMES[bench_configs.CONFIGS[cfg]["runtime"]]
    cp = [f"{work}/conf", f"{lib}/*"]
    if runtime.get("jar"):
        cp.append(os.path.join(root, runtime["jar"]))
        main, fs = MAIN_H35, "file:///"
    else:
        main, fs = MAIN_273, "hdfs://127.0.0.1:0"
    tmp = f"{work}/conf/tmp"
    return (["java", f"-Xms{s['heap']}", f"-Xmx{s['heap']}", "-XX:+UseParallelGC", f"-Dhadoop.tmp.dir={tmp}",
             "-Djava.net.preferIPv4Stack=true", "-cp", ":".join(cp), main, "-fs", fs, "-D", f"hadoop.tmp.dir={tmp}"]
            + op_args(op, threads, s) + ["-keepResults"])


def start_marker(op):
    """The line NNThroughputBenchmark logs right before its timed operations of `op` start
    (OperationStatsBase.benchmark, 2.7.3 and 3.5.0); open, delete and rename log one for the creates
    of their setup first."""
    return re.compile(rf"Starting (\d+) {re.escape(op)}\(s\)\.")


class DiskWindow:
    """The disk statistics of one measurement: the device's counters sampled when the benchmark logs
    that its timed operations start (watch sees every line of its output) and when the JVM has
    exited (end); rows() gives them per operation of that start line (bench_diskstats.per_op)."""

    def __init__(self, op, dev, sample=bench_diskstats.sample):
        self.marker = start_marker(op)
        self.dev = dev
        self.sample = sample
        self.before = self.after = None
        self.ops = 0

    def watch(self, line):
        if self.before is None:
            m = self.marker.search(line)
            if m:
                self.before = self.sample(self.dev)
                self.ops = int(m.group(1))

    def end(self):
        if self.before is not None:
            self.after = self.sample(self.dev)

    def rows(self):
        return bench_diskstats.per_op(self.before, self.after, self.ops)


def run_logged(cmd, env, log, watch=None):
    """Runs cmd with its stdout and stderr written, line by line as they come, to the file log;
    watch, when given, is called with each line (text). Returns the exit status."""
    with open(log, "wb") as out:
        p = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        try:
            for line in p.stdout:
                out.write(line)
                if watch:
                    watch(line.decode(errors="replace"))
            p.stdout.close()
            return p.wait()
        except BaseException:
            p.kill()
            p.wait()
            raise


def plan(s):
    """The measurements in the order they run: (run, threads, op, configuration)."""
    return [(run, t, op, cfg) for run in range(1, s["runs"] + 1) for t in s["threads"] for op in s["ops"]
            for cfg in s["configs"]]


def kept_log_name(op, t, n, cfg, run):
    # the size is in the kept log's name: a segment may measure a configuration and op at another size
    return f"{op}-t{t}-n{size_of(op, n)}-{cfg}-run{run}.log"


def lock_problem(cfg, log):
    """None if the log shows the namesystem lock CFG must run with (or CFG names none), else why not."""
    want = bench_configs.CONFIGS[cfg]["lock"]
    if not want:
        return None
    found = LOCK_LINE.findall(log)
    if found != [want]:
        return f"{cfg}: the namesystem lock was {' '.join(found) or 'not reported'}, not {want}"
    return None


def mode_problem(cfg, log):
    """None if the NameNode ran in CFG's mode (NVM or stock, from its log), else why not."""
    nvm = "NVM namesystem loaded" in log
    if cfg.startswith("nvm-") and not nvm:
        return f"{cfg}: the NameNode did not start in NVM mode"
    if not cfg.startswith("nvm-") and nvm:
        return f"{cfg}: the NameNode started in NVM mode"
    return None


def checks_summary(logs_dir, since=0.0):
    """What the kept logs of Hadoop 3.5.0 measurements (modified at or after `since`) report:
    lines for run-info.txt, per configuration the lock and edit log classes and how many
    measurements reported each."""
    seen = {}
    if not os.path.isdir(logs_dir):
        return []
    for name in sorted(os.listdir(logs_dir)):
        m = KEPT_LOG.match(name)
        p = os.path.join(logs_dir, name)
        if not m or m["cfg"] not in bench_configs.H35_CONFIGS or os.path.getmtime(p) < since:
            continue
        with open(p, errors="replace") as f:
            log = f.read()
        lock = LOCK_LINE.findall(log)
        edit = EDIT_LOG_LINE.findall(log)
        key = (m["cfg"], lock[-1] if lock else "not reported", edit[-1] if edit else "not reported")
        seen[key] = seen.get(key, 0) + 1
    return [f"{cfg}: namesystem lock {lock}, edit log {edit} ({n} measurement{'s' if n != 1 else ''})"
            for (cfg, lock, edit), n in sorted(seen.items(), key=lambda x: list(bench_configs.CONFIGS).index(
                x[0][0]))]


def disk_note(device, disk_base, cfgs):
    """The line saying which device's statistics the disk configurations' measurements record."""
    if not device:
        return (f"disk statistics: no block device found for DISK_BASE={disk_base}; the measurements of "
                f"{' '.join(cfgs)} have no writes/op, KiB/op or flushes/op rows")
    return (f"disk statistics: {device[2]} ({device[0]}:{device[1]}), which holds DISK_BASE={disk_base}, "
            f"per operation for {' '.join(cfgs)}")


def check_runtimes(configs, env, root=ROOT):
    """Exit 1 with a message if a runtime the configurations need is not built."""
    for cfg in configs:
        rt = bench_configs.RUNTIMES[bench_configs.CONFIGS[cfg]["runtime"]]
        for rel in (rt.get("lib"), rt.get("jar")):
            if rel and not os.path.exists(os.path.join(root, rel)):
                sys.exit(f"{cfg} needs {os.path.join(root, rel)}: run 'make bench-build' first")
        if rt.get("lib") == "nvm-dist/target/lib" and os.path.exists(
                os.path.join(root, rt["lib"], "hadoop-hdfs-2.7.3.jar")):
            sys.exit(f"the stock hadoop-hdfs-2.7.3.jar is in {rt['lib']}; only the -nvm jar may be")


class Measurements:
    """Runs the measurements of one invocation, sharing one format cache."""

    def __init__(self, s, env):
        self.s = s
        self.env = env
        self.results = env["RESULTS"]
        self.suite = env.get("SUITE") or "adhoc"
        self.t0 = float(env.get("BENCH_T0") or time.time())
        self.disk = env.get("DISK_BASE") or "/var/tmp"
        self.format_cache = tempfile.mkdtemp(prefix="nvmbench-format.", dir=self.disk)
        on_disk = [c for c in s["configs"] if bench_configs.persists_on_disk(c)]
        self.device = bench_diskstats.find_device(self.disk) if on_disk else None
        if on_disk:
            print(disk_note(self.device, self.disk, on_disk), flush=True)

    def close(self):
        shutil.rmtree(self.format_cache, ignore_errors=True)

    def one(self, cfg, op, t, run):
        """One measurement; returns (ops/s as printed, a note) or raises RuntimeError."""
        s = self.s
        work = tempfile.mkdtemp(prefix="nvmbench.", dir=self.disk)
        prepared = {}
        try:
            env = dict(self.env, FORMAT_CACHE=self.format_cache, RESULTS=self.results)
            p = subprocess.run([os.path.join(HERE, "prepare-measurement.sh"), cfg, work, str(region_gb(s["n"]))],
                               env=env, stdout=subprocess.PIPE, text=True)
            prepared = dict(line.split("=", 1) for line in p.stdout.splitlines() if "=" in line)
            if p.returncode != 0:
                raise RuntimeError(f"{cfg}: configuration or format failed (exit {p.returncode})")
            log = os.path.join(work, "bench.log")
            env = dict(self.env, PMEM_IS_PMEM_FORCE=prepared["CFG_ENV_FORCE"])
            disk = DiskWindow(op, self.device) if self.device and bench_configs.persists_on_disk(cfg) else None
            rc = run_logged(command(cfg, op, t, s, work, prepared["CFG_LIB"]), env, log, disk and disk.watch)
            if disk:
                disk.end()
            kept = bench_results.keep_log(self.results, log, WORKLOAD, kept_log_name(op, t, s["n"], cfg, run))
            with open(log, errors="replace") as f:
                text = f.read()
            m = OPS_LINE.search(text)
            if rc != 0 or not m:
                tail = "\n".join(text.splitlines()[-5:])
                raise RuntimeError(f"FAILED: nnthroughput {op} t={t} {cfg} run {run} (log: {kept})\n{tail}")
            problem = mode_problem(cfg, text) or lock_problem(cfg, text)
            if problem:
                raise RuntimeError(f"{problem} (log: {kept})")
            bench_results.record(self.results, self.suite, WORKLOAD, op, t, size_of(op, s["n"]), cfg, run,
                                 m.group(1), "ops/s")
            rows = disk.rows() if disk else []
            for suffix, value, unit in rows:
                bench_results.record(self.results, self.suite, WORKLOAD, f"{op}-{suffix}", t, size_of(op, s["n"]),
                                     cfg, run, value, unit)
            lock = LOCK_LINE.findall(text)
            note = f" (lock {lock[0].rsplit('.', 1)[-1]})" if lock else ""
            if rows:
                note += " (disk per op: " + ", ".join(f"{v} {u.split('/')[0]}" for _, v, u in rows) + ")"
            return m.group(1), note
        finally:
            shutil.rmtree(work, ignore_errors=True)
            if prepared.get("CFG_TMP"):
                shutil.rmtree(prepared["CFG_TMP"], ignore_errors=True)

    def run(self):
        steps = plan(self.s)
        failed = 0
        for i, (run, t, op, cfg) in enumerate(steps, 1):
            try:
                value, note = self.one(cfg, op, t, run)
                n = size_of(op, self.s["n"])
                text = f"nnthroughput {op} threads={t} n={n} {cfg} run {run}: {value} ops/s{note}"
            except RuntimeError as e:
                print(e, file=sys.stderr)
                text = f"nnthroughput {op} threads={t} {cfg} run {run}: FAILED"
                bench_results.failure(self.results, f"{op},{t},{cfg},{run}")
                failed += 1
            print(bench_results.progress_line(self.t0, i, len(steps), text), flush=True)
        return failed


def main(argv, environ):
    env = dict(environ)
    s = settings(env)
    problems = bench_configs.problems(WORKLOAD, s["configs"])
    if problems:
        print("\n".join(problems), file=sys.stderr)
        return 2
    if argv == ["--plan"]:
        for i, (run, t, op, cfg) in enumerate(plan(s), 1):
            lib = bench_configs.RUNTIMES[bench_configs.CONFIGS[cfg]["runtime"]].get("lib") or "$NVM_BASELINE_LIB"
            cmd = command(cfg, op, t, s, "WORK", os.path.join(ROOT, lib) if not lib.startswith("$") else lib)
            print(f"{i} run {run} threads {t} {op} {cfg}: {' '.join(cmd)}")
        return 0
    if argv:
        print(__doc__.split("Usage:")[1], file=sys.stderr)
        return 2
    check_runtimes(s["configs"], env)
    env.setdefault("RESULTS", os.path.join(bench_results.results_base(ROOT),
                                           time.strftime("%Y%m%d-%H%M%S") + "-adhoc"))
    bench_results.ensure(env["RESULTS"])
    m = Measurements(s, env)
    try:
        return 1 if m.run() else 0
    finally:
        m.close()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:], os.environ))
