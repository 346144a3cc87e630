#!/usr/bin/env bash
# Workload: the unmodified NNBenchWithoutMR (hadoop-mapreduce-client-jobclient-2.7.3-tests.jar),
# one single-threaded client doing createWrite through real RPC against a NameNode and a DataNode
# running as processes on loopback (seed Fig. 7). A fresh cluster per configuration and run; the
# sizes run in it one after another, each in its own base directory.
# Files get NOMR_BYTES bytes (default 0: -blocksPerFile 1 -bytesPerBlock 0, a create and a close
# of an empty file, "file size almost zero"). With 1 byte, 2.7.3's client sleeps 400 ms whenever
# complete() reaches the NameNode before the DataNode's block report, which the NameNode queues
# for a background thread (docs/benchmarks.md); that sleep then dominates every configuration.
# Elapsed time runs from the benchmark's own -startTime barrier (the client JVM is up and waiting)
# to the client's exit. An HA configuration (bench-ha-lib.sh) runs the same client against its pair
# through hdfs://ha.
#   NOMR_SIZES, NOMR_RUNS, CONFIGS, NOMR_BYTES, NOMR_HA_MAX (larger sizes skipped for the HA
#   configurations; default: none skipped)
set -euo pipefail
source "$(dirname "$0")/bench-lib.sh"
require_dist
SIZES=${NOMR_SIZES:-"1000 5000 10000"}
RUNS=${NOMR_RUNS:-3}
CONFIGS=${CONFIGS:-$ALL_CONFIGS}
BYTES=${NOMR_BYTES:-0}
HA_MAX=${NOMR_HA_MAX:-}
LEAD=${NOMR_LEAD_SECONDS:-4}
check_configs "$CONFIGS"
max=0; for s in $SIZES; do [ "$s" -gt "$max" ] && max=$s; done
REGION_GB=$(( max / 2000000 + 1 ))
NN_PID= DN_PID=
trap 'cluster_down' EXIT

# sizes_for CFG — the sizes CFG runs (an HA configuration stops at NOMR_HA_MAX), one per line.
sizes_for() {
  local s
  for s in $SIZES; do
    is_ha_config "$1" && [ -n "$HA_MAX" ] && [ "$s" -gt "$HA_MAX" ] && continue
    echo "$s"
  done
}

# bench_size CFG RUN SIZE LOGDIR — one NNBenchWithoutMR run in the running cluster.
bench_size() {
  local cfg=$1 run=$2 n=$3 conf=$CLUSTER_CONF start out first end el
  start=$(( $(date +%s) + LEAD ))
  out="$4/nomr-$n.out"
  # each output line gets the time it was read, to check the JVM was waiting before -startTime
  [ "$n" -lt 100000 ] || ticker_start "$conf" "/nomr/n$n" "nnbench-nomr n=$n $cfg run $run"
  hclient "$conf" org.apache.hadoop.hdfs.NNBenchWithoutMR -operation createWrite -baseDir "/nomr/n$n" \
    -startTime "$start" -numFiles "$n" -blocksPerFile 1 -bytesPerBlock "$BYTES" -bytesPerChecksum 1 \
    | while IFS= read -r l; do printf '%s %s\n' "$(date +%s.%3N)" "$l"; done > "$out"
  end=$(now_s)
  ticker_stop
  keep_log "$out" nnbench-nomr "n$n-$cfg-run$run.out"
  grep -q "The job recorded 0 exceptions" "$out" || { echo "NNBenchWithoutMR $cfg n=$n reported exceptions or failed: $out" >&2; return 1; }
  first=$(head -1 "$out" | cut -d' ' -f1)
  if python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) > float(sys.argv[2]) else 1)" "$first" "$start"; then
    echo "warning: the NNBenchWithoutMR JVM started after -startTime ($cfg n=$n); raise NOMR_LEAD_SECONDS" >&2
  fi
  el=$(elapsed_s "$start" "$end")
  record nnbench-nomr createWrite-elapsed 1 "$n" "$cfg" "$run" "$el" s
  record nnbench-nomr createWrite 1 "$n" "$cfg" "$run" "$(python3 -c "print('%.1f' % ($n / float('$el')))")" files/s
  LAST_VALUE="$el s"
}

total=0
for c in $CONFIGS; do total=$((total + RUNS * $(sizes_for "$c" | wc -l))); done
step=0
for run in $(seq 1 "$RUNS"); do
  for cfg in $CONFIGS; do
    mine=$(sizes_for "$cfg")
    [ -n "$mine" ] || continue   # no cluster for a configuration with no size left
    work=$(bench_work)
    if ! cluster_up "$cfg" "$work" "$REGION_GB"; then
      for s in $mine; do step=$((step + 1)); echo "nnbench-nomr,$cfg,$s,$run" >> "$RESULTS/failures.txt"; done
      progress "$step" "$total" "nnbench-nomr $cfg run $run: cluster did not start"
      keep_cluster_logs nnbench-nomr "$cfg-run$run"
      cluster_down; bench_clean "$work"; continue
    fi
    for n in $mine; do
      step=$((step + 1))
      if bench_size "$cfg" "$run" "$n" "$work"; then
        progress "$step" "$total" "nnbench-nomr createWrite n=$n $cfg run $run: $LAST_VALUE"
      else
        progress "$step" "$total" "nnbench-nomr createWrite n=$n $cfg run $run: FAILED"
        echo "nnbench-nomr,$cfg,$n,$run" >> "$RESULTS/failures.txt"
      fi
    done
    cluster_down
    keep_cluster_logs nnbench-nomr "$cfg-run$run"
    bench_clean "$work"
  done
done
