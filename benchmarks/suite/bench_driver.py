#!/usr/bin/env python3
"""The side-by-side benchmark suite's driver (docs/benchmarks.md); bench.sh runs it.

  bench_driver.py PROFILE [--into RESULTS_DIR] [--dry-run] [WORKLOAD...]

PROFILE is one of bench_profiles.PROFILES (quick, full, targets, nnthroughput, heap-attrs, ha, snapshots).
WORKLOADs: nnthroughput nnbench-nomr nnbench-mr recovery heap heap-attrs streaming ha-timings snapshots
(default: the profile's). Every parameter the profile sets can be overridden by an environment
variable of the same name (an empty one does not override); the workload scripts read their
other parameters from the environment too (the top of each wl-*.sh).

Writes benchmarks/results/<timestamp>/: results.csv, ratios.csv, targets.csv, report.txt,
run-info.txt, charts/*.png, logs/; points benchmarks/results/latest at it. With --into DIR, adds a
segment to an earlier run's directory instead: its rows are appended to DIR/results.csv,
run-info.txt gets a segment block (commit, time, machine, load, parameters), and ratios, targets
and charts are recomputed over all of DIR's rows (docs/benchmarks.md, "Segments").
--dry-run prints the plan (the resolved parameters, each workload's command and environment, and
NNThroughputBenchmark's measurements with their command lines) and runs nothing.
Exit status: 0, or 1 if a measurement failed (failures.txt), 2 for a usage error.
"""
import argparse
import os
import re
import shlex
import subprocess
import sys
import time

import bench_configs
import bench_nnthroughput
import bench_profiles
import bench_results

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

# The workloads in the order a run takes them: the script, the parameter naming its
# configurations (passed to the script as CONFIGS when `as_configs`; the others read their own),
# the configurations it runs when that parameter is not set, and its parameters' prefix.
WORKLOADS = {
    "nnthroughput": {"script": "wl-nnthroughput.sh", "configs": "NNT_CONFIGS", "as_configs": True,
                     "prefix": "NNT_"},
    "nnbench-nomr": {"script": "wl-nnbench-nomr.sh", "configs": "NOMR_CONFIGS", "as_configs": True,
                     "prefix": "NOMR_"},
    "nnbench-mr": {"script": "wl-nnbench-mr.sh", "configs": "MR_CONFIGS", "as_configs": True, "prefix": "MR_"},
    "recovery": {"script": "wl-recovery.sh", "configs": "REC_CONFIGS", "default": "stock-disk nvm-emulated",
                 "prefix": "REC_"},
    "heap": {"script": "wl-heap.sh", "configs": "HEAP_CONFIGS", "default": "stock-tmpfs nvm-emulated",
             "prefix": "HEAP_"},
    # the heap workload with files that have an ACL and two xattrs, at its own size
    "heap-attrs": {"script": "wl-heap.sh", "configs": "HEAP_CONFIGS", "default": "stock-tmpfs nvm-emulated",
                   "prefix": "HEAP_", "env": {"HEAP_KIND": "attrs"},
                   "from": {"HEAP_N": ("HEAP_ATTRS_N", "100000"), "HEAP_RUNS": ("HEAP_ATTRS_RUNS", "1")}},
    "streaming": {"script": "wl-streaming.sh", "configs": "STREAM_CONFIGS", "as_configs": True,
                  "prefix": "STREAM_"},
    "ha-timings": {"script": "wl-ha-timings.sh", "configs": "HAT_CONFIGS", "default": "stock-ha-disk nvm-ha-disk",
                   "prefix": "HAT_"},
    "snapshots": {"script": "wl-snapshots.sh", "configs": "SNAP_CONFIGS",
                  "default": "stock-disk stock-tmpfs nvm-emulated nvm-disk", "prefix": "SNAP_"},
}
# run-info.txt lists every variable with one of these prefixes
PARAMETER = re.compile(r"^(NNT|NOMR|MR|REC|HEAP|STREAM|HAT|SNAP)_")


class UsageError(Exception):
    pass


def resolve(profile, environ):
    """The profile's parameters, each overridden by a non-empty environment variable of its name."""
    if profile not in bench_profiles.PROFILES:
        raise UsageError(f"unknown profile {profile}; expected one of: {' '.join(bench_profiles.PROFILES)}")
    params = {}
    for name, value in bench_profiles.PROFILES[profile]["params"].items():
        params[name] = environ.get(name) or bench_profiles.env_value(value)
    return params


