#!/usr/bin/env python3
"""Tests of bench_diskstats.py: /proc/diskstats lines of each kernel format, the device that holds a
path (its own device number, or its mount's source), and the rows per operation. Run by `make test`."""
import os
import unittest

import bench_diskstats as ds

# a 5.5+ kernel: 17 iostats fields (flushes in field 16); a partition; an idle loop device
MODERN = """\
   7       0 loop0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0
 254       0 vda 138601 27124 6334130 70618 11883928 43255 91066416 499217 10 354032 718964 23963 25 127613936 3570 4790053 145558
   8       1 sda1 1200 10 50000 300 4000 500 80000 9000 0 7000 9300 0 0 0 0 77 12
"""
# 4.18-5.4: discards but no flushes; before 4.18: 11 fields; a 2.6 kernel's short partition line
OLDER = """\
   8       0 sda 5 6 7 8 100 2 800 9 0 10 11 12 13 14 15
   8      16 sdb 5 6 7 8 200 2 1600 9 0 10 11
   3       1 hda1 35486 38030 38030 38030
"""
MOUNTINFO = """\
22 1 0:21 / / rw,relatime shared:1 - btrfs /dev/sda2 rw,subvol=/root
35 22 0:33 / /nonexistent-home rw,relatime shared:2 - btrfs /dev/sda2 rw,subvol=/home
40 22 8:3 / /nonexistent-mnt/big\\040disk rw shared:3 - ext4 /dev/sda3 rw
41 22 0:40 / /dev/shm rw,nosuid,nodev shared:4 - tmpfs tmpfs rw
42 22 8:4 / /nonexistent-mnt/big\\040disk rw shared:5 - xfs /dev/sda4 rw
"""


def counters(writes, sectors, flushes):
    return {"name": "vda", "writes": writes, "sectors_written": sectors, "flushes": flushes}


class StatSeam:
    """os.stat's answers for made-up paths: st_dev of a file, st_rdev of a device node."""

    def __init__(self, devs):
        self.devs = devs

    def __call__(self, path):
        if path not in self.devs:
            raise FileNotFoundError(path)
        major, minor = self.devs[path]
        dev = os.makedev(major, minor)
        return type("St", (), {"st_dev": dev, "st_rdev": dev})()


class ParseTest(unittest.TestCase):

    def test_a_5_5_kernel_line_has_writes_sectors_and_flushes(self):
        stats = ds.parse(MODERN)
        self.assertEqual({"name": "vda", "writes": 11883928, "sectors_written": 91066416, "flushes": 4790053},
                         stats[(254, 0)])
        self.assertEqual((4000, 80000, 77), tuple(stats[(8, 1)][k] for k in ("writes", "sectors_written",
                                                                             "flushes")))
        self.assertEqual(0, stats[(7, 0)]["writes"])

    def test_older_kernels_count_no_flushes_and_short_partition_lines_are_left_out(self):
        stats = ds.parse(OLDER)
        self.assertEqual((100, 800, None), tuple(stats[(8, 0)][k] for k in ("writes", "sectors_written",
                                                                            "flushes")))
        self.assertEqual((200, 1600, None), tuple(stats[(8, 16)][k] for k in ("writes", "sectors_written",
                                                                             "flushes")))
        self.assertNotIn((3, 1), stats)


class DeviceTest(unittest.TestCase):

    def test_the_mount_nearest_the_path_gives_its_source(self):
        self.assertEqual("/dev/sda2", ds.mount_source(MOUNTINFO, "/var/tmp"))
        self.assertEqual("/dev/sda2", ds.mount_source(MOUNTINFO, "/nonexistent-home"))
        self.assertEqual("/dev/sda2", ds.mount_source(MOUNTINFO, "/nonexistent-home/u/x"))
        # a space in the mount point is written \040; the later of two mounts on one point wins
        self.assertEqual("/dev/sda4", ds.mount_source(MOUNTINFO, "/nonexistent-mnt/big disk/w"))
        # a name that only starts like a mount point is not inside it
        self.assertEqual("/dev/sda2", ds.mount_source(MOUNTINFO, "/nonexistent-mnt/big diskette"))
        self.assertEqual("tmpfs", ds.mount_source(MOUNTINFO, "/dev/shm/nvmbench.1"))
        self.assertIsNone(ds.mount_source("", "/var/tmp"))

    def test_a_file_systems_own_device_number_names_the_device_a_partition_its_own(self):
        stats = ds.parse(MODERN)
        seam = StatSeam({"/var/tmp": (254, 0), "/data": (8, 1)})
        self.assertEqual((254, 0), ds.device_of("/var/tmp", stats, MOUNTINFO, stat=seam))
        self.assertEqual((8, 1), ds.device_of("/data", stats, MOUNTINFO, stat=seam))

    def test_an_anonymous_device_number_is_found_through_the_mounts_source(self):
        # btrfs: st_dev 0:33, the mount's source /dev/sda2 is the block device 8:2
        stats = ds.parse(MODERN + "   8       2 sda2 1 2 3 4 5 6 7 8 0 9 10 0 0 0 0 11 12\n")
        seam = StatSeam({"/nonexistent-home/u": (0, 33), "/dev/sda2": (8, 2), "/dev/shm/x": (0, 40)})
        self.assertEqual((8, 2), ds.device_of("/nonexistent-home/u", stats, MOUNTINFO, stat=seam))
        # tmpfs has no block device
        self.assertIsNone(ds.device_of("/dev/shm/x", stats, MOUNTINFO, stat=seam))
        # nor has a source that is not in /proc/diskstats
        self.assertIsNone(ds.device_of("/nonexistent-home/u", ds.parse(MODERN), MOUNTINFO, stat=seam))

    def test_this_machines_own_files_parse(self):
        if not os.path.exists(ds.DISKSTATS):
            self.skipTest("no /proc/diskstats")
        dev = ds.find_device("/")
        if dev:
            self.assertIsNotNone(ds.sample(dev))


class PerOpTest(unittest.TestCase):

    def test_writes_kib_and_flushes_per_operation(self):
        before, after = counters(100, 1000, 10), counters(300, 9000, 110)
        # 8,000 sectors of 512 bytes: 4,000 KiB
        self.assertEqual([("disk-writes", "2.0000", "writes/op"), ("disk-KiB", "40.0000", "KiB/op"),
                          ("disk-flushes", "1.0000", "flushes/op")], ds.per_op(before, after, 100))
        self.assertEqual("0.6667", ds.per_op(before, after, 300)[0][1])

    def test_no_flush_row_without_flush_counts(self):
        rows = ds.per_op(counters(0, 0, None), counters(10, 80, None), 10)
        self.assertEqual(["writes/op", "KiB/op"], [u for _, _, u in rows])

    def test_no_rows_without_both_samples_operations_or_with_a_counter_gone_backwards(self):
        self.assertEqual([], ds.per_op(None, counters(1, 1, 1), 10))
        self.assertEqual([], ds.per_op(counters(1, 1, 1), None, 10))
        self.assertEqual([], ds.per_op(counters(1, 1, 1), counters(2, 2, 2), 0))
        self.assertEqual([], ds.per_op(counters(5, 1, 1), counters(2, 2, 2), 10))

    def test_an_idle_device_gives_zeros(self):
        self.assertEqual(["0.0000"] * 3, [v for _, v, _ in ds.per_op(counters(7, 7, 7), counters(7, 7, 7), 10)])


if __name__ == "__main__":
    unittest.main()
