#!/usr/bin/env bash
# Workload: restart recovery (seed Fig. 13). Per configuration and size N: a NameNode and a
# DataNode as processes; NNBenchWithoutMR creates N empty files (REC_CLIENTS clients in parallel,
# each in its own directory of at most 1M entries); the NameNode is stopped and its state copied
# aside. Sizes above REC_NNBENCH_MAX (default 1M; an RPC build of 10M files takes hours here) are
# built by NamespaceBuild instead: the NameNode in the builder's JVM, called directly, the same
# directories and file names, no DataNode (docs/benchmarks.md, "Restart recovery").
# Then restarts are timed from that copy, interleaved across the variants:
#   stock-*:fsimage  the stock NameNode loading a checkpoint (dfsadmin -saveNamespace taken after
#                    the build): fsimage load only
#   stock-*:edits    the stock NameNode loading fsimage 0 and replaying every edit of the build
#                    (and, past dfs.namenode.checkpoint.txns, saving a new image, as 2.7.3 does)
#   nvm-*            the NVM NameNode scanning its region and rebuilding the namespace
#   nvm-disk         the same after a kill -9 with its write-ahead log at the checkpoint bound (the
#                    worst case): after the build the NameNode is started again, LogFill renames
#                    files until the log since the last checkpoint is just under the bound, the
#                    NameNode is killed with SIGKILL, and region, log and name dir are copied; every
#                    restart replays that log (its "replayed N records (B bytes)" line is required
#                    and recorded as log-replayed-records / log-replayed-bytes)
# Each restart records namespace-ready (process launch to the first answered RPC), safemode-off
# (launch to safe mode off; the files have no blocks, so no block report is waited for) and load
# (the NameNode's own log: stock "Finished loading FSImage in", NVM "loadFSImage" of "NVM namesystem
# loaded in": the same span, FSNamesystem.loadFSImage, in both).
# Every restart's copies are synced to the disk before the launch: no restart pays for writing back
# its own copy (a disk-mode replay ends with an fdatasync of the region file).
#   REC_SIZES, REC_RUNS (restarts per variant), REC_CONFIGS, REC_CLIENTS, REC_NNBENCH_MAX,
#   REC_DIRECT_THREADS, REC_FILL_ARGS (LogFill's options, e.g. "--margin 65536")
set -euo pipefail
source "$(dirname "$0")/bench-lib.sh"
require_dist
SIZES=${REC_SIZES:-"100000"}
RUNS=${REC_RUNS:-3}
CONFIGS=${REC_CONFIGS:-"stock-disk nvm-emulated"}
CLIENTS=${REC_CLIENTS:-4}
NNBENCH_MAX=${REC_NNBENCH_MAX:-1000000}
DIRECT_THREADS=${REC_DIRECT_THREADS:-32}
FILL_ARGS=${REC_FILL_ARGS:-}
check_configs "$CONFIGS"
NN_PID= DN_PID=
WORKS=()
cleanup() {
  cluster_down
  local w
  for w in "${WORKS[@]}"; do rm -rf "$(readlink -f "$w.shm")" "$w.shm" "$w"; done
}
trap cleanup EXIT

# clients N — how many NNBenchWithoutMR clients build N files: REC_CLIENTS, or more so that no
# directory holds over 1M files.
clients() {
  local n=$1 p=$CLIENTS
  [ $(( (n + p - 1) / p )) -le 1000000 ] || p=$(( (n + 999999) / 1000000 ))
  echo "$p"
}

# build CFG N WORK — creates the namespace (build_nnbench or build_direct), in the disk mode fills
# the write-ahead log to its bound (fill_log), then copies the state aside: WORK/snap-edits (stock)
# or WORK/snap (NVM: name dir + region, and the disk mode's log), and WORK/snap-fsimage (stock).
build() {
  local cfg=$1 n=$2 work=$3
  if [ "$n" -le "$NNBENCH_MAX" ]; then build_nnbench "$cfg" "$n" "$work"; else build_direct "$cfg" "$n" "$work"; fi || return 1
  if disk_mode "$work"; then fill_log "$cfg" "$n" "$work" || return 1; fi
  snapshot "$cfg" "$n" "$work"
}

# disk_mode WORK — status 0 if WORK's NameNode persists in the disk mode (a write-ahead log).
disk_mode() { [ "$(conf_get "$1/conf/hdfs-site.xml" dfs.namenode.nvm.persist.mode)" = disk ]; }

# log_file WORK — the disk mode's write-ahead log: dfs.namenode.nvm.log.path, else <region>.wal.
log_file() {
  local site=$1/conf/hdfs-site.xml p
  p=$(conf_get "$site" dfs.namenode.nvm.log.path)
  echo "${p:-$(conf_get "$site" dfs.namenode.nvm.region.path).wal}"
}

