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
# HEAP_KIND=attrs measures files with attributes instead of blocks (workload "heap-attrs" in
# results.csv; bench.sh's heap-attrs). Per configuration and run, two JVMs: one with N empty files
# (as the first phase above: empty-per-file), one with N empty files that each get, once closed,
# the ACL entries user:alice:r--,group:eng:r-x (the same on every file) and the xattrs user.a (16
# bytes) and user.b (32 bytes) with values that differ per file (HeapFill --phases attrs,
# FileAttrs): attrs-per-file, attr-bytes-per-file (the difference), and attrs-after-read-per-file
# (the same files after a content summary has read every one: in NVM mode each is materialized
# from its page and evicted again). Each NameNode holds only its own kind of file, so in both the
# inode cache ends full of them. ACLs are enabled in both (dfs.namenode.acls.enabled).
#   HEAP_N (files per phase), HEAP_RUNS, HEAP_CONFIGS, HEAP_NN_HEAP, HEAP_THREADS,
#   HEAP_NVM_CACHE (dfs.namenode.nvm.cache.inodes of nvm-emulated and nvm-disk; default N / 10),
#   HEAP_KIND (block or attrs; default block)
set -euo pipefail
source "$(dirname "$0")/bench-lib.sh"
require_dist
N=${HEAP_N:-100000}
RUNS=${HEAP_RUNS:-1}
CONFIGS=${HEAP_CONFIGS:-"stock-tmpfs nvm-emulated"}
NN_HEAP=${HEAP_NN_HEAP:-6g}
THREADS=${HEAP_THREADS:-2}
NVM_CACHE=${HEAP_NVM_CACHE:-$(( N / 10 > 0 ? N / 10 : 1 ))}
KIND=${HEAP_KIND:-block}
case $KIND in
  block) WL=heap ;;
  attrs) WL=heap-attrs ;;
  *) echo "HEAP_KIND is block or attrs, not $KIND" >&2; exit 2 ;;
esac
check_configs "$CONFIGS"
REGION_GB=$(( 2 * N / 2000000 + 1 ))
command -v jcmd >/dev/null || { echo "jcmd (JDK) is required for the heap workload" >&2; exit 1; }

# fill CFG NAME PHASES — one HeapFill JVM (--phases PHASES) on a newly formatted name directory
# (and region) of CFG; its output is kept as logs/$WL/NAME.out, which FILL_OUT names. Fails if
# HeapFill failed or did not run CFG's kind of NameNode.
fill() {
  local cfg=$1 name=$2 phases=$3 work rc=0
  work=$(bench_work)
  bench_conf "$cfg" "$work" "$REGION_GB"
  # the retry cache keeps every create's answer for 10 minutes: transient, not per-file state
  conf_put "$work/conf/hdfs-site.xml" dfs.namenode.enable.retrycache false
  case $cfg in nvm-emulated | nvm-disk) conf_put "$work/conf/hdfs-site.xml" dfs.namenode.nvm.cache.inodes "$NVM_CACHE" ;; esac
  if [ "$KIND" = attrs ]; then conf_put "$work/conf/hdfs-site.xml" dfs.namenode.acls.enabled true; fi
  nn_format "$work/conf"
  PMEM_IS_PMEM_FORCE=$CFG_ENV_FORCE java -Xmx$NN_HEAP -XX:+UseParallelGC -Djava.net.preferIPv4Stack=true \
    -Dhadoop.log.dir="$work/conf/logs" -cp "$work/conf:$NVM_LIB/*" \
    org.nvmnn.workload.heap.HeapFill --files "$N" --phases "$phases" --threads "$THREADS" \
    > "$work/heapfill.out" 2> "$work/heapfill.log" || rc=$?
  keep_log "$work/heapfill.out" "$WL" "$name.out"
  keep_log "$work/heapfill.log" "$WL" "$name.log"
  FILL_OUT="$RESULTS/logs/$WL/$name.out"
  check_namesystem "$cfg" "$FILL_OUT" heap || rc=1
  bench_clean "$work"
  if [ "$rc" != 0 ]; then
    echo "FAILED: $WL $cfg $name (rc $rc): $FILL_OUT" >&2; tail -5 "$FILL_OUT" >&2
    return 1
  fi
}

