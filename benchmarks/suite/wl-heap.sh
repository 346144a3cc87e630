#!/usr/bin/env bash
# Workload: NameNode heap per file. Per configuration, one JVM runs HeapFill (workloads module):
# it starts the NameNode in process (as NNThroughputBenchmark does; the drop-in jar's hooks pick
# stock or NVM from the configuration), calls it directly (no RPC layer, so no retry-cache
# entries), and takes its own live-heap class histogram (jcmd, after a full GC) empty, after N
# empty files and after N more one-block files (a DatanodeProtocol-only fake DataNode "stores"
# the blocks), all closed. The driver keeps no per-file state. Records bytes per file; the
# per-class deltas are in the raw log. The journal medium does not change the heap, so the
# stock side is measured once (stock-tmpfs).
# The NVM inode cache is a fixed-size cost, not a per-file one: it is sized at a tenth of N
# (the NameNode's default, 100,000, at the full run's 1M). A cache as large as N would be full of
# the phase-1 files, so bytes per empty file would count a whole cached inode each, and phase 2,
# evicting them, would make "block bytes per file" negative.
#   HEAP_N (files per phase), HEAP_RUNS, HEAP_CONFIGS, HEAP_NN_HEAP, HEAP_THREADS,
#   HEAP_NVM_CACHE (dfs.namenode.nvm.cache.inodes of nvm-emulated and nvm-msync; default N / 10)
set -euo pipefail
source "$(dirname "$0")/bench-lib.sh"
require_dist
N=${HEAP_N:-100000}
RUNS=${HEAP_RUNS:-1}
CONFIGS=${HEAP_CONFIGS:-"stock-tmpfs nvm-emulated"}
NN_HEAP=${HEAP_NN_HEAP:-6g}
THREADS=${HEAP_THREADS:-2}
NVM_CACHE=${HEAP_NVM_CACHE:-$(( N / 10 > 0 ? N / 10 : 1 ))}
check_configs "$CONFIGS"
REGION_GB=$(( 2 * N / 2000000 + 1 ))
command -v jcmd >/dev/null || { echo "jcmd (JDK) is required for the heap workload" >&2; exit 1; }

# one CFG RUN — records the heap rows for one configuration.
one() {
  local cfg=$1 run=$2 work out name="$1-run$2"
  work=$(bench_work)
  bench_conf "$cfg" "$work" "$REGION_GB"
  # the retry cache keeps every create's answer for 10 minutes: transient, not per-file state
  conf_put "$work/conf/hdfs-site.xml" dfs.namenode.enable.retrycache false
  case $cfg in nvm-emulated | nvm-msync) conf_put "$work/conf/hdfs-site.xml" dfs.namenode.nvm.cache.inodes "$NVM_CACHE" ;; esac
  nn_format "$work/conf"
  out="$work/heapfill.out"
  local rc=0
  PMEM_IS_PMEM_FORCE=$CFG_ENV_FORCE java -Xmx$NN_HEAP -XX:+UseParallelGC -Djava.net.preferIPv4Stack=true \
    -Dhadoop.log.dir="$work/conf/logs" -cp "$work/conf:$NVM_LIB/*" \
    org.nvmnn.workload.heap.HeapFill --files "$N" --threads "$THREADS" > "$out" 2> "$work/heapfill.log" || rc=$?
  keep_log "$out" heap "$name.out"
  keep_log "$work/heapfill.log" heap "$name.log"
  check_namesystem "$cfg" "$out" heap || rc=1
  if [ "$rc" != 0 ]; then
    echo "FAILED: heap $cfg run $run (rc $rc): $RESULTS/logs/heap/$name.out" >&2; tail -5 "$out" >&2
    bench_clean "$work"; return 1
  fi
  local key op
  for key in empty_per_file one_block_per_file namespace_per_file block_per_file; do
    op=${key//_/-}
    record heap "$op" "$THREADS" "$N" "$cfg" "$run" "$(awk -v k="$key" '$1 == "heap" && $2 == k {print $3}' "$out")" B/file
  done
  # heap vs files: live heap after every quarter of each phase (size = files so far, 0..2N)
  local f b
  while read -r f b; do
    record heap live-heap "$THREADS" "$f" "$cfg" "$run" "$(python3 -c "print('%.2f' % ($b / 1048576.0))")" MB
  done < <(awk '$1 == "heap" && $2 == "curve" {print $3, $4}' "$out")
  LAST_VALUE="namespace $(awk '$2 == "namespace_per_file" {print $3}' "$out") B/file, block $(awk '$2 == "block_per_file" {print $3}' "$out") B/file"
  bench_clean "$work"
}

echo "heap: N=$N files per phase, NVM inode cache $NVM_CACHE files"
total=$(( RUNS * $(wc -w <<<"$CONFIGS") ))
step=0
for run in $(seq 1 "$RUNS"); do
  for cfg in $CONFIGS; do
    step=$((step + 1))
    if one "$cfg" "$run"; then
      progress "$step" "$total" "heap n=$N $cfg run $run: $LAST_VALUE"
    else
      progress "$step" "$total" "heap n=$N $cfg run $run: FAILED"
      echo "heap,$cfg,$run" >> "$RESULTS/failures.txt"
    fi
  done
done
