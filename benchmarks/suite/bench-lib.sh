#!/usr/bin/env bash
# Shared by the benchmark suite's workload scripts: the seven configurations, the results
# directory (results.csv rows, raw logs) and progress lines. Source it after `set -euo pipefail`.
#
# The configurations use the same jar and differ only in configuration (hdfs-site.xml and, for
# the emulated region, PMEM_IS_PMEM_FORCE=1 in the environment):
#   stock-disk       stock NameNode; name dir (fsimage + edits) on the local disk: edits fsync'd
#   stock-tmpfs      stock NameNode; name dir on tmpfs
#   stock-nojournal  stock NameNode; the only journal is NullJournalManager (persists nothing)
#   nvm-emulated     NVM NameNode; region on tmpfs, persist.mode=emulated, PMEM_IS_PMEM_FORCE=1
#   nvm-msync        NVM NameNode; region on the local disk, persist.mode=msync
#   nvm-cold         nvm-emulated with a 1,000-file inode cache: reads of a larger working set
#                    miss the cache and materialize files from their pages (docs/slim-namespace.md)
#   nvm-warm         nvm-emulated with a 4,000,000-file inode cache: every file of a 1M-file
#                    benchmark stays cached (the "cache warm" case of the read target)
#   nvm-baseline     nvm-emulated run with ANOTHER build's runtime (NVM_BASELINE_LIB: its
#                    nvm-dist/target/lib), to measure a code change side by side in one run;
#                    NNThroughputBenchmark only (docs/benchmarks.md, "Page checksums")
#   stock-ha-disk, stock-ha-tmpfs, nvm-ha-disk, nvm-ha-tmpfs
#                    an HA pair of processes (bench-ha-lib.sh); the cluster workloads only
#                    (NNBenchWithoutMR, streaming) and ha-timings
source "$(dirname "${BASH_SOURCE[0]}")/../../scripts/cluster-lib.sh"
source "$(dirname "${BASH_SOURCE[0]}")/bench-ha-lib.sh"

ALL_CONFIGS="stock-disk stock-tmpfs stock-nojournal nvm-emulated nvm-msync nvm-cold nvm-warm"
# nvm-baseline is run only when named in CONFIGS (it needs NVM_BASELINE_LIB); the HA
# configurations too (a cluster of nine processes per measurement)
KNOWN_CONFIGS="$ALL_CONFIGS nvm-baseline $HA_CONFIGS"
DISK_BASE=${DISK_BASE:-/var/tmp}
SHM_BASE=${SHM_BASE:-/dev/shm}
SUITE=${SUITE:-adhoc}
# RESULTS: the run's results directory (bench.sh sets it); a workload run alone gets its own.
RESULTS=${RESULTS:-$NVM_ROOT/benchmarks/results/$(date +%Y%m%d-%H%M%S)-adhoc}
mkdir -p "$RESULTS/logs"
[ -s "$RESULTS/results.csv" ] || echo "suite,workload,op,threads,size,config,run,value,unit" > "$RESULTS/results.csv"

# valid_config NAME — exit status 0 for one of the configuration names.
valid_config() { case " $KNOWN_CONFIGS " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }

check_configs() {
  local c
  for c in $1; do
    valid_config "$c" || { echo "unknown configuration '$c'; expected some of: $KNOWN_CONFIGS" >&2; exit 2; }
  done
}

# bench_conf CFG WORK REGION_GB — a fresh configuration for CFG in WORK/conf (NameNode on loopback,
# DataNode data dir on the local disk). Sets CFG_ENV_FORCE (PMEM_IS_PMEM_FORCE value),
# CFG_REGION (region file or empty), CFG_TMP (directories to remove afterwards, besides WORK) and
# CFG_LIB (the runtime class path directory: NVM_LIB, or NVM_BASELINE_LIB for nvm-baseline).
# WORK must be on the local disk; tmpfs parts go to a sibling directory under $SHM_BASE.
bench_conf() {
  local cfg=$1 work=$2 gb=${3:-1} shm name nvm=false
  shm=$(mktemp -d "$SHM_BASE/nvmbench.XXXXXX")
  CFG_TMP=$shm CFG_REGION="" CFG_ENV_FORCE=1 CFG_LIB=$NVM_LIB
  case $cfg in
    nvm-baseline)
      [ -d "${NVM_BASELINE_LIB:-}" ] || { echo "nvm-baseline needs NVM_BASELINE_LIB (another build's nvm-dist/target/lib)" >&2; return 2; }
      CFG_LIB=$NVM_BASELINE_LIB name="$work/name"; nvm=true; CFG_REGION="$shm/namespace.region" ;;
    stock-disk) name="$work/name" ;;
    stock-tmpfs | stock-nojournal) name="$shm/name" ;;
    nvm-emulated | nvm-cold | nvm-warm) name="$work/name"; nvm=true; CFG_REGION="$shm/namespace.region" ;;
    nvm-msync) name="$work/name"; nvm=true; CFG_REGION="$work/namespace.region"; CFG_ENV_FORCE=0 ;;
    *) echo "unknown configuration $cfg" >&2; return 2 ;;
  esac
  write_conf "$work/conf" "$name" "$work/data" "$nvm" "$CFG_REGION"
  local site="$work/conf/hdfs-site.xml"
  conf_put "$site" dfs.namenode.nvm.region.size "${gb}g"
  case $cfg in
    nvm-emulated | nvm-baseline) conf_put "$site" dfs.namenode.nvm.persist.mode emulated ;;
    nvm-cold)
      conf_put "$site" dfs.namenode.nvm.persist.mode emulated
      conf_put "$site" dfs.namenode.nvm.cache.inodes 1000 ;;
    nvm-warm)
      conf_put "$site" dfs.namenode.nvm.persist.mode emulated
      conf_put "$site" dfs.namenode.nvm.cache.inodes 4000000 ;;
    nvm-msync) conf_put "$site" dfs.namenode.nvm.persist.mode msync ;;
    stock-nojournal)
      # the stock journal-plugin mechanism: a URI scheme mapped to a JournalManager class
      conf_put "$site" dfs.namenode.edits.dir "nvmnull:/namespace"
      conf_put "$site" dfs.namenode.edits.journal-plugin.nvmnull \
        org.apache.hadoop.hdfs.server.namenode.NullJournalManager ;;
  esac
  # a restart leaves safe mode as soon as the block threshold is met (no 30 s extension)
  conf_put "$site" dfs.namenode.safemode.extension 0
  mkdir -p "$work/conf/tmp/dfs/hosts" && touch "$work/conf/tmp/dfs/hosts/include" "$work/conf/tmp/dfs/hosts/exclude"
}

