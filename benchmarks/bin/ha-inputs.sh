#!/usr/bin/env bash
# The machine-level inputs of docs/ha.md's cost estimate: loopback TCP round trips (what a
# synchronous hop to a standby or JournalNode costs at least) and append + fdatasync latency on the
# local disk (what a JournalNode pays per journal write). RUNS=n repeats each measurement.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
out=$(mktemp -d /tmp/ha-inputs.XXXXXX)
trap 'rm -rf "$out"' EXIT
gcc -O2 -o "$out/tcp_rtt" "$here/ha/tcp_rtt.c"
gcc -O2 -o "$out/fsync_latency" "$here/ha/fsync_latency.c"
RUNS=${RUNS:-3}
DISK_DIR=${DISK_DIR:-/var/tmp}
echo "machine: $(nproc) vCPU, $(uname -r), $(date -u +%Y-%m-%d)"
for r in $(seq 1 "$RUNS"); do
  echo "-- run $r"
  for size in 64 512 4096; do "$out/tcp_rtt" "$size" 20000; done
  "$out/fsync_latency" "$DISK_DIR" 512 2000
  "$out/fsync_latency" /dev/shm 512 2000
done