def environment(params, environ):
    """The environment every workload inherits: the caller's, with the resolved parameters."""
    env = dict(environ)
    env.update(params)
    return env


def parameters_listing(env):
    """run-info.txt's parameters: every workload parameter of the environment, sorted."""
    return [f"{k}={v}" for k, v in sorted(env.items()) if PARAMETER.match(k)]


def configs_of(workload, env):
    """The configurations a workload will run, as the workload reads them from env."""
    w = WORKLOADS[workload]
    v = env.get(w["configs"])
    if v:
        return v.split()
    return (w.get("default") or " ".join(bench_configs.names(default=True))).split()


def steps(profile, workloads, env, suite_dir=HERE):
    """The plan: (workload, command, environment changes) per step, in order. The environment
    changes are what the driver sets on top of env for that step."""
    out = []
    for w in workloads:
        spec = WORKLOADS[w]
        cmd = [os.path.join(suite_dir, spec["script"])]
        delta = dict(spec.get("env", {}))
        for name, (src, default) in spec.get("from", {}).items():
            delta[name] = env.get(src) or default
        if spec.get("as_configs"):
            # the workload's configurations; empty (the script's default) when the profile sets none
            delta["CONFIGS"] = env.get(spec["configs"]) or ""
        out.append((w, cmd, delta))
    return out


def validate(profile, workloads, env):
    """Usage errors in the workloads or their configurations, before anything runs."""
    msgs = []
    for w in workloads:
        if w not in WORKLOADS:
            msgs.append(f"unknown workload {w}")
    for w, _, delta in steps(profile, [w for w in workloads if w in WORKLOADS], env):
        run_env = apply(env, delta)
        cfgs = (run_env.get("CONFIGS") or "").split() if WORKLOADS[w].get("as_configs") else []
        msgs += bench_configs.problems(w, cfgs or configs_of(w, run_env))
    if msgs:
        raise UsageError("\n".join(dict.fromkeys(msgs)))


def apply(env, delta):
    return dict(env, **delta)


def into_dir(path, profile):
    """The results directory --into names, checked: a results directory of a run of `profile`."""
    d = os.path.abspath(path)
    ok = all(os.path.isfile(os.path.join(d, f)) and os.path.getsize(os.path.join(d, f)) > 0
             for f in (bench_results.RESULTS_CSV, bench_results.RUN_INFO))
    if not ok:
        raise UsageError(f"--into {path}: not a results directory (no results.csv and run-info.txt)")
    with open(os.path.join(d, bench_results.RUN_INFO)) as f:
        suites = re.findall(r"^suite: ([^;]*);", f.read(), re.M)
    if profile not in suites:
        raise UsageError(f"--into {path}: a run of another profile ({suites[0] if suites else 'unknown'}), "
                         f"not {profile}")
    return d


def segment_number(run_info_text):
    """The number of the segment a new --into run adds (the first run is segment 1)."""
    return len(re.findall(r"^segment [0-9]*:", run_info_text, re.M)) + 2


def sh(cmd):
    """A shell command's output, stripped ('' if it fails)."""
    try:
        return subprocess.run(cmd, shell=True, capture_output=True, text=True).stdout.strip()
    except OSError:
        return ""


def machine_info(env):
    """The machine, in every segment's block: a segment may run on another boot or VM than the first."""
    disk = env.get("DISK_BASE") or "/var/tmp"
    shm = env.get("SHM_BASE") or "/dev/shm"
    model = ""
    try:
        with open("/proc/cpuinfo") as f:
            model = next((ln.split(":", 1)[1].strip() for ln in f if ln.startswith("model name")), "")
        with open("/proc/meminfo") as f:
            kb = next(int(ln.split()[1]) for ln in f if ln.startswith("MemTotal"))
    except (OSError, StopIteration):
        kb = 0
    return [
        f"cpu: {os.cpu_count()} x {model}",
        f"memory: {kb / 1048576:.1f} GiB",
        f"kernel: {os.uname().release}",
        f"java: {sh('java -version 2>&1 | head -1')}",
        f"disk (DISK_BASE={disk}): {sh(f'df -hT {shlex.quote(disk)} | awk ' + shlex.quote('NR == 2 {print $1, $2}'))}",
        f"tmpfs (SHM_BASE={shm}): "
        f"{sh(f'df -hT {shlex.quote(shm)} | awk ' + shlex.quote('NR == 2 {print $1, $2, $3}'))}",
    ]