# bench_clean WORK — removes a measurement's work directory and its tmpfs sibling.
bench_clean() { rm -rf "$1" ${CFG_TMP:+"$CFG_TMP"}; }

# bench_work — a new work directory on the local disk.
bench_work() { mktemp -d "$DISK_BASE/nvmbench.XXXXXX"; }

# msync_skipped CFG SIZE MAX — status 0 when CFG is nvm-msync and SIZE is above MAX: the msync
# mode persists with one msync per flushed range (~140 creates/s here), so its series stay small.
msync_skipped() { [ "$1" = nvm-msync ] && [ "$2" -gt "$3" ]; }

# record WORKLOAD OP THREADS SIZE CONFIG RUN VALUE UNIT — one row of results.csv.
record() {
  [ -n "$7" ] || { echo "record: empty value for $*" >&2; return 1; }
  echo "$SUITE,$1,$2,$3,$4,$5,$6,$7,$8" >> "$RESULTS/results.csv"
}

# keep_log SRC WORKLOAD NAME — copies a raw log into the results directory.
keep_log() {
  local dir="$RESULTS/logs/$2"
  mkdir -p "$dir"
  [ -f "$1" ] && cp "$1" "$dir/$3" || true
}

BENCH_T0=${BENCH_T0:-$(date +%s)}
# progress STEP TOTAL TEXT — one line per measurement with the suite's elapsed time.
progress() {
  local el=$(( $(date +%s) - BENCH_T0 ))
  printf '[%02d:%02d:%02d] [%s/%s] %s\n' $((el / 3600)) $((el % 3600 / 60)) $((el % 60)) "$1" "$2" "$3"
}

# now_s — seconds since the epoch with millisecond resolution.
now_s() { date +%s.%3N; }
elapsed_s() { python3 -c "import sys; print('%.2f' % (float(sys.argv[2]) - float(sys.argv[1])))" "$1" "$2"; }

# cluster_up CFG WORK REGION_GB — formats and starts a NameNode and a DataNode as processes on
# loopback for CFG (bench_conf) and waits until the NameNode answers, has left safe mode and has
# the DataNode registered. Sets NN_PID, DN_PID, and CLUSTER_CONF: the conf dir clients use. NN_HEAP_OPT
# sets the NameNode's -Xmx (default 4g). An HA configuration starts its pair instead (ha_bench_up).
CLUSTER_CONF=
cluster_up() {
  local cfg=$1 work=$2 gb=${3:-1} out
  if is_ha_config "$cfg"; then ha_bench_up "$cfg" "$work" "$gb"; return; fi
  CLUSTER_CONF=$work/conf
  bench_conf "$cfg" "$work" "$gb"
  nn_format "$work/conf" || { echo "format failed: $work/conf/format.log" >&2; return 1; }
  HJAVA_HEAP=${NN_HEAP_OPT:--Xmx4g} PMEM_FORCE=$CFG_ENV_FORCE nn_start "$work/conf"
  dn_start "$work/conf"
  out=$(hclient "$work/conf" org.nvmnn.workload.ReadyProbe --pid "$NN_PID" --datanodes 1 --timeout-seconds 120 || true)
  grep -q '^safemode-off' <<<"$out" || { echo "cluster for $cfg did not come up: $out (logs in $work/conf/logs)" >&2; return 1; }
  check_mode "$cfg" "$work/conf/logs/namenode.log"
}

