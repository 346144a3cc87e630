#!/usr/bin/env bash
# Workload: deleteSnapshot of a large tree (docs/benchmarks.md, "Snapshots"). Per configuration and
# run, in one JVM with the NameNode called directly (SnapshotDeleteBench, as NamespaceBuild builds
# the restart namespaces): SNAP_FILES empty files under /snap, snapshot s0 of /snap, a new
# permission for every SNAP_EVERY-th file (a file diff each); with the snapshot in place, the
# NameNode's live heap per file (jcmd class histogram after it, less the one before the build;
# heap-per-file, B/file) and a restart in the same JVM (restart, s: start to the first answer out
# of safe mode; a stock NameNode saves its namespace first and loads that fsimage); then, on the
# restarted NameNode, deleteSnapshot s0 while a probe thread calls getFileInfo in a loop. Records
# deleteSnapshot (seconds) and deleteSnapshot-longest-wait (the probe's longest call, ms: the
# longest time a reader waited for the namesystem lock), interleaved across the configurations. The NVM configurations run with the
# snapshot preview on (dfs.namenode.nvm.snapshots.preview).
# Then (SnapshotOpsBench, one JVM per configuration, run and snapshot count in SNAP_OPS_SNAPSHOTS,
# default "0 100"): SNAP_OPS_DIRS directories of SNAP_OPS_PER_DIR empty files under /t, that many
# snapshots of /t, and SNAP_OPS calls each of create, mkdirs, rename and delete in those
# directories from SNAP_THREADS threads: recorded as OP@Ssnap (ops/s), e.g. create@100snap.
#   SNAP_FILES (default 1000000), SNAP_EVERY (10), SNAP_RUNS (3), SNAP_CONFIGS, SNAP_THREADS (8),
#   SNAP_OPS (20000; 0: no ops phases), SNAP_OPS_SNAPSHOTS ("0 100"), SNAP_OPS_DIRS (20),
#   SNAP_OPS_PER_DIR (2000)
set -euo pipefail
source "$(dirname "$0")/bench-lib.sh"
require_dist
FILES=${SNAP_FILES:-1000000}
EVERY=${SNAP_EVERY:-10}
RUNS=${SNAP_RUNS:-3}
CONFIGS=${SNAP_CONFIGS:-"stock-disk stock-tmpfs nvm-emulated nvm-disk"}
THREADS=${SNAP_THREADS:-8}
OPS=${SNAP_OPS:-20000}
OPS_SNAPSHOTS=${SNAP_OPS_SNAPSHOTS:-"0 100"}
OPS_DIRS=${SNAP_OPS_DIRS:-20}
OPS_PER_DIR=${SNAP_OPS_PER_DIR:-2000}
check_configs "$CONFIGS"
command -v jcmd >/dev/null || { echo "jcmd (JDK) is required for the heap per file" >&2; exit 1; }
WORK=
cleanup() { [ -z "$WORK" ] || bench_clean "$WORK"; }
trap cleanup EXIT

# fresh CFG — WORK: a new work directory with CFG's configuration, the preview on, formatted.
fresh() {
  WORK=$(bench_work)
  bench_conf "$1" "$WORK" $(( FILES / 1000000 + 1 ))
  conf_put "$WORK/conf/hdfs-site.xml" dfs.namenode.nvm.snapshots.preview true
  mkdir -p "$WORK/conf/logs"
  nn_format "$WORK/conf" || { echo "format failed: $WORK/conf/format.log" >&2; exit 1; }
}