# fill_log CFG N WORK — the disk mode's worst case for a restart: the built namespace's NameNode
# started again (the build stopped it with SIGTERM, on which 2.7.3 does not close the namesystem, so
# this start may replay the build's last log; either way it begins a new, empty log epoch before
# the first commit: region-format.md §12.6), LogFill's renames until the
# log written since the last checkpoint is in [bound - margin, bound) (bound: the checkpoint size,
# at which the checkpointer would empty it; LogFill reads the log from /jmx), then kill -9. The
# checkpoint period is set to an hour first: the fill waits for quiet /jmx readings, and the time
# trigger would otherwise checkpoint meanwhile. Sets FILL_RECORDS (the records the restarts must
# replay; empty if a checkpoint fell inside the fill, when only the bytes can be checked).
FILL_RECORDS=
fill_log() {
  local cfg=$1 n=$2 work=$3 out fin
  conf_put "$work/conf/hdfs-site.xml" dfs.namenode.nvm.checkpoint.period 1h
  config_vars "$cfg" || return 1
  HJAVA_HEAP="-Xmx$(( 3 + n / 2000000 ))g" PMEM_FORCE=$CFG_ENV_FORCE nn_start "$work/conf"
  out=$(hclient "$work/conf" org.nvmnn.workload.ReadyProbe --pid "$NN_PID" --datanodes 0 --timeout-seconds 1800 || true)
  grep -q '^safemode-off' <<<"$out" || { echo "recovery $cfg n=$n: the NameNode did not come back for the log fill: $out" >&2; return 1; }
  echo "recovery build n=$n $cfg: filling the write-ahead log to its checkpoint bound (LogFill)"
  # shellcheck disable=SC2086
  hclient "$work/conf" org.nvmnn.workload.LogFill $FILL_ARGS | tee "$work/fill.out" | sed -u 's/^/  /' || true
  kill_hard "$NN_PID"; NN_PID=
  keep_log "$work/fill.out" recovery "fill-n$n-$cfg.out"
  keep_log "$work/conf/logs/namenode.log" recovery "fill-n$n-$cfg-namenode.log"
  fin=$(grep "^fill done" "$work/fill.out") \
    || { echo "recovery $cfg n=$n: LogFill did not reach the bound: $RESULTS/logs/recovery/fill-n$n-$cfg.out" >&2; return 1; }
  FILL_RECORDS=$(sed -n 's/.* records=\([0-9]*\) .* checkpoints=0$/\1/p' <<<"$fin")
  [ -s "$(log_file "$work")" ] || { echo "recovery $cfg n=$n: no write-ahead log at $(log_file "$work")" >&2; return 1; }
}

# build_nnbench CFG N WORK — a NameNode and a DataNode as processes, NNBenchWithoutMR clients
# through RPC; the cluster is stopped afterwards.
build_nnbench() {
  local cfg=$1 n=$2 work=$3 rc=0
  NN_HEAP_OPT="-Xmx$(( 3 + n / 2000000 ))g" cluster_up "$cfg" "$work" $(( n / 2000000 + 1 )) || rc=$?
  # the tmpfs sibling of WORK (CFG_TMP) is kept with WORK until the end: WORK.shm
  ln -s "$CFG_TMP" "$work.shm"
  [ "$rc" = 0 ] || return 1
  nnbench_clients "$work/conf" "$n" "$(clients "$n")" /rec "$work/build.out" "recovery build n=$n $cfg" || rc=1
  keep_log "$work/build.out" recovery "build-n$n-$cfg.out"
  [ "$rc" = 0 ] || { echo "recovery build $cfg n=$n: NNBenchWithoutMR failed: $RESULTS/logs/recovery/build-n$n-$cfg.out" >&2; return 1; }
  cluster_down
}

