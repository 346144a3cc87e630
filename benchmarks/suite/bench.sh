#!/usr/bin/env bash
# The side-by-side benchmark suite (docs/benchmarks.md).
#   bench.sh quick|full|targets|nnthroughput|heap-attrs|ha [WORKLOAD...]
# Profiles: quick (a subset that finishes in under 6 minutes, build included, on the project's 2-core machine),
# full (everything, hours), targets (what every performance target of docs/benchmarks.md is
# judged on: the write and read ops at 2 and 8 threads, restart at 100k and 1M files; about an
# hour on a quiet 2-core machine), nnthroughput (the NNThroughputBenchmark part alone, 100k ops, what
# `make nnthroughput` ran before the suite), heap-attrs (heap per file with and without an ACL and
# two xattrs, 500k files, 2 runs: `make bench-heap-attrs`), ha (the HA configurations of
# NNBenchWithoutMR and streaming against stock-disk, stock-tmpfs and nvm-emulated, and the HA
# timings: failover, standby restart, active restart; 20-30 minutes: `make bench-ha`). WORKLOADs:
# nnthroughput nnbench-nomr nnbench-mr recovery heap heap-attrs streaming ha-timings (default: all
# that the profile has). Every parameter of a workload can
# be overridden from the environment (see the top of each wl-*.sh).
# Writes benchmarks/results/<timestamp>/: results.csv, ratios.csv, targets.csv, report.txt,
# run-info.txt, charts/*.png, logs/; points benchmarks/results/latest at it.
#   bench.sh PROFILE --into DIR [WORKLOAD...] adds a segment to an earlier run's directory instead:
# its rows are appended to DIR/results.csv, run-info.txt gets a segment block (commit, time, load,
# parameters), and ratios, targets and charts are recomputed over all of DIR's rows. A full run
# takes longer than one sitting, so it is recorded as segments, one or more whole workloads each
# (docs/benchmarks.md, "Segments").
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
PROFILE=${1:-}
usage="usage: $0 quick|full|targets|nnthroughput|heap-attrs|ha [--into RESULTS_DIR] [workload...]"
case $PROFILE in quick | full | targets | nnthroughput | heap-attrs | ha) shift ;; *) echo "$usage" >&2; exit 2 ;; esac
INTO=
if [ "${1:-}" = --into ]; then
  [ -n "${2:-}" ] || { echo "$usage" >&2; exit 2; }
  INTO=$(cd "$2" 2>/dev/null && pwd) && [ -s "$INTO/results.csv" ] && [ -s "$INTO/run-info.txt" ] \
    || { echo "--into $2: not a results directory (no results.csv and run-info.txt)" >&2; exit 2; }
  grep -q "^suite: $PROFILE;" "$INTO/run-info.txt" \
    || { echo "--into $2: a run of another profile ($(sed -n 's/^suite: \([a-z]*\);.*/\1/p' "$INTO/run-info.txt" | head -1)), not $PROFILE" >&2; exit 2; }
  shift 2
fi
ALL="nnthroughput nnbench-nomr nnbench-mr recovery heap heap-attrs streaming ha-timings"
HA_CFGS="stock-ha-disk stock-ha-tmpfs nvm-ha-disk nvm-ha-tmpfs"

