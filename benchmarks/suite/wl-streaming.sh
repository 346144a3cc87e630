#!/usr/bin/env bash
# Workload: small-file streaming writes, standing in for the seed's Storm/HiBench case (Fig. 12).
# A NameNode and a DataNode as processes; StreamingWorkload (workloads module) runs STREAM_THREADS
# clients, each with its own DistributedFileSystem: create, write STREAM_BYTES bytes, close,
# rename, delete the file of --keep cycles before. Records files/s over the measured window and,
# per NameNode RPC (create, addBlock, complete, rename, delete) and per whole cycle ("file"),
# the p50 / p90 / p99 / p99.9 / mean latency in ms as the client saw it. An HA configuration
# (bench-ha-lib.sh) runs the same clients against its pair through hdfs://ha.
#   STREAM_THREADS, STREAM_BYTES, STREAM_SECONDS, STREAM_WARMUP, STREAM_RUNS, CONFIGS
set -euo pipefail
source "$(dirname "$0")/bench-lib.sh"
require_dist
THREADS_LIST=${STREAM_THREADS:-"16"}
BYTES_LIST=${STREAM_BYTES:-"256"}
SECONDS_=${STREAM_SECONDS:-20}
WARMUP=${STREAM_WARMUP:-5}
RUNS=${STREAM_RUNS:-3}
CONFIGS=${CONFIGS:-$ALL_CONFIGS}
check_configs "$CONFIGS"
NN_PID= DN_PID=
trap 'cluster_down' EXIT

# one CFG THREADS BYTES RUN — a fresh cluster, one timed window.
one() {
  local cfg=$1 t=$2 b=$3 run=$4 work out rc=0 name="t$2-b$3-$1-run$4"
  work=$(bench_work)
  cluster_up "$cfg" "$work" 1 || { keep_cluster_logs streaming "$name"; cluster_down; bench_clean "$work"; return 1; }
  out="$work/stream.out"
  hclient "$CLUSTER_CONF" org.nvmnn.workload.stream.StreamingWorkload --threads "$t" --bytes "$b" \
    --seconds "$SECONDS_" --warmup-seconds "$WARMUP" > "$out" || rc=$?
  cluster_down
  keep_log "$out" streaming "$name.out"
  keep_log "$CLUSTER_CONF/logs/client.log" streaming "$name-client.log"
  keep_cluster_logs streaming "$name"
  if [ "$rc" != 0 ]; then
    echo "FAILED: streaming $name (rc $rc): $RESULTS/logs/streaming/$name.out" >&2; tail -3 "$out" >&2; bench_clean "$work"; return 1
  fi
  record streaming files "$t" "$b" "$cfg" "$run" "$(awk '$1 == "files" {print $6}' "$out")" files/s
  local op q
  for op in create addBlock complete rename delete file; do
    grep -q "^op $op " "$out" || continue
    for q in p50 p90 p99 p999 mean; do
      record streaming "$op-$q" "$t" "$b" "$cfg" "$run" "$(awk -v o="$op" -v k="${q}_ms" '$1 == "op" && $2 == o { for (i = 3; i < NF; i++) if ($i == k) print $(i + 1) }' "$out")" ms
    done
  done
  record streaming complete-false-share "$t" "$b" "$cfg" "$run" \
    "$(awk '$1 == "op" && $2 == "complete" {c = $4} $1 == "op" && $2 == "complete-false" {f = $4} END {printf "%.4f", (c ? f / c : 0)}' "$out")" fraction
  LAST_VALUE="$(awk '$1 == "files" {print $6}' "$out") files/s, create p50 $(awk '$1 == "op" && $2 == "create" {print $6}' "$out") ms, p99 $(awk '$1 == "op" && $2 == "create" {print $10}' "$out") ms"
  bench_clean "$work"
}

total=$(( RUNS * $(wc -w <<<"$THREADS_LIST") * $(wc -w <<<"$BYTES_LIST") * $(wc -w <<<"$CONFIGS") ))
step=0
for run in $(seq 1 "$RUNS"); do
  for t in $THREADS_LIST; do
    for b in $BYTES_LIST; do
      for cfg in $CONFIGS; do
        step=$((step + 1))
        if one "$cfg" "$t" "$b" "$run"; then
          progress "$step" "$total" "streaming threads=$t bytes=$b $cfg run $run: $LAST_VALUE"
        else
          progress "$step" "$total" "streaming threads=$t bytes=$b $cfg run $run: FAILED"
          echo "streaming,$cfg,$t,$b,$run" >> "$RESULTS/failures.txt"
        fi
      done
    done
  done
done