# build_direct CFG N WORK — NamespaceBuild: the NameNode in the builder's JVM, called directly;
# the same directories and names as build_nnbench, no DataNode; stopped cleanly at the end.
build_direct() {
  local cfg=$1 n=$2 work=$3 rc=0
  bench_conf "$cfg" "$work" $(( n / 2000000 + 1 ))
  ln -s "$CFG_TMP" "$work.shm"
  mkdir -p "$work/conf/logs"
  nn_format "$work/conf" || { echo "format failed: $work/conf/format.log" >&2; return 1; }
  echo "recovery build n=$n $cfg: NamespaceBuild, $DIRECT_THREADS threads, $(clients "$n") directories"
  # progress lines as they come (tee and sed end with the JVM, so rc is the JVM's)
  (HJAVA_HEAP="-Xmx$(( 3 + n / 2000000 ))g" PMEM_FORCE=$CFG_ENV_FORCE hjava "$work/conf" \
    org.nvmnn.workload.heap.NamespaceBuild --files "$n" --dirs "$(clients "$n")" --root /rec \
    --threads "$DIRECT_THREADS" 2> "$work/build.log") | tee "$work/build.out" | sed -u -n 's/^progress/  progress/p' || rc=$?
  keep_log "$work/build.out" recovery "build-n$n-$cfg.out"
  # the NameNode logs every completeFile at INFO: 10M files are ~900 MB of log; keep the rest
  grep -v ' INFO StateChange: DIR\* completeFile: ' "$work/build.log" > "$work/build-filtered.log" || true
  keep_log "$work/build-filtered.log" recovery "build-n$n-$cfg.log"
  [ "$rc" = 0 ] && grep -q '^build files' "$work/build.out" \
    || { echo "recovery build $cfg n=$n: NamespaceBuild failed (rc $rc): $RESULTS/logs/recovery/build-n$n-$cfg.out" >&2; return 1; }
  check_namesystem "$cfg" "$work/build.out" build || return 1
  grep '^build files' "$work/build.out"
}

# snapshot CFG N WORK — copies the stopped NameNode's state aside (and, stock, takes a checkpoint).
snapshot() {
  local cfg=$1 n=$2 work=$3 name
  name=$(conf_get "$work/conf/hdfs-site.xml" dfs.namenode.name.dir); name=${name#file://}
  case $cfg in
    nvm-*)
      mkdir -p "$work/snap" && cp -a "$name" "$work/snap/name" && cp --sparse=always "$CFG_REGION" "$work.shm/snap.region"
      # the disk mode's log, as the kill left it (preallocated: copied whole, not sparse)
      if disk_mode "$work"; then cp "$(log_file "$work")" "$work.shm/snap.wal" && echo "$FILL_RECORDS" > "$work/snap/fill-records"; fi ;;
    *)
      cp -a "$name" "$work/snap-edits"
      # a checkpoint for the fsimage variant
      HJAVA_HEAP="-Xmx$(( 3 + n / 2000000 ))g" nn_start "$work/conf"
      hclient "$work/conf" org.nvmnn.workload.ReadyProbe --pid "$NN_PID" --datanodes 0 --timeout-seconds 1800 > /dev/null \
        || { echo "recovery $cfg n=$n: the NameNode did not come back for the checkpoint" >&2; return 1; }
      dfsadmin "$work/conf" -safemode enter > /dev/null
      dfsadmin "$work/conf" -saveNamespace > /dev/null
      stop_pid "$NN_PID"; NN_PID=
      ls "$name"/current/fsimage_* | grep -v 'fsimage_0\{19\}' > /dev/null \
        || { echo "recovery $cfg n=$n: no checkpoint after -saveNamespace in $name/current" >&2; return 1; }
      cp -a "$name" "$work/snap-fsimage" ;;
  esac
}

