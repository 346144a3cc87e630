#!/usr/bin/env bash
# Workload: the unmodified NNBench (hadoop-mapreduce-client-jobclient-2.7.3-tests.jar) with the
# local MapReduce runner (seed Fig. 8): the total number of files is kept and the number of maps
# varies; each map creates total/maps empty files (NNBench's default -bytesToWrite 0; block size
# 512 only to satisfy the client's checksum check, which rejects NNBench's default of 1) with
# create_write. The maps run as concurrent threads of the local runner
# (mapreduce.local.map.tasks.maximum = maps) against a NameNode and a DataNode as processes.
# Records NNBench's own TPS (create/write/close operations per second over the maps' span),
# its average create/write and close latencies, and its longest map time (the maps start together
# at NNBench's -startTime barrier, so this is the workload's elapsed time, as in the seed's figure).
#   MR_FILES (totals), MR_MAPS, MR_RUNS, CONFIGS
set -euo pipefail
source "$(dirname "$0")/bench-lib.sh"
require_dist
FILES_LIST=${MR_FILES:-"2000"}
MAPS_LIST=${MR_MAPS:-"2 8"}
RUNS=${MR_RUNS:-3}
CONFIGS=${CONFIGS:-$ALL_CONFIGS}
LEAD=${MR_LEAD_SECONDS:-10}
check_configs "$CONFIGS"
NN_PID= DN_PID=
trap 'cluster_down' EXIT

# mapred_site CONF MAPS — the local runner, MAPS map threads.
mapred_site() {
  cat > "$1/mapred-site.xml" <<XML
<?xml version="1.0"?>
<configuration>
  <property><name>mapreduce.framework.name</name><value>local</value></property>
  <property><name>mapreduce.local.map.tasks.maximum</name><value>$2</value></property>
  <property><name>mapreduce.jobtracker.staging.root.dir</name><value>/mr-staging</value></property>
  <!-- each map thread of the local runner allocates its sort buffer in the client JVM -->
  <property><name>mapreduce.task.io.sort.mb</name><value>8</value></property>
</configuration>
XML
}

# one CFG RUN FILES MAPS WORK — one NNBench job in the running cluster.
one() {
  local cfg=$1 run=$2 files=$3 maps=$4 work=$5 out t0 t1 rc=0 name="f$3-m$4-$1-run$2"
  mapred_site "$work/conf" "$maps"
  out="$work/$name.out"
  t0=$(now_s)
  (cd "$work" && hclient "$work/conf" org.apache.hadoop.hdfs.NNBench -operation create_write \
    -maps "$maps" -reduces 1 -numberOfFiles $(( files / maps )) -baseDir "/nnbench/$name" \
    -blockSize 512 -bytesPerChecksum 512 \
    -startTime $(( $(date +%s) + LEAD ))) > "$out" 2>&1 || rc=$?
  t1=$(now_s)
  [ -f "$work/NNBench_results.log" ] && cat "$work/NNBench_results.log" >> "$out" && rm -f "$work/NNBench_results.log"
  keep_log "$out" nnbench-mr "$name.out"
  keep_log "$work/conf/logs/client.log" nnbench-mr "$name-client.log"
  local tps lat close late span
  tps=$(sed -n 's/.*TPS: Create\/Write\/Close: \([0-9.]*\).*/\1/p' "$out" | tail -1)
  lat=$(sed -n 's/.*Avg Lat (ms): Create\/Write: \([0-9.]*\).*/\1/p' "$out" | tail -1)
  close=$(sed -n 's/.*Avg Lat (ms): Close: \([0-9.]*\).*/\1/p' "$out" | tail -1)
  late=$(sed -n 's/.*# maps that missed the barrier: \([0-9]*\).*/\1/p' "$out" | tail -1)
  span=$(sed -n 's/.*RAW DATA: Longest Map Time (ms): \([0-9.]*\).*/\1/p' "$out" | tail -1)
  if [ "$rc" != 0 ] || [ -z "$tps" ] || [ -z "$span" ]; then
    echo "FAILED: nnbench-mr $name (rc $rc): $RESULTS/logs/nnbench-mr/$name.out" >&2; tail -3 "$out" >&2; return 1
  fi
  [ "${late:-0}" = 0 ] || echo "warning: $late maps missed NNBench's start barrier ($name); raise MR_LEAD_SECONDS" >&2
  record nnbench-mr create_write-tps "$maps" "$files" "$cfg" "$run" "$tps" ops/s
  record nnbench-mr create_write-latency "$maps" "$files" "$cfg" "$run" "$lat" ms
  record nnbench-mr close-latency "$maps" "$files" "$cfg" "$run" "$close" ms
  span=$(python3 -c "print('%.3f' % (float('$span') / 1000))")
  record nnbench-mr elapsed "$maps" "$files" "$cfg" "$run" "$span" s
  LAST_VALUE="TPS $tps, create/write $lat ms, close $close ms, longest map $span s (job $(elapsed_s "$t0" "$t1") s)"
}

total=$(( RUNS * $(wc -w <<<"$CONFIGS") * $(wc -w <<<"$FILES_LIST") * $(wc -w <<<"$MAPS_LIST") ))
step=0
for run in $(seq 1 "$RUNS"); do
  for cfg in $CONFIGS; do
    work=$(bench_work)
    if ! cluster_up "$cfg" "$work" 1; then
      keep_log "$work/conf/logs/namenode.log" nnbench-mr "$cfg-run$run-namenode.log"
      cluster_down; bench_clean "$work"
      for f in $FILES_LIST; do for m in $MAPS_LIST; do step=$((step + 1)); echo "nnbench-mr,$cfg,$f,$m,$run" >> "$RESULTS/failures.txt"; done; done
      progress "$step" "$total" "nnbench-mr $cfg run $run: cluster did not start"; continue
    fi
    for f in $FILES_LIST; do
      for m in $MAPS_LIST; do
        step=$((step + 1))
        if one "$cfg" "$run" "$f" "$m" "$work"; then
          progress "$step" "$total" "nnbench-mr create_write files=$f maps=$m $cfg run $run: $LAST_VALUE"
        else
          progress "$step" "$total" "nnbench-mr create_write files=$f maps=$m $cfg run $run: FAILED"
          echo "nnbench-mr,$cfg,$f,$m,$run" >> "$RESULTS/failures.txt"
        fi
      done
    done
    cluster_down
    keep_log "$work/conf/logs/namenode.log" nnbench-mr "$cfg-run$run-namenode.log"
    bench_clean "$work"
  done
done
