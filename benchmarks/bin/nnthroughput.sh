#!/usr/bin/env bash
# Side-by-side NNThroughputBenchmark (the unmodified 2.7.3 class from the hdfs tests jar;
# it constructs `new NameNode(conf)`, so the drop-in jar routes it through our hooks).
# Configurations differ only in configuration, same jar:
#   stock-disk   stock NameNode, name + edits dir on the local disk (edits fsync'd)
#   stock-tmpfs  stock NameNode, name + edits dir on tmpfs
#   nvm          NVM NameNode, region on tmpfs (emulated persistence), name dir on disk
# Runs are interleaved (A B C, A B C, ...) on this noisy machine; reports the median
# ops/s per configuration and the ratio of medians, plus each run's ratio.
#   OPS="create mkdirs ..." RUNS=3 N=100000 THREADS=2 CONFIGS="stock-disk stock-tmpfs nvm"
set -euo pipefail
source "$(dirname "$0")/cluster-lib.sh"
require_dist
OPS=${OPS:-"create mkdirs rename delete open fileStatus"}
RUNS=${RUNS:-3}
N=${N:-100000}
THREADS=${THREADS:-2}
CONFIGS=${CONFIGS:-"stock-disk stock-tmpfs nvm"}
DISK_BASE=${DISK_BASE:-/var/tmp}
OUT=${OUT:-$NVM_ROOT/bench-results/nnthroughput-$(date +%Y%m%d-%H%M%S).tsv}
mkdir -p "$(dirname "$OUT")"
echo -e "run\top\tconfig\tops_per_sec" > "$OUT"

# one CONFIG OP -> prints ops/s
one() {
  local cfg=$1 op=$2 base name nvm=false region="" shm=""
  case $cfg in
    stock-disk) base=$(mktemp -d "$DISK_BASE/nnt.XXXXXX") ;;
    stock-tmpfs) base=$(mktemp -d /dev/shm/nnt.XXXXXX) ;;
    nvm) base=$(mktemp -d "$DISK_BASE/nnt.XXXXXX"); shm=$(mktemp -d /dev/shm/nnt-region.XXXXXX)
         nvm=true; region="$shm/namespace.region" ;;
  esac
  name="$base/name"
  write_conf "$base/conf" "$name" "$base/data" "$nvm" "$region"
  sed -i 's#<value>256m</value>#<value>1g</value>#' "$base/conf/hdfs-site.xml"
  mkdir -p "$base/conf/tmp/dfs/hosts" && touch "$base/conf/tmp/dfs/hosts/include" "$base/conf/tmp/dfs/hosts/exclude"
  nn_format "$base/conf"
  local args=(-op "$op" -threads "$THREADS")
  case $op in
    mkdirs) args+=(-dirs "$N" -dirsPerDir 1000) ;;
    create) args+=(-files "$N" -filesPerDir 1000 -close) ;;
    *) args+=(-files "$N" -filesPerDir 1000) ;;
  esac
  local log="$base/bench.log"
  PMEM_IS_PMEM_FORCE=1 java -Xms4g -Xmx4g -XX:+UseParallelGC -Dhadoop.tmp.dir="$base/conf/tmp" \
    -Djava.net.preferIPv4Stack=true -cp "$base/conf:$NVM_LIB/*" \
    org.apache.hadoop.hdfs.server.namenode.NNThroughputBenchmark -fs "hdfs://127.0.0.1:0" \
    -D hadoop.tmp.dir="$base/conf/tmp" "${args[@]}" > "$log" 2>&1 || { echo "FAILED $cfg $op: $log" >&2; tail -5 "$log" >&2; echo 0; return; }
  if [ "$nvm" = true ] && ! grep -q "NVM" "$log"; then echo "nvm run did not go through NVM mode: $log" >&2; fi
  grep -m1 "Ops per sec:" "$log" | awk '{print $NF}'
  rm -rf "$base" ${shm:+"$shm"}
}

for r in $(seq 1 "$RUNS"); do
  for op in $OPS; do
    for cfg in $CONFIGS; do
      v=$(one "$cfg" "$op")
      echo -e "$r\t$op\t$cfg\t$v" | tee -a "$OUT"
    done
  done
done
python3 "$(dirname "$0")/ratios.py" "$OUT"
