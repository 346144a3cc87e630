"""The block device statistics of the disk that holds DISK_BASE, as NNThroughputBenchmark's
measurements record them per operation (bench_nnthroughput.py; docs/benchmarks.md,
"NNThroughputBenchmark"): write requests, KiB written and cache flush requests completed by the
device between two readings of /proc/diskstats.

The fields (Documentation/admin-guide/iostats.rst; Documentation/ABI/testing/procfs-diskstats):
after the major and minor numbers and the name, iostats field 5 is the writes completed and field
7 the sectors written, always in 512-byte units whatever the device's sector size; kernel 4.18
appended fields 12-15 (discards), kernel 5.5 fields 16-17: flush requests completed and the time
spent flushing. A line shorter than that has no flush count. The counters are the whole device's
(or partition's): every process's writes to it, and the kernel's write-back, count.
"""
import os
import re

DISKSTATS = "/proc/diskstats"
MOUNTINFO = "/proc/self/mountinfo"
SECTOR_BYTES = 512
# 0-based columns of a /proc/diskstats line: major, minor, name, then the iostats fields 1, 2, ...
COL_WRITES = 3 + 5 - 1
COL_SECTORS_WRITTEN = 3 + 7 - 1
COL_FLUSHES = 3 + 16 - 1
MIN_COLUMNS = 3 + 11
# the rows a measurement adds: op suffix, unit (counts per operation: lower is better, bench_ratios)
ROWS = (("disk-writes", "writes/op"), ("disk-KiB", "KiB/op"), ("disk-flushes", "flushes/op"))


def parse(text):
    """/proc/diskstats's text -> {(major, minor): {"name", "writes", "sectors_written", "flushes"}};
    "flushes" is None on a kernel that does not count them. Lines without the write fields (the
    short partition lines of 2.6 kernels) are left out."""
    out = {}
    for line in text.splitlines():
        f = line.split()
        if len(f) < MIN_COLUMNS:
            continue
        out[(int(f[0]), int(f[1]))] = {
            "name": f[2],
            "writes": int(f[COL_WRITES]),
            "sectors_written": int(f[COL_SECTORS_WRITTEN]),
            "flushes": int(f[COL_FLUSHES]) if len(f) > COL_FLUSHES else None,
        }
    return out


def unescape(field):
    """A mountinfo path field as the path it names (the kernel writes space, tab, newline and
    backslash as octal escapes: \\040 ...)."""
    return re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), field)


def mount_source(mountinfo, path):
    """The source (e.g. /dev/sda2) of the mount that holds the absolute, resolved path, from
    /proc/self/mountinfo's text; None if no mount holds it. The mount point nearest the path wins;
    of equal ones, the later (it is mounted over the earlier)."""
    best, best_len = None, -1
    for line in mountinfo.splitlines():
        f = line.split()
        if "-" not in f or len(f) < 5:
            continue
        point = unescape(f[4])
        inside = path == point or path.startswith(point.rstrip("/") + "/")
        if inside and len(point) >= best_len:
            after = f[f.index("-") + 1:]
            best, best_len = (after[1] if len(after) > 1 else None), len(point)
    return best


def device_of(path, stats, mountinfo=None, stat=os.stat):
    """(major, minor) of the block device in `stats` (parse's answer) that holds path, or None.
    The file system's device number (st_dev) names it, a partition's own when it is one; a file
    system whose st_dev is no block device (btrfs, and any with an anonymous device number) is
    found through its mount's source device instead (mountinfo: /proc/self/mountinfo's text)."""
    st = stat(path)
    dev = (os.major(st.st_dev), os.minor(st.st_dev))
    if dev in stats:
        return dev
    source = mount_source(mountinfo or "", os.path.realpath(path))
    if source and source.startswith("/dev/"):
        try:
            rdev = stat(source).st_rdev
        except OSError:
            return None
        dev = (os.major(rdev), os.minor(rdev))
        if dev in stats:
            return dev
    return None


def read_file(path):
    with open(path) as f:
        return f.read()


def find_device(path):
    """The device holding path, from this machine's /proc files: (major, minor, name) or None."""
    try:
        stats = parse(read_file(DISKSTATS))
        mountinfo = read_file(MOUNTINFO) if os.path.exists(MOUNTINFO) else ""
        dev = device_of(path, stats, mountinfo)
    except (OSError, ValueError):
        return None
    return dev + (stats[dev]["name"],) if dev else None


def sample(dev):
    """The device's counters now (parse's entry), or None if they cannot be read."""
    try:
        return parse(read_file(DISKSTATS)).get(tuple(dev[:2]))
    except (OSError, ValueError):
        return None


def per_op(before, after, ops):
    """The rows of one measurement: [(op suffix, value, unit)] from two samples of a device and the
    operation count between them: write requests, KiB written (sectors * 512 / 1024) and, when
    both samples have them, flush requests, each per operation, as text with 4 decimals. Empty if
    a sample is missing, ops is not positive or a counter went backwards (the device was reset)."""
    if not before or not after or ops <= 0:
        return []
    deltas = {"writes/op": after["writes"] - before["writes"],
              "KiB/op": (after["sectors_written"] - before["sectors_written"]) * SECTOR_BYTES / 1024}
    if before["flushes"] is not None and after["flushes"] is not None:
        deltas["flushes/op"] = after["flushes"] - before["flushes"]
    if min(deltas.values()) < 0:
        return []
    return [(suffix, f"{deltas[unit] / ops:.4f}", unit) for suffix, unit in ROWS if unit in deltas]
