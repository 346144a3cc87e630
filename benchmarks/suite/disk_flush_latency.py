#!/usr/bin/env python3
"""The disk's flush latency: the physical limit under every disk-mode target (docs/benchmarks.md,
"The disk mode's limits").

Appends records of SIZE bytes to a preallocated file in DIR (zeros written and synced first, as
the disk mode's log and stock's edit log are preallocated), one `pwrite` and one `fdatasync` per
record, COUNT times, after WARMUP unmeasured ones. Prints the latency quantiles of the pair and the
CPU time the process spent per sync (user + system: what a commit's sync costs the machine's
CPUs besides its wait). Python's own cost per call is a few microseconds, so the numbers are an
upper bound of what a C caller would see by that much.

    disk_flush_latency.py [--dir /var/tmp] [--count 5000] [--size 512 ...]
"""
import argparse
import os
import resource
import tempfile
import time

PREALLOC = 64 << 20


def measure(directory, size, count, warmup):
    fd, path = tempfile.mkstemp(prefix="flush-latency-", dir=directory)
    try:
        zeros = bytes(1 << 20)
        for _ in range(PREALLOC >> 20):
            os.write(fd, zeros)
        os.fsync(fd)
        record = b"x" * size
        pos = 0
        lat = []
        cpu0 = None
        t0 = None
        for i in range(warmup + count):
            if i == warmup:
                ru = resource.getrusage(resource.RUSAGE_SELF)
                cpu0 = ru.ru_utime + ru.ru_stime
                t0 = time.monotonic()
            a = time.monotonic_ns()
            os.pwrite(fd, record, pos)
            os.fdatasync(fd)
            if i >= warmup:
                lat.append(time.monotonic_ns() - a)
            pos = (pos + size) % (PREALLOC - size)
        wall = time.monotonic() - t0
        ru = resource.getrusage(resource.RUSAGE_SELF)
        cpu = ru.ru_utime + ru.ru_stime - cpu0
    finally:
        os.close(fd)
        os.unlink(path)
    lat.sort()

    def q(p):
        return lat[min(len(lat) - 1, int(p * len(lat)))] / 1e3

    return {
        "size": size,
        "syncs_per_s": count / wall,
        "p50_us": q(0.50),
        "p90_us": q(0.90),
        "p99_us": q(0.99),
        "mean_us": sum(lat) / len(lat) / 1e3,
        "cpu_us_per_sync": cpu / count * 1e6,
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dir", default=os.environ.get("DISK_BASE", "/var/tmp"))
    ap.add_argument("--count", type=int, default=5000)
    ap.add_argument("--warmup", type=int, default=200)
    ap.add_argument("--size", type=int, nargs="+", default=[512, 4096])
    args = ap.parse_args()
    print(f"pwrite + fdatasync in {args.dir}, {args.count} per size after {args.warmup} unmeasured")
    for size in args.size:
        r = measure(args.dir, size, args.count, args.warmup)
        print(
            f"size {r['size']:6d} B: {r['syncs_per_s']:8.0f} syncs/s, latency p50 {r['p50_us']:.1f} us, "
            f"p90 {r['p90_us']:.1f}, p99 {r['p99_us']:.1f}, mean {r['mean_us']:.1f}; "
            f"CPU {r['cpu_us_per_sync']:.1f} us per sync"
        )


if __name__ == "__main__":
    main()
