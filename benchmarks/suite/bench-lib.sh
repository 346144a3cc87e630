#!/usr/bin/env bash
# Shared by the benchmark suite's workload scripts: the configurations, the results directory
# (results.csv rows, raw logs) and progress lines. Source it after `set -euo pipefail`.
#
# The configurations are a table, bench_configs.py (docs/benchmarks.md, "The configurations"):
# the 2.7.3 ones use the same jar and differ only in configuration (hdfs-site.xml and, for the
# emulated region, PMEM_IS_PMEM_FORCE=1 in the environment); nvm-baseline runs another build's
# runtime (NVM_BASELINE_LIB); the HA ones are pairs of processes (bench-ha-lib.sh); the h35-*
# ones run Apache Hadoop 3.5.0 (benchmarks/hadoop35), NNThroughputBenchmark only.
#   bench_configs.py names        every configuration
#   bench_configs.py shell CFG    what bench_conf below reads of one
source "$(dirname "${BASH_SOURCE[0]}")/../../scripts/cluster-lib.sh"
BENCH_CONFIGS="python3 $(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/bench_configs.py"
source "$(dirname "${BASH_SOURCE[0]}")/bench-ha-lib.sh"

# the configurations a workload runs when CONFIGS is not set (the 2.7.3 single-NameNode ones but
# nvm-baseline); the others are run only when named
ALL_CONFIGS=$($BENCH_CONFIGS names --default)
KNOWN_CONFIGS=$($BENCH_CONFIGS names)
DISK_BASE=${DISK_BASE:-/var/tmp}
SHM_BASE=${SHM_BASE:-/dev/shm}
SUITE=${SUITE:-adhoc}
# RESULTS: the run's results directory (bench.sh sets it); a workload run alone gets its own.
RESULTS=${RESULTS:-$NVM_ROOT/benchmarks/results/$(date +%Y%m%d-%H%M%S)-adhoc}
mkdir -p "$RESULTS/logs"
[ -s "$RESULTS/results.csv" ] || echo "suite,workload,op,threads,size,config,run,value,unit" > "$RESULTS/results.csv"

# valid_config NAME — exit status 0 for one of the configuration names.
valid_config() { case " $KNOWN_CONFIGS " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }

# check_configs "CFG..." [WORKLOAD] — exits 2 unless every CFG exists and runs WORKLOAD (default:
# the workload script's own name, wl-WORKLOAD.sh).
check_configs() {
  local wl=${2:-$(basename "$0" .sh)}
  wl=${wl#wl-}
  # shellcheck disable=SC2086
  $BENCH_CONFIGS check "$wl" $1 || exit 2
}

# config_vars CFG — the table's description of CFG (bench_configs.py shell) as CFG_* variables.
config_vars() {
  local vars
  vars=$($BENCH_CONFIGS shell "$1") || return 2
  eval "$vars"
}

# bench_conf CFG WORK REGION_GB — a fresh configuration for CFG in WORK/conf (NameNode on loopback,
# DataNode data dir on the local disk), from the configuration table. Sets CFG_ENV_FORCE
# (PMEM_IS_PMEM_FORCE value), CFG_REGION (region file or empty), CFG_TMP (directories to remove
# afterwards, besides WORK), CFG_LIB (the runtime class path directory: NVM_LIB, NVM_BASELINE_LIB
# for nvm-baseline, Hadoop 3.5.0's for h35-*) and the other CFG_* of config_vars.
# WORK must be on the local disk; tmpfs parts go to a sibling directory under $SHM_BASE.
bench_conf() {
  local cfg=$1 work=$2 gb=${3:-1} shm name i
  config_vars "$cfg" || return 2
  case $CFG_RUNTIME_LIB_ENV in
    "") CFG_LIB=$NVM_ROOT/$CFG_RUNTIME_LIB ;;
    *) CFG_LIB=${!CFG_RUNTIME_LIB_ENV:-} ;;
  esac
  [ -d "$CFG_LIB" ] || {
    case $CFG_RUNTIME_LIB_ENV in
      "") echo "$cfg needs $CFG_LIB: run 'make bench-build' first" >&2 ;;
      *) echo "$cfg needs $CFG_RUNTIME_LIB_ENV (another build's nvm-dist/target/lib)" >&2 ;;
    esac
    return 2
  }
  shm=$(mktemp -d "$SHM_BASE/nvmbench.XXXXXX")
  CFG_TMP=$shm CFG_REGION=""
  case $CFG_NAME_ON in disk) name="$work/name" ;; tmpfs) name="$shm/name" ;; esac
  case $CFG_REGION_ON in disk) CFG_REGION="$work/namespace.region" ;; tmpfs) CFG_REGION="$shm/namespace.region" ;; esac
  write_conf "$work/conf" "$name" "$work/data" "$CFG_NVM" "$CFG_REGION"
  local site="$work/conf/hdfs-site.xml"
  conf_put "$site" dfs.namenode.nvm.region.size "${gb}g"
  for ((i = 0; i < ${#CFG_CONF[@]}; i += 2)); do conf_put "$site" "${CFG_CONF[i]}" "${CFG_CONF[i + 1]}"; done
  # a restart leaves safe mode as soon as the block threshold is met (no 30 s extension)
  conf_put "$site" dfs.namenode.safemode.extension 0
  mkdir -p "$work/conf/tmp/dfs/hosts" && touch "$work/conf/tmp/dfs/hosts/include" "$work/conf/tmp/dfs/hosts/exclude"
}

# bench_clean WORK — removes a measurement's work directory and its tmpfs sibling.
bench_clean() { rm -rf "$1" ${CFG_TMP:+"$CFG_TMP"}; }

# bench_work — a new work directory on the local disk.
bench_work() { mktemp -d "$DISK_BASE/nvmbench.XXXXXX"; }

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

# nn_format_cached CFG CONF — formats CONF's name directory with CFG's runtime (CFG_LIB, set by
# bench_conf), or copies the name directory formatted for CFG earlier in this run (a format is a
# JVM start of its own; the copy is the same fresh namespace: fsimage of txid 0, VERSION,
# seen_txid). FORMAT_CACHE may come from the environment (bench_nnthroughput.py: one cache for
# a measurement process each).
FORMAT_CACHE=${FORMAT_CACHE:-}
nn_format_cached() {
  local cfg=$1 conf=$2 name
  name=$(conf_get "$conf/hdfs-site.xml" dfs.namenode.name.dir); name=${name#file://}
  if [ -z "$FORMAT_CACHE" ]; then FORMAT_CACHE=$(mktemp -d "$DISK_BASE/nvmbench-format.XXXXXX"); fi
  if [ -d "$FORMAT_CACHE/$cfg" ]; then
    mkdir -p "$name" && cp -a "$FORMAT_CACHE/$cfg/." "$name/"
  else
    NVM_LIB=${CFG_LIB:-$NVM_LIB} nn_format "$conf" || { echo "format failed: $conf/format.log" >&2; return 1; }
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