# restart CFG VARIANT N WORK RUN — restores the copy, launches the NameNode, records the times.
restart() {
  local cfg=$1 variant=$2 n=$3 work=$4 run=$5 name label=$1 t0 out log load
  name=$(conf_get "$work/conf/hdfs-site.xml" dfs.namenode.name.dir); name=${name#file://}
  rm -rf "$name"
  local region copies=()
  region=$(conf_get "$work/conf/hdfs-site.xml" dfs.namenode.nvm.region.path)
  case $variant in
    scan)
      cp -a "$work/snap/name" "$name"; cp --sparse=always "$work.shm/snap.region" "$region"; copies+=("$region")
      if [ -f "$work.shm/snap.wal" ]; then cp "$work.shm/snap.wal" "$(log_file "$work")"; copies+=("$(log_file "$work")"); fi ;;
    *) cp -a "$work/snap-$variant" "$name"; label="$cfg:$variant" ;;
  esac
  # the copies on the disk, so the restart does not write them back (the disk mode's replay ends
  # with an fdatasync of the region file, and its new epoch with one of the log)
  mapfile -t -O "${#copies[@]}" copies < <(find "$name" -type f)
  sync "${copies[@]}"
  log="$work/conf/logs/namenode.log"; : > "$log"
  # PMEM_IS_PMEM_FORCE as the configuration table has it (0 for a region on the disk: nvm-disk)
  config_vars "$cfg" || return 1
  t0=$(date +%s%3N)
  HJAVA_HEAP="-Xmx$(( 3 + n / 2000000 ))g" PMEM_FORCE=$CFG_ENV_FORCE nn_start "$work/conf"
  out=$(hclient "$work/conf" org.nvmnn.workload.ReadyProbe --pid "$NN_PID" --datanodes 0 --timeout-seconds 1800 || true)
  stop_pid "$NN_PID"; NN_PID=
  keep_log "$log" recovery "restart-n$n-$label-run$run-namenode.log"
  grep -q '^safemode-off' <<<"$out" || { echo "restart $label n=$n did not come up: $out" >&2; return 1; }
  check_mode "$cfg" "$log"
  load=$(sed -n -e 's/.*Finished loading FSImage in \([0-9]*\) msecs.*/\1/p' \
    -e 's/.*NVM namesystem loaded in [0-9]* ms (loadFSImage \([0-9]*\) ms.*/\1/p' "$log" | tail -1)
  [ -n "$load" ] || { echo "restart $label n=$n: no load time in the NameNode log" >&2; return 1; }
  local replay="" recs bytes
  if [ "$variant" = scan ] && [ -f "$work.shm/snap.wal" ]; then
    # the disk mode: the restart must have replayed the whole log the fill left
    recs=$(sed -n 's/.*; replayed \([0-9]*\) records (\([0-9]*\) bytes) at this start.*/\1/p' "$log" | tail -1)
    bytes=$(sed -n 's/.*; replayed \([0-9]*\) records (\([0-9]*\) bytes) at this start.*/\2/p' "$log" | tail -1)
    [ -n "$recs" ] && [ "$recs" -gt 0 ] \
      || { echo "restart $label n=$n run $run: replayed no write-ahead log ($RESULTS/logs/recovery/restart-n$n-$label-run$run-namenode.log)" >&2; return 1; }
    local want; want=$(cat "$work/snap/fill-records")
    [ -z "$want" ] || [ "$recs" = "$want" ] \
      || { echo "restart $label n=$n run $run: replayed $recs records, the fill wrote $want" >&2; return 1; }
    record recovery log-replayed-records 0 "$n" "$label" "$run" "$recs" records
    record recovery log-replayed-bytes 0 "$n" "$label" "$run" "$bytes" B
    replay=", replayed $recs records ($bytes bytes)"
  fi
  local ready safe
  ready=$(python3 -c "print('%.3f' % (($(awk '/^answered/ {print $2}' <<<"$out") - $t0) / 1000.0))")
  safe=$(python3 -c "print('%.3f' % (($(awk '/^safemode-off/ {print $2}' <<<"$out") - $t0) / 1000.0))")
  record recovery namespace-ready 0 "$n" "$label" "$run" "$ready" s
  record recovery safemode-off 0 "$n" "$label" "$run" "$safe" s
  record recovery load 0 "$n" "$label" "$run" "$(python3 -c "print('%.3f' % ($load / 1000.0))")" s
  LAST_VALUE="load $(python3 -c "print('%.3f' % ($load / 1000.0))") s, ready $ready s, safe mode off $safe s$replay"
}

variants() { case $1 in nvm-*) echo scan ;; *) echo "edits fsimage" ;; esac; }

total=0
for _ in $SIZES; do for c in $CONFIGS; do total=$((total + 1 + RUNS * $(variants "$c" | wc -w))); done; done
step=0
for n in $SIZES; do
  declare -A work_of=()
  for cfg in $CONFIGS; do
    step=$((step + 1))
    w=$(bench_work); WORKS+=("$w"); work_of[$cfg]=$w
    t0=$(now_s)
    if build "$cfg" "$n" "$w"; then
      progress "$step" "$total" "recovery build n=$n $cfg: $(elapsed_s "$t0" "$(now_s)") s"
    else
      cluster_down; work_of[$cfg]=""
      progress "$step" "$total" "recovery build n=$n $cfg: FAILED"
      echo "recovery-build,$cfg,$n" >> "$RESULTS/failures.txt"
    fi
  done
  for run in $(seq 1 "$RUNS"); do
    for cfg in $CONFIGS; do
      for v in $(variants "$cfg"); do
        [ -n "${work_of[$cfg]}" ] || continue
        step=$((step + 1))
        if restart "$cfg" "$v" "$n" "${work_of[$cfg]}" "$run"; then
          progress "$step" "$total" "recovery n=$n $cfg ($v) run $run: $LAST_VALUE"
        else
          progress "$step" "$total" "recovery n=$n $cfg ($v) run $run: FAILED"
          echo "recovery,$cfg:$v,$n,$run" >> "$RESULTS/failures.txt"
        fi
      done
    done
  done
  for cfg in $CONFIGS; do
    w=${work_of[$cfg]:-}; [ -z "$w" ] || rm -rf "$(readlink -f "$w.shm")" "$w.shm" "$w"
  done
  unset work_of
done
