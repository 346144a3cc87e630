#!/usr/bin/env bash
# Workload: the unmodified NNThroughputBenchmark from hadoop-hdfs-2.7.3-tests.jar. In 2.7.3 it
# builds its NameNode in process (NameNode.createNameNode), so the drop-in jar routes it through
# our hooks; each measurement is a fresh JVM on a freshly formatted name directory / region.
# Interleaved: for each run, for each thread count, for each op, every configuration in turn.
#   NNT_OPS, NNT_THREADS, NNT_N (operations; for blockReport: N/10 blocks per report),
#   NNT_RUNS, CONFIGS, NNT_HEAP, NNT_BR_REPORTS, NNT_BR_BLOCKS_PER_FILE
# blockReport runs with one block per file by default: 2.7.3's NNThroughputBenchmark sends its
# received-block reports through the NameNode's asynchronous queue and then calls addBlock for
# the file's next block at once, which fails with NotReplicatedYetException whenever the queue has
# not caught up (every configuration, stock included, fails within a few files here). With one
# block per file no addBlock commits a previous block (docs/benchmarks.md, "blockReport, one
# block per file").
set -euo pipefail
source "$(dirname "$0")/bench-lib.sh"
require_dist
OPS=${NNT_OPS:-"create mkdirs open delete fileStatus rename blockReport"}
THREADS_LIST=${NNT_THREADS:-"2 8"}
N=${NNT_N:-100000}
RUNS=${NNT_RUNS:-3}
CONFIGS=${CONFIGS:-$ALL_CONFIGS}
HEAP=${NNT_HEAP:-4g}
check_configs "$CONFIGS"
BR_REPORTS=${NNT_BR_REPORTS:-100}
BR_BLOCKS_PER_FILE=${NNT_BR_BLOCKS_PER_FILE:-1}
# region: ~4M inodes per GiB
REGION_GB=$(( N / 2000000 + 1 ))

# size column: operations, or blocks per report for blockReport
size_of() { if [ "$1" = blockReport ]; then echo $(( N / 10 )); else echo "$N"; fi; }

# one CFG OP THREADS RUN — one measurement; records ops/s.
one() {
  local cfg=$1 op=$2 t=$3 run=$4 work log args=(-op "$2")
  work=$(bench_work)
  bench_conf "$cfg" "$work" "$REGION_GB"
  nn_format_cached "$cfg" "$work/conf"
  case $op in
    mkdirs) args+=(-threads "$t" -dirs "$N" -dirsPerDir 1000) ;;
    create) args+=(-threads "$t" -files "$N" -filesPerDir 1000 -close) ;;
    blockReport) args+=(-datanodes "$t" -reports "$BR_REPORTS" -blocksPerReport "$(size_of blockReport)" -blocksPerFile "$BR_BLOCKS_PER_FILE") ;;
    *) args+=(-threads "$t" -files "$N" -filesPerDir 1000) ;;
  esac
  log="$work/bench.log"
  # the size is in the kept log's name: the nvm-msync series reruns stock-disk at its own size
  local kept="$op-t$t-n$(size_of "$op")-$cfg-run$run.log" rc=0
  PMEM_IS_PMEM_FORCE=$CFG_ENV_FORCE java -Xms$HEAP -Xmx$HEAP -XX:+UseParallelGC \
    -Dhadoop.tmp.dir="$work/conf/tmp" -Djava.net.preferIPv4Stack=true -cp "$work/conf:$CFG_LIB/*" \
    org.apache.hadoop.hdfs.server.namenode.NNThroughputBenchmark -fs "hdfs://127.0.0.1:0" \
    -D hadoop.tmp.dir="$work/conf/tmp" "${args[@]}" > "$log" 2>&1 || rc=$?
  keep_log "$log" nnthroughput "$kept"
  local v
  v=$(grep -m1 "Ops per sec:" "$log" | awk '{print $NF}' || true)
  if [ "$rc" != 0 ] || [ -z "$v" ]; then
    echo "FAILED: nnthroughput $op t=$t $cfg run $run (log: $RESULTS/logs/nnthroughput/$kept)" >&2
    tail -5 "$log" >&2; bench_clean "$work"; return 1
  fi
  check_mode "$cfg" "$log" || { bench_clean "$work"; return 1; }
  record nnthroughput "$op" "$t" "$(size_of "$op")" "$cfg" "$run" "$v" ops/s
  LAST_VALUE=$v
  bench_clean "$work"
}

trap format_cache_clean EXIT
total=0
for _ in $(seq 1 "$RUNS"); do for _ in $THREADS_LIST; do for _ in $OPS; do for _ in $CONFIGS; do total=$((total + 1)); done; done; done; done
step=0
for run in $(seq 1 "$RUNS"); do
  for t in $THREADS_LIST; do
    for op in $OPS; do
      for cfg in $CONFIGS; do
        step=$((step + 1))
        if one "$cfg" "$op" "$t" "$run"; then
          progress "$step" "$total" "nnthroughput $op threads=$t n=$(size_of "$op") $cfg run $run: $LAST_VALUE ops/s"
        else
          progress "$step" "$total" "nnthroughput $op threads=$t $cfg run $run: FAILED"
          echo "$op,$t,$cfg,$run" >> "$RESULTS/failures.txt"
        fi
      done
    done
  done
done