def commit_info(root):
    c = sh(f"git -C {shlex.quote(root)} rev-parse --short HEAD") or "unknown"
    dirty = subprocess.run(["git", "-C", root, "diff", "--quiet"], capture_output=True).returncode != 0
    return c + (" (uncommitted changes)" if dirty else "")


def segment_info(env, root, now=None):
    t = time.gmtime(now if now is not None else time.time())
    with open("/proc/loadavg") as f:
        load = " ".join(f.read().split()[:3])
    return ([f"started: {time.strftime('%Y-%m-%d %H:%M:%S UTC', t)}", f"commit: {commit_info(root)}"]
            + machine_info(env) + [f"load average at start: {load}", "parameters:"]
            + ["  " + p for p in parameters_listing(env)])


def run_info_block(profile, workloads, segment, info_lines):
    """run-info.txt's text for a run (segment 1) or a segment block appended to it."""
    head = f"suite: {profile}; workloads: {' '.join(workloads)}" if segment == 1 else \
        f"segment {segment}: {profile}; workloads: {' '.join(workloads)}"
    if segment == 1:
        return "\n".join([head] + info_lines) + "\n"
    return "\n" + "\n".join([head] + ["  " + ln for ln in info_lines]) + "\n"


def finished_line(t0, segment, now=None):
    now = now if now is not None else time.time()
    el = int(now - t0)
    fin = f"finished: {time.strftime('%Y-%m-%d %H:%M:%S UTC', time.gmtime(now))}, {el // 60} min {el % 60} s"
    return fin if segment == 1 else "  " + fin


def checks_lines(results_dir, since, segment):
    """The Hadoop 3.5.0 checks of this run or segment (bench_nnthroughput.checks_summary) for run-info.txt."""
    lines = bench_nnthroughput.checks_summary(os.path.join(results_dir, bench_results.LOGS, "nnthroughput"), since)
    if not lines:
        return []
    out = ["hadoop 3.5.0 checks (LockCheckedNNThroughput, per measurement; edit logging at 3.5.0's default):"]
    out += ["  " + ln for ln in lines]
    return ["  " + ln for ln in out] if segment > 1 else out


def describe(cmd, delta, suite_dir=HERE, root=ROOT):
    """A step's command line as one would type it."""
    parts = [f"{k}={shlex.quote(v)}" for k, v in delta.items()]
    return " ".join(parts + [os.path.relpath(c, root) if c.startswith(root) else c for c in cmd])


def plan_text(profile, workloads, env, results, segment, suite_dir=HERE, root=ROOT):
    """--dry-run's output."""
    out = [f"plan: profile {profile}; workloads: {' '.join(workloads)}",
           f"results: {results} (segment {segment})", "parameters:"]
    out += ["  " + p for p in parameters_listing(env)]
    st = steps(profile, workloads, env, suite_dir)
    for i, (w, cmd, delta) in enumerate(st, 1):
        out.append(f"[{i}/{len(st)}] {w}: {describe(cmd, delta, suite_dir, root)}")
        if w == "nnthroughput":
            s = bench_nnthroughput.settings(apply(env, delta))
            for j, (run, t, op, cfg) in enumerate(bench_nnthroughput.plan(s), 1):
                rt = bench_configs.RUNTIMES[bench_configs.CONFIGS[cfg]["runtime"]]
                lib = os.path.join(root, rt["lib"]) if rt.get("lib") else f"${rt['lib_env']}"
                cmd_line = " ".join(bench_nnthroughput.command(cfg, op, t, s, "WORK", lib, root))
                out.append(f"    {j} run {run} threads {t} {op} {cfg}: {cmd_line}")
    out += ["then: bench_ratios.py (ratios.csv, targets.csv, report.txt), charts.sh (charts/), "
            "the latest pointer, run-info.txt's finished line"]
    return "\n".join(out)


def point_latest(base, stamp):
    """benchmarks/results/latest -> stamp (replaced at once; a real file or directory is left alone)."""
    latest = os.path.join(base, bench_results.LATEST)
    if os.path.exists(latest) and not os.path.islink(latest):
        return
    tmp = latest + ".new"
    if os.path.lexists(tmp):
        os.remove(tmp)
    os.symlink(stamp, tmp)
    os.replace(tmp, latest)