# profile defaults (an environment variable of the same name wins)
d() { local name=$1; shift; [ -n "${!name:-}" ] || export "$name=$*"; }
case $PROFILE in
  quick)
    d NNT_N 100000; d NNT_THREADS 8; d NNT_OPS "create open"; d NNT_RUNS 2
    d NNT_CONFIGS "stock-disk stock-tmpfs stock-nojournal nvm-emulated"
    d NOMR_SIZES 1000; d NOMR_RUNS 1; d NOMR_CONFIGS "stock-disk nvm-emulated nvm-msync"
    d MR_FILES 1000; d MR_MAPS 4; d MR_RUNS 1; d MR_CONFIGS "stock-disk nvm-emulated"
    d REC_SIZES 10000; d REC_RUNS 1; d REC_CONFIGS "stock-disk nvm-emulated"
    d HEAP_N 100000; d HEAP_RUNS 1
    d HEAP_ATTRS_N 100000; d HEAP_ATTRS_RUNS 1
    d STREAM_THREADS 16; d STREAM_BYTES 256; d STREAM_SECONDS 8; d STREAM_WARMUP 3; d STREAM_RUNS 1
    d STREAM_CONFIGS "stock-disk nvm-emulated"
    d HAT_FILES 10000; d HAT_RUNS 1; d HAT_CONFIGS "stock-ha-disk nvm-ha-disk"
    # heap-attrs and ha-timings run in quick only when named (bench.sh quick ha-timings): the quick
    # run's time
    ALL="nnthroughput nnbench-nomr nnbench-mr recovery heap streaming" ;;
  full)
    d NNT_N 1000000; d NNT_THREADS "2 8"; d NNT_OPS "create mkdirs open delete fileStatus rename blockReport"
    d NNT_RUNS 3; d NNT_CONFIGS "stock-disk stock-tmpfs stock-nojournal nvm-emulated nvm-cold"
    # nvm-msync persists with one msync per flushed range (~140 creates/s here): a smaller series
    d NNT_MSYNC_N 10000
    d NOMR_SIZES "1000 5000 10000 50000 100000 500000"; d NOMR_RUNS 3; d NOMR_MSYNC_MAX 10000
    # an HA pair's single client runs at a few hundred files/s here: its series stops at 100k
    d NOMR_HA_MAX 100000
    d NOMR_CONFIGS "stock-disk stock-tmpfs stock-nojournal nvm-emulated nvm-msync $HA_CFGS"
    d MR_FILES "10000 50000"; d MR_MAPS "2 8 16"; d MR_RUNS 3; d MR_MSYNC_MAX 10000
    d MR_CONFIGS "stock-disk stock-tmpfs stock-nojournal nvm-emulated nvm-msync"
    d REC_SIZES "100000 1000000 10000000"; d REC_RUNS 3; d REC_CONFIGS "stock-disk nvm-emulated"
    d HEAP_N 1000000; d HEAP_RUNS 2
    d HEAP_ATTRS_N 1000000; d HEAP_ATTRS_RUNS 2
    d STREAM_THREADS "16 64"; d STREAM_BYTES "256 1024"; d STREAM_SECONDS 30; d STREAM_WARMUP 5; d STREAM_RUNS 3
    d STREAM_CONFIGS "stock-disk stock-tmpfs stock-nojournal nvm-emulated nvm-msync $HA_CFGS"
    d HAT_FILES 100000; d HAT_RUNS 3; d HAT_CONFIGS "$HA_CFGS" ;;
  targets)
    d NNT_N 100000; d NNT_THREADS "2 8"; d NNT_OPS "create mkdirs rename delete open fileStatus"; d NNT_RUNS 3
    d NNT_CONFIGS "stock-disk stock-tmpfs stock-nojournal nvm-emulated"
    d REC_SIZES "100000 1000000"; d REC_RUNS 3; d REC_CONFIGS "stock-disk nvm-emulated"
    ALL="nnthroughput recovery" ;;
  nnthroughput)
    d NNT_N 100000; d NNT_THREADS 2; d NNT_OPS "create mkdirs rename delete open fileStatus"; d NNT_RUNS 3
    d NNT_CONFIGS "stock-disk stock-tmpfs stock-nojournal nvm-emulated"
    ALL="nnthroughput" ;;
  heap-attrs)
    d HEAP_ATTRS_N 500000; d HEAP_ATTRS_RUNS 2
    ALL="heap-attrs" ;;
  ha)
    # the HA configurations beside the non-HA ones they are compared with (HA's cost), interleaved
    d NOMR_SIZES 5000; d NOMR_RUNS 2
    d NOMR_CONFIGS "stock-disk stock-tmpfs nvm-emulated $HA_CFGS"
    d STREAM_THREADS 16; d STREAM_BYTES 256; d STREAM_SECONDS 8; d STREAM_WARMUP 3; d STREAM_RUNS 2
    d STREAM_CONFIGS "stock-disk stock-tmpfs nvm-emulated $HA_CFGS"
    d HAT_FILES 50000; d HAT_RUNS 3; d HAT_CONFIGS "stock-ha-disk nvm-ha-disk"
    ALL="nnbench-nomr streaming ha-timings" ;;
esac
WORKLOADS=${*:-$ALL}
ALL_WORKLOADS="nnthroughput nnbench-nomr nnbench-mr recovery heap heap-attrs streaming ha-timings"
for w in $WORKLOADS; do
  case " $ALL_WORKLOADS " in *" $w "*) ;; *) echo "unknown workload $w" >&2; exit 2 ;; esac
done

[ -d "$ROOT/nvm-dist/target/lib" ] || { echo "no runtime in nvm-dist/target/lib: run 'make bench-build' first" >&2; exit 1; }
if [ -n "$INTO" ]; then
  STAMP=$(basename "$INTO")
  export RESULTS=$INTO
  SEGMENT=$(( $(grep -c '^segment [0-9]*:' "$RESULTS/run-info.txt" || true) + 2 ))
else
  STAMP=$(date +%Y%m%d-%H%M%S)
  export RESULTS="$ROOT/benchmarks/results/$STAMP"
  mkdir -p "$RESULTS/logs"
  echo "suite,workload,op,threads,size,config,run,value,unit" > "$RESULTS/results.csv"
  SEGMENT=1
fi
export SUITE=$PROFILE BENCH_T0=$(date +%s)
mkdir -p "$RESULTS/logs"