# check_mode CFG NAMENODE_LOG — fails if the NameNode's mode (NVM or stock) is not CFG's.
check_mode() {
  case $1 in
    nvm-*) grep -q "NVM namesystem loaded" "$2" || { echo "$1: the NameNode did not start in NVM mode ($2)" >&2; return 1; } ;;
    *) if grep -q "NVM namesystem loaded" "$2"; then echo "$1: the NameNode started in NVM mode ($2)" >&2; return 1; fi ;;
  esac
}

# check_namesystem CFG OUT PREFIX — fails if the "PREFIX namenode CLASS" line an in-process
# driver (HeapFill, NamespaceBuild) printed to OUT names the wrong kind of namesystem for CFG.
check_namesystem() {
  local nvm=false
  grep -q "^$3 namenode .*Nvm" "$2" && nvm=true
  case $1 in
    nvm-*) [ "$nvm" = true ] || { echo "$1: not an NVM namesystem ($2)" >&2; return 1; } ;;
    *) [ "$nvm" = false ] || { echo "$1: an NVM namesystem ($2)" >&2; return 1; } ;;
  esac
}

# cluster_down — stops the DataNode and the NameNode started by cluster_up (an HA pair: every
# process of it).
cluster_down() {
  if [ ${#HA_STARTED[@]} -gt 0 ]; then ha_bench_down; else stop_pid "${DN_PID:-}"; stop_pid "${NN_PID:-}"; fi
  DN_PID= NN_PID=
}

# keep_cluster_logs WORKLOAD PREFIX — the NameNode's log (an HA pair: its NameNodes', ZKFCs' and a
# JournalNode's) into the results directory as PREFIX-*.log; call before cluster_down's bench_clean.
keep_cluster_logs() {
  if [ -n "${HA_WORK:-}" ] && [ "$CLUSTER_CONF" = "$HA_WORK/conf/client" ]; then ha_keep_logs "$1" "$2"
  else keep_log "$CLUSTER_CONF/logs/namenode.log" "$1" "$2-namenode.log"; fi
}

# nn_format_cached CFG CONF — formats CONF's name directory, or copies the name directory
# formatted for CFG earlier in this run (a format is a JVM start of its own; the copy is the
# same fresh namespace: fsimage of txid 0, VERSION, seen_txid).
FORMAT_CACHE=
nn_format_cached() {
  local cfg=$1 conf=$2 name
  name=$(conf_get "$conf/hdfs-site.xml" dfs.namenode.name.dir); name=${name#file://}
  if [ -z "$FORMAT_CACHE" ]; then FORMAT_CACHE=$(mktemp -d "$DISK_BASE/nvmbench-format.XXXXXX"); fi
  if [ -d "$FORMAT_CACHE/$cfg" ]; then
    mkdir -p "$name" && cp -a "$FORMAT_CACHE/$cfg/." "$name/"
  else
    nn_format "$conf" || { echo "format failed: $conf/format.log" >&2; return 1; }
    mkdir -p "$FORMAT_CACHE/$cfg" && cp -a "$name/." "$FORMAT_CACHE/$cfg/"
  fi
}
format_cache_clean() { [ -z "$FORMAT_CACHE" ] || rm -rf "$FORMAT_CACHE"; }

# nnbench_clients CONF N P BASE OUT LABEL — P NNBenchWithoutMR clients in parallel create N empty
# files in all (client i its share, n*i/p - n*(i-1)/p, under BASE/c<i>), started together at their
# -startTime; their output concatenated into OUT. Status 0 if every client recorded 0 exceptions.
nnbench_clients() {
  local conf=$1 n=$2 p=$3 base=$4 out=$5 label=$6 start i failed=0 pids=()
  start=$(( $(date +%s) + ${NOMR_LEAD_SECONDS:-4} ))
  for i in $(seq 1 "$p"); do
    hclient "$conf" org.apache.hadoop.hdfs.NNBenchWithoutMR -operation createWrite -baseDir "$base/c$i" \
      -startTime "$start" -numFiles $(( n * i / p - n * (i - 1) / p )) -blocksPerFile 1 -bytesPerBlock 0 \
      -bytesPerChecksum 1 > "$out.$i" 2>&1 &
    pids+=($!)
  done
  ticker_start "$conf" "$base" "$label"
  for i in "${!pids[@]}"; do wait "${pids[$i]}" || failed=1; done
  ticker_stop
  cat "$out".* > "$out" && rm -f "$out".*
  [ "$failed" = 0 ] && [ "$(grep -c 'The job recorded 0 exceptions' "$out")" = "$p" ]
}

# ticker_start CONF PATH LABEL — while a long client runs, prints every TICK_SECONDS (60) how
# many files PATH holds (one FsShell JVM per tick). ticker_stop ends it.
TICKER_PID=
ticker_start() {
  local conf=$1 path=$2 label=$3
  (
    while sleep "${TICK_SECONDS:-60}"; do
      c=$(hdfs_dfs "$conf" -count "$path" 2>/dev/null | awk '{print $2}')
      progress "." "." "$label: ${c:-?} files so far"
    done
  ) &
  TICKER_PID=$!
}
ticker_stop() { [ -z "$TICKER_PID" ] || { kill "$TICKER_PID" 2>/dev/null; wait "$TICKER_PID" 2>/dev/null || true; TICKER_PID=; }; }