# val OUT KEY — the value of a "heap KEY VALUE" line of HeapFill's output.
val() { awk -v k="$2" '$1 == "heap" && $2 == k {print $3}' "$1"; }

# curve OUT OP CFG RUN — a row per "heap curve FILES BYTES" line (live heap in MB after every
# quarter of each phase; size = files so far).
curve() {
  local f b
  while read -r f b; do
    record "$WL" "$2" "$THREADS" "$f" "$3" "$4" "$(python3 -c "print('%.2f' % ($b / 1048576.0))")" MB
  done < <(awk '$1 == "heap" && $2 == "curve" {print $3, $4}' "$1")
}

# one CFG RUN — records the heap rows for one configuration.
one() {
  local cfg=$1 run=$2 key out plain
  if [ "$KIND" = block ]; then
    fill "$cfg" "$cfg-run$run" empty,block || return 1
    out=$FILL_OUT
    for key in empty_per_file one_block_per_file namespace_per_file block_per_file; do
      record heap "${key//_/-}" "$THREADS" "$N" "$cfg" "$run" "$(val "$out" "$key")" B/file
    done
    # heap vs files: empty files, then one-block files (size 0..2N)
    curve "$out" live-heap "$cfg" "$run"
    LAST_VALUE="namespace $(val "$out" namespace_per_file) B/file, block $(val "$out" block_per_file) B/file"
    return 0
  fi
  # attrs: the files without and with attributes each in a NameNode of their own, so that each
  # is measured as the first phase is: its files alone, the inode cache full of them at the end
  fill "$cfg" "$cfg-run$run-empty" empty || return 1
  plain=$FILL_OUT
  fill "$cfg" "$cfg-run$run-attrs" attrs || return 1
  out=$FILL_OUT
  record heap-attrs empty-per-file "$THREADS" "$N" "$cfg" "$run" "$(val "$plain" empty_per_file)" B/file
  for key in attrs_per_file attrs_after_read_per_file; do
    record heap-attrs "${key//_/-}" "$THREADS" "$N" "$cfg" "$run" "$(val "$out" "$key")" B/file
  done
  record heap-attrs attr-bytes-per-file "$THREADS" "$N" "$cfg" "$run" \
    "$(python3 -c "import sys; print('%.1f' % (float(sys.argv[2]) - float(sys.argv[1])))" \
      "$(val "$plain" empty_per_file)" "$(val "$out" attrs_per_file)")" B/file
  curve "$plain" live-heap-empty "$cfg" "$run"
  curve "$out" live-heap-attrs "$cfg" "$run"
  LAST_VALUE="without attributes $(val "$plain" empty_per_file) B/file, with $(val "$out" attrs_per_file) B/file; ACL features (unique, references) after the fill $(awk '$2 == "acl_features" && $3 == "after_fill" {print $4 ", " $5}' "$out"), after reading every file $(awk '$2 == "acl_features" && $3 == "after_read" {print $4 ", " $5}' "$out")"
}

echo "$WL: N=$N files per phase, NVM inode cache $NVM_CACHE files"
total=$(( RUNS * $(wc -w <<<"$CONFIGS") ))
step=0
for run in $(seq 1 "$RUNS"); do
  for cfg in $CONFIGS; do
    step=$((step + 1))
    if one "$cfg" "$run"; then
      progress "$step" "$total" "$WL n=$N $cfg run $run: $LAST_VALUE"
    else
      progress "$step" "$total" "$WL n=$N $cfg run $run: FAILED"
      echo "$WL,$cfg,$run" >> "$RESULTS/failures.txt"
    fi
  done
done