# the machine, in every segment's block: a segment may run on another boot or VM than the first
machine_info() {
  echo "cpu: $(nproc) x $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1)"
  echo "memory: $(awk '/MemTotal/ {printf "%.1f GiB", $2 / 1048576}' /proc/meminfo)"
  echo "kernel: $(uname -r)"
  echo "java: $(java -version 2>&1 | head -1)"
  echo "disk (DISK_BASE=${DISK_BASE:-/var/tmp}): $(df -hT "${DISK_BASE:-/var/tmp}" | awk 'NR == 2 {print $1, $2}')"
  echo "tmpfs (SHM_BASE=${SHM_BASE:-/dev/shm}): $(df -hT "${SHM_BASE:-/dev/shm}" | awk 'NR == 2 {print $1, $2, $3}')"
}
segment_info() {
  echo "started: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
  echo "commit: $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)$(git -C "$ROOT" diff --quiet 2>/dev/null || echo ' (uncommitted changes)')"
  machine_info
  echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "parameters:"
  env | grep -E '^(NNT|NOMR|MR|REC|HEAP|STREAM|HAT)_' | sort | sed 's/^/  /'
}
if [ "$SEGMENT" = 1 ]; then
  {
    echo "suite: $PROFILE; workloads: $WORKLOADS"
    segment_info
  } > "$RESULTS/run-info.txt"
  cat "$RESULTS/run-info.txt"
else
  # gathered before the append: run-info.txt is tracked, and git would see it being written
  info=$(segment_info | sed 's/^/  /')
  { echo; echo "segment $SEGMENT: $PROFILE; workloads: $WORKLOADS"; echo "$info"; } | tee -a "$RESULTS/run-info.txt"
fi

i=0; n=$(wc -w <<<"$WORKLOADS")
for w in $WORKLOADS; do
  i=$((i + 1))
  echo; echo "== [$i/$n] $w ($(date +%H:%M:%S))"
  case $w in
    nnthroughput)
      CONFIGS=$NNT_CONFIGS "$HERE/wl-nnthroughput.sh" || echo "workload $w exited $?"
      # the same ops (an empty NNT_OPS would mean all of them to wl-nnthroughput.sh)
      if [ -n "${NNT_MSYNC_N:-}" ]; then
        echo "-- nvm-msync series: $NNT_MSYNC_N operations, against stock-disk at the same size"
        NNT_N=$NNT_MSYNC_N CONFIGS="stock-disk nvm-msync" \
          "$HERE/wl-nnthroughput.sh" || echo "workload $w (msync series) exited $?"
      fi ;;
    nnbench-nomr) CONFIGS=$NOMR_CONFIGS "$HERE/wl-nnbench-nomr.sh" || echo "workload $w exited $?" ;;
    nnbench-mr) CONFIGS=$MR_CONFIGS "$HERE/wl-nnbench-mr.sh" || echo "workload $w exited $?" ;;
    recovery) "$HERE/wl-recovery.sh" || echo "workload $w exited $?" ;;
    heap) "$HERE/wl-heap.sh" || echo "workload $w exited $?" ;;
    # the heap workload with files that have an ACL and two xattrs, at its own size
    heap-attrs) HEAP_KIND=attrs HEAP_N=${HEAP_ATTRS_N:-100000} HEAP_RUNS=${HEAP_ATTRS_RUNS:-1} "$HERE/wl-heap.sh" \
      || echo "workload $w exited $?" ;;
    streaming) CONFIGS=$STREAM_CONFIGS "$HERE/wl-streaming.sh" || echo "workload $w exited $?" ;;
    ha-timings) "$HERE/wl-ha-timings.sh" || echo "workload $w exited $?" ;;
  esac
done

echo; echo "== ratios, targets, charts"
python3 "$HERE/bench_ratios.py" "$RESULTS" > "$RESULTS/report.txt" || true
"$HERE/charts.sh" "$RESULTS" || echo "charts not drawn (see above)"
ln -sfn "$STAMP" "$ROOT/benchmarks/results/latest"
el=$(( $(date +%s) - BENCH_T0 ))
fin="finished: $(date -u '+%Y-%m-%d %H:%M:%S UTC'), $((el / 60)) min $((el % 60)) s"
if [ "$SEGMENT" = 1 ]; then echo "$fin"; else echo "  $fin"; fi | tee -a "$RESULTS/run-info.txt"
echo
sed -n '/^targets:/,$p' "$RESULTS/report.txt"
if [ -s "$RESULTS/failures.txt" ]; then
  echo; echo "FAILED measurements ($(wc -l < "$RESULTS/failures.txt")): $RESULTS/failures.txt"; cat "$RESULTS/failures.txt"
fi
echo; echo "results: $RESULTS (benchmarks/results/latest)"
[ ! -s "$RESULTS/failures.txt" ]