def parse_args(argv):
    p = argparse.ArgumentParser(prog="bench.sh", description="the side-by-side benchmark suite",
                                epilog="profiles: " + "; ".join(f"{k}: {v['description']}"
                                                               for k, v in bench_profiles.PROFILES.items()))
    p.add_argument("profile", metavar="PROFILE", help=" | ".join(bench_profiles.PROFILES))
    p.add_argument("--into", metavar="RESULTS_DIR", help="add a segment to an earlier run's directory")
    p.add_argument("--dry-run", action="store_true", help="print the plan and run nothing")
    p.add_argument("workloads", metavar="WORKLOAD", nargs="*", help=" | ".join(WORKLOADS))
    a = p.parse_intermixed_args(argv)
    if a.profile not in bench_profiles.PROFILES:
        p.error(f"unknown profile {a.profile}; expected one of: {' '.join(bench_profiles.PROFILES)}")
    return a


def run(argv, environ, root=ROOT, suite_dir=HERE, charts=True, now=time.time):
    """The driver; returns the exit status."""
    a = parse_args(argv)
    try:
        params = resolve(a.profile, environ)
        env = environment(params, environ)
        workloads = a.workloads or bench_profiles.PROFILES[a.profile]["workloads"]
        validate(a.profile, workloads, env)
        into = into_dir(a.into, a.profile) if a.into else None
    except UsageError as e:
        print(e, file=sys.stderr)
        return 2
    base = bench_results.results_base(root)
    t0 = now()
    if into:
        results, stamp = into, os.path.basename(into)
        with open(os.path.join(into, bench_results.RUN_INFO)) as f:
            segment = segment_number(f.read())
    else:
        stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(t0))
        results, segment = os.path.join(base, stamp), 1
    if a.dry_run:
        print(plan_text(a.profile, workloads, env, results, segment, suite_dir, root))
        return 0
    cfgs = {c for w, _, d in steps(a.profile, workloads, env, suite_dir)
            for c in ((apply(env, d).get("CONFIGS") or "").split() or configs_of(w, apply(env, d)))}
    if not os.path.isdir(os.path.join(root, "nvm-dist", "target", "lib")):
        print("no runtime in nvm-dist/target/lib: run 'make bench-build' first", file=sys.stderr)
        return 1
    for c in sorted(cfgs & set(bench_configs.H35_CONFIGS)):
        rt = bench_configs.RUNTIMES[bench_configs.CONFIGS[c]["runtime"]]
        if not all(os.path.exists(os.path.join(root, rt[k])) for k in ("lib", "jar")):
            print(f"{c} needs Hadoop 3.5.0's runtime in {rt['lib']}: run 'make bench-build' first", file=sys.stderr)
            return 1
    env.update(RESULTS=results, SUITE=a.profile, BENCH_T0=str(int(t0)))
    bench_results.ensure(results)
    info = segment_info(env, root, t0)
    block = run_info_block(a.profile, workloads, segment, info)
    # gathered before the append: run-info.txt is tracked, and git would see it being written
    with open(os.path.join(results, bench_results.RUN_INFO), "w" if segment == 1 else "a") as f:
        f.write(block)
    print(block, end="", flush=True)

    st = steps(a.profile, workloads, env, suite_dir)
    for i, (w, cmd, delta) in enumerate(st, 1):
        print(f"\n== [{i}/{len(st)}] {w} ({time.strftime('%H:%M:%S')})", flush=True)
        rc = subprocess.run(cmd, env=apply(env, delta)).returncode
        if rc != 0:
            print(f"workload {w} exited {rc}", flush=True)

    print("\n== ratios, targets, charts", flush=True)
    with open(os.path.join(results, bench_results.REPORT), "w") as f:
        subprocess.run([sys.executable, os.path.join(HERE, "bench_ratios.py"), results], stdout=f)
    if charts and subprocess.run([os.path.join(HERE, "charts.sh"), results]).returncode != 0:
        print("charts not drawn (see above)")
    point_latest(base, stamp)
    tail = checks_lines(results, t0, segment) + [finished_line(t0, segment, now())]
    with open(os.path.join(results, bench_results.RUN_INFO), "a") as f:
        f.write("\n".join(tail) + "\n")
    print("\n".join(tail))
    with open(os.path.join(results, bench_results.REPORT)) as f:
        report = f.read()
    m = re.search(r"^targets:", report, re.M)
    if m:
        print("\n" + report[m.start():], end="")
    failures = os.path.join(results, bench_results.FAILURES)
    failed = os.path.isfile(failures) and os.path.getsize(failures) > 0
    if failed:
        with open(failures) as f:
            lines = f.read()
        print(f"\nFAILED measurements ({len(lines.splitlines())}): {failures}\n{lines}", end="")
    print(f"\nresults: {results} (benchmarks/results/latest)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(run(sys.argv[1:], dict(os.environ)))