nops=0
[ "$OPS" = 0 ] || nops=$(wc -w <<< "$OPS_SNAPSHOTS")
total=$(( RUNS * $(wc -w <<< "$CONFIGS") * (1 + nops) )) step=0
for run in $(seq 1 "$RUNS"); do
  for cfg in $CONFIGS; do
    for snaps in $([ "$OPS" = 0 ] || echo "$OPS_SNAPSHOTS"); do
      step=$((step + 1))
      progress "$step" "$total" "snapshot ops $OPS x4, $snaps snapshots, $cfg run $run"
      fresh "$cfg"
      rc=0
      (HJAVA_HEAP=-Xmx3g PMEM_FORCE=$CFG_ENV_FORCE hjava "$WORK/conf" \
        org.nvmnn.workload.heap.SnapshotOpsBench --snapshots "$snaps" --ops "$OPS" \
        --dirs "$OPS_DIRS" --per-dir "$OPS_PER_DIR" --threads "$THREADS" \
        > "$WORK/ops.out" 2> "$WORK/ops.log") || rc=$?
      name="ops-s$snaps-$cfg-run$run"
      keep_log "$WORK/ops.out" snapshots "$name.out"
      grep -v ' INFO StateChange: DIR\* completeFile: ' "$WORK/ops.log" > "$WORK/ops-filtered.log" || true
      keep_log "$WORK/ops-filtered.log" snapshots "$name.log"
      [ "$rc" = 0 ] && [ "$(grep -c '^snapshot-ops snapshots' "$WORK/ops.out")" = 4 ] \
        || { echo "snapshots $cfg run $run: SnapshotOpsBench failed (rc $rc): $RESULTS/logs/snapshots/$name.out" >&2; exit 1; }
      check_namesystem "$cfg" "$WORK/ops.out" snapshot-ops
      # snapshot-ops snapshots S op OP ops N seconds X rate R
      while read -r _ _ s _ op _ n _ _ _ rate; do
        echo "  $op with $s snapshots: $rate ops/s"
        record snapshots "$op@${s}snap" "$THREADS" "$n" "$cfg" "$run" "$rate" ops/s
      done < <(grep '^snapshot-ops snapshots' "$WORK/ops.out")
      bench_clean "$WORK"
      WORK=
    done
    step=$((step + 1))
    progress "$step" "$total" "snapshots n=$FILES every=$EVERY $cfg run $run"
    fresh "$cfg"
    rc=0
    # hjava execs the JVM: a subshell of its own
    (HJAVA_HEAP="-Xmx$(( 3 + FILES / 1000000 ))g" PMEM_FORCE=$CFG_ENV_FORCE hjava "$WORK/conf" \
      org.nvmnn.workload.heap.SnapshotDeleteBench --files "$FILES" --every "$EVERY" \
      --threads "$THREADS" > "$WORK/snap.out" 2> "$WORK/snap.log") || rc=$?
    name="n$FILES-$cfg-run$run"
    keep_log "$WORK/snap.out" snapshots "$name.out"
    grep -v ' INFO StateChange: DIR\* completeFile: ' "$WORK/snap.log" > "$WORK/snap-filtered.log" || true
    keep_log "$WORK/snap-filtered.log" snapshots "$name.log"
    line=$(grep '^snapshot-delete files' "$WORK/snap.out" || true)
    [ "$rc" = 0 ] && [ -n "$line" ] \
      || { echo "snapshots $cfg run $run: SnapshotDeleteBench failed (rc $rc): $RESULTS/logs/snapshots/$name.out" >&2; exit 1; }
    check_namesystem "$cfg" "$WORK/snap.out" snapshot-delete
    echo "  $line"
    # snapshot-delete files N changed C seconds S longest-wait-ms W probes P
    read -r _ _ _ _ _ _ seconds _ wait _ _ <<< "$line"
    heap=$(awk '$1 == "snapshot-delete" && $2 == "heap-per-file" {print $3}' "$WORK/snap.out")
    restart=$(awk '$1 == "snapshot-delete" && $2 == "restart-seconds" {print $3}' "$WORK/snap.out")
    [ -n "$heap" ] && [ -n "$restart" ] \
      || { echo "snapshots $cfg run $run: no heap or restart line: $RESULTS/logs/snapshots/$name.out" >&2; exit 1; }
    echo "  heap per file $heap B, restart $restart s"
    record snapshots heap-per-file 1 "$FILES" "$cfg" "$run" "$heap" B/file
    record snapshots restart 1 "$FILES" "$cfg" "$run" "$restart" s
    record snapshots deleteSnapshot 1 "$FILES" "$cfg" "$run" "$seconds" s
    record snapshots deleteSnapshot-longest-wait 1 "$FILES" "$cfg" "$run" "$wait" ms
    bench_clean "$WORK"
    WORK=
  done
done
