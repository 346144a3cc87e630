#!/usr/bin/env bash
# Workload: HA timings, stock HA against NVM HA side by side (docs/benchmarks.md, "HA timings").
# Per configuration, once: an HA pair (bench-ha-lib.sh) and HAT_FILES empty files created through
# hdfs://ha by HAT_CLIENTS NNBenchWithoutMR clients, in two halves; HAT_CHECKPOINT=mid (default)
# checkpoints the stock pair between the halves (both NameNodes save their namespace: a restart then
# loads an fsimage of half the files and replays the other half's edits), end after the build,
# none never. The active rolls its edit log, the standby applies it; the pair is stopped and its
# state (name dirs, regions, the JournalNodes' edits) copied aside.
# Then per run, every configuration in turn, from a fresh copy of that state (written back to the
# disk, sync, before the pair starts): the pair started (both NameNodes at once), a light load
# (HaLoad: HAT_LOAD_THREADS threads creating empty files and renaming some through hdfs://ha, each
# pausing HAT_LOAD_PAUSE_MS after every operation, every acknowledgement logged with its ms), and in
# turn:
#   catch-up         the active rolls its edit log and the standby applies it; HAT_CATCHUP_FILES
#                    empty files created by HAT_CLIENTS NNBenchWithoutMR clients (a 2.7.3 standby
#                    reads finalized segments only: their edits wait in the active's open segment);
#                    the active rolls (dfsadmin -rollEdits, up to R) -> the standby has applied R
#                    (its /jmx), from the active's "Starting log segment at R+1"
#   failover         kill -9 of the active -> the first operation acknowledged after the other
#                    NameNode logged "Starting services required for active state" (make ha-demo's
#                    definition: from then on only the new active answers)
#   rejoin           launch of the killed NameNode -> it reports standby
#   standby-restart  the standby stopped (SIGTERM); the load runs HAT_GAP_SECONDS; the active rolls
#                    its edit log (dfsadmin -rollEdits: every edit so far finalized, up to R); launch
#                    of the standby -> it reports standby and has applied R (its /jmx)
#   active-restart   the standby stopped again; the load runs HAT_GAP_SECONDS; kill -9 of the
#                    active; launch of the NameNode stopped as standby, alone (nothing can fail
#                    over) -> the first operation acknowledged after it began its transition to
#                    active (its ZKFC makes it active)
# HAT_ACTIVE_RESTART=killed launches the killed active instead of the stopped standby: a stock
# NameNode comes back; an NVM one waits until another NameNode became active (docs/ha.md §3:
# its region may hold edits the quorum never accepted), so it fails after HAT_TIMEOUT.
# Recorded (s): catch-up, catch-up-apply (the standby's own apply of that segment, from its log:
# "Reading ... expecting start txid" to the tailer's "Loaded N edits"), failover, failover-begin
# (kill -> the new active began its transition), rejoin, standby-restart, standby-restart-load,
# active-restart, active-restart-begin, active-restart-load (the NameNode's own load time from its
# log, as wl-recovery.sh reads it); and catch-up-edits (edits): N, how far behind the standby was.
#   HAT_FILES, HAT_RUNS, HAT_CONFIGS, HAT_CLIENTS, HAT_CHECKPOINT, HAT_LOAD_THREADS,
#   HAT_LOAD_PAUSE_MS, HAT_WARMUP_SECONDS, HAT_GAP_SECONDS, HAT_TIMEOUT, HAT_ACTIVE_RESTART,
#   HAT_CATCHUP_FILES (default HAT_FILES / 5; 0: no catch-up)
set -euo pipefail
source "$(dirname "$0")/bench-lib.sh"
require_dist
FILES=${HAT_FILES:-10000}
RUNS=${HAT_RUNS:-3}
CONFIGS=${HAT_CONFIGS:-"stock-ha-disk nvm-ha-disk"}
CLIENTS=${HAT_CLIENTS:-4}
CHECKPOINT=${HAT_CHECKPOINT:-mid}
THREADS=${HAT_LOAD_THREADS:-2}
PAUSE_MS=${HAT_LOAD_PAUSE_MS:-50}
WARMUP=${HAT_WARMUP_SECONDS:-3}
GAP=${HAT_GAP_SECONDS:-5}
TIMEOUT=${HAT_TIMEOUT:-180}
RELAUNCH=${HAT_ACTIVE_RESTART:-standby}
CATCHUP=${HAT_CATCHUP_FILES:-$(( FILES / 5 ))}
check_configs "$CONFIGS"
for c in $CONFIGS; do is_ha_config "$c" || { echo "ha-timings: $c is not an HA configuration ($HA_CONFIGS)" >&2; exit 2; }; done
case $CHECKPOINT in mid | end | none) ;; *) echo "HAT_CHECKPOINT: mid, end or none" >&2; exit 2 ;; esac
case $RELAUNCH in standby | killed) ;; *) echo "HAT_ACTIVE_RESTART: standby or killed" >&2; exit 2 ;; esac
GB=$(( FILES / 2000000 + 1 ))
NN_PID= DN_PID=
declare -A WORK_OF=() SHM_OF=()
cleanup() {
  cluster_down
  local c
  for c in "${!WORK_OF[@]}"; do rm -rf "${WORK_OF[$c]}" "${SHM_OF[$c]}" "${SHM_OF[$c]}.snap"; done
}
trap cleanup EXIT

now_ms() { date +%s%3N; }
secs() { python3 -c "import sys; print('%.3f' % ((int(sys.argv[2]) - int(sys.argv[1])) / 1000.0))" "$1" "$2"; }

# load_time NN — the NameNode's own load time of its last start, in s (stock "Finished loading
# FSImage in", NVM the loadFSImage part of "NVM namesystem loaded in").
load_time() {
  local ms
  ms=$(sed -n -e 's/.*Finished loading FSImage in \([0-9]*\) msecs.*/\1/p' \
    -e 's/.*NVM namesystem loaded in [0-9]* ms (loadFSImage \([0-9]*\) ms.*/\1/p' "$(ha_log "$1")" | tail -1)
  [ -n "$ms" ] && python3 -c "print('%.3f' % ($ms / 1000.0))"
}

# roll — the active ends its segment (dfsadmin -rollEdits); prints the segment's last txid.
roll() {
  local r
  r=$(dfsadmin "$CLUSTER_CONF" -rollEdits 2>&1 | sed -n 's/.*New segment starts at txid \([0-9]*\).*/\1/p')
  [ -n "$r" ] || { echo "dfsadmin -rollEdits failed" >&2; return 1; }
  echo $(( r - 1 ))
}

# checkpoint — both stock NameNodes save their namespace (the standby once it applied every
# finalized edit), as the standby's checkpointer does every 1M transactions or hour.
checkpoint() {
  local last nn
  last=$(roll) || return 1
  ha_until "$HA_STANDBY" 600 --state standby --txid "$last" > /dev/null || return 1
  dfsadmin "$CLUSTER_CONF" -safemode enter > /dev/null && dfsadmin "$CLUSTER_CONF" -saveNamespace > /dev/null \
    && dfsadmin "$CLUSTER_CONF" -safemode leave > /dev/null || { echo "checkpoint: dfsadmin failed" >&2; return 1; }
  for nn in "${HA_NNS[@]}"; do
    ls "$(conf_get "$(ha_conf "$nn")/hdfs-site.xml" dfs.namenode.name.dir | sed 's#^file://##')"/current/fsimage_* \
      | grep -v 'fsimage_0\{19\}' > /dev/null || { echo "checkpoint: no new fsimage in $nn's name dir" >&2; return 1; }
  done
}

# build CFG WORK — the namespace (two halves, a checkpoint of a stock pair per HAT_CHECKPOINT), then
# the stopped pair's state copied aside: WORK/snap (disk), CFG_TMP.snap (tmpfs).
build() {
  local cfg=$1 work=$2 half n last
  NN_HEAP_OPT=-Xmx4g cluster_up "$cfg" "$work" "$GB" || return 1
  SHM_OF[$cfg]=$CFG_TMP
  for half in a b; do
    if [ "$half" = a ]; then n=$(( FILES / 2 )); else n=$(( FILES - FILES / 2 )); fi
    nnbench_clients "$CLUSTER_CONF" "$n" "$CLIENTS" "/hat/$half" \
      "$work/build-$half.out" "ha-timings build $cfg ($half)" \
      || { keep_log "$work/build-$half.out" ha-timings "build-$cfg-$half.out"; echo "ha-timings build $cfg: NNBenchWithoutMR failed" >&2; return 1; }
    case $cfg/$half/$CHECKPOINT in stock-*/a/mid | stock-*/b/end) checkpoint || return 1 ;; esac
  done
  # every edit finalized and applied by the standby before the stop: both copies are current (the
  # standby tails finalized segments only, and the active rolls when asked, every 2 minutes)
  last=$(roll) && ha_until "$HA_STANDBY" 600 --state standby --txid "$last" > /dev/null || return 1
  cluster_down
  ha_keep_logs ha-timings "build-$cfg"
  rm -rf "$work/snap" "$CFG_TMP.snap"
  # (a region on the disk is in data/regions: copied as it is, so a write-ahead log's preallocated
  # ring stays allocated; only the copies on tmpfs are made sparse)
  cp -a "$work/data" "$work/snap" && cp -a --sparse=always "$CFG_TMP" "$CFG_TMP.snap" && sync
}

# restore CFG WORK — new conf dirs (new ports) over the copied state; clears the logs.
restore() {
  local cfg=$1 work=$2 shm=${SHM_OF[$1]}
  rm -rf "$work/data" "$shm" && cp -a "$work/snap" "$work/data" && cp -a --sparse=always "$shm.snap" "$shm"
  # the copy written back before anything is timed (a region on the disk copies hundreds of MiB)
  sync
  rm -f "$work"/conf/*/logs/*
  ha_bench_conf "$cfg" "$work" "$GB" "$shm"
  # the load's client: its failover retries 100-250 ms apart (ha-lib: up to 1 s) and for minutes,
  # so the first acknowledgement follows the NameNode's readiness closely, also through a restart
  conf_put "$CLUSTER_CONF/hdfs-site.xml" dfs.client.failover.sleep.max.millis 250
  conf_put "$CLUSTER_CONF/hdfs-site.xml" dfs.client.failover.max.attempts 1000
}

# first_ack_after_transition NN SINCE_MS — waits (HAT_TIMEOUT) until NN logged "Starting services
# required for active state" after SINCE_MS and an operation was acknowledged after that line;
# prints "<transition ms> <ack ms>".
first_ack_after_transition() {
  local nn=$1 since=$2 t_begin= ack=
  while [ -z "$ack" ]; do
    [ -n "$t_begin" ] || t_begin=$(log_event_ms "$nn" "$since" "Starting services required for active state")
    [ -z "$t_begin" ] || ack=$(ha_first_ack_after "$OPS" "$t_begin")
    [ -z "$ack" ] || break
    ha_alive load || { echo "the load client exited" >&2; tail -5 "$LOAD_OUT" >&2; return 1; }
    if [ $(( $(now_ms) - since )) -gt $(( TIMEOUT * 1000 )) ]; then
      echo "no operation acknowledged by $nn within $TIMEOUT s (transition began: ${t_begin:-no})" >&2
      ha_show_log "$nn" 20; ha_show_log "zkfc${nn#nn}" 10; return 1
    fi
    sleep 0.5
  done
  echo "$t_begin ${ack%% *}"
}

# ha_stop_role ROLE — SIGTERM, until the process is gone.
ha_stop_role() { stop_pid "${HA_PID[$1]:-}"; HA_PID[$1]=; }

# catch_up CFG RUN A B — the catch-up timing: standby B current, CATCHUP files created through
# the active A, A rolls; until B applied the segment. Rows into results.csv.
catch_up() {
  local cfg=$1 run=$2 a=$3 b=$4 before last t0 t_roll r t_read t_loaded line n
  before=$(roll) || return 1
  ha_until "$b" "$TIMEOUT" --state standby --txid "$before" > /dev/null || return 1
  nnbench_clients "$CLUSTER_CONF" "$CATCHUP" "$CLIENTS" "/hat-catchup" "$HA_WORK/catchup.out" \
    "ha-timings catch-up $cfg run $run" \
    || { keep_log "$HA_WORK/catchup.out" ha-timings "$cfg-run$run-catchup.out"; echo "catch-up: NNBenchWithoutMR failed" >&2; return 1; }
  t0=$(now_ms)
  last=$(roll) || return 1
  r=$(ha_until "$b" "$TIMEOUT" --state standby --txid "$last") || return 1
  t_roll=$(log_event_ms "$a" "$t0" "Starting log segment at $((last + 1))")
  t_read=$(log_event_ms "$b" "$t0" "expecting start txid #$((before + 1))")
  line=$(log_line_after "$b" "$t0" "edits starting from txid $before ")
  t_loaded=$(log_event_ms "$b" "$t0" "edits starting from txid $before ")
  n=$(sed -n 's/.*Loaded \([0-9]*\) edits starting from txid.*/\1/p' <<<"$line")
  [ -n "$t_roll" ] && [ -n "$t_read" ] && [ -n "$t_loaded" ] && [ -n "$n" ] || {
    echo "catch-up: log lines not found (roll ${t_roll:-?}, read ${t_read:-?}, loaded ${t_loaded:-?} '$line')" >&2
    return 1
  }
  rec catch-up "$(secs "$t_roll" "$(awk '{print $2}' <<<"$r")")"
  rec catch-up-apply "$(secs "$t_read" "$t_loaded")"
  record ha-timings catch-up-edits "$THREADS" "$FILES" "$cfg" "$run" "$n" edits
  progress "." "." "ha-timings $cfg run $run: catch-up $(secs "$t_roll" "$(awk '{print $2}' <<<"$r")") s ($b applied $n edits in $(secs "$t_read" "$t_loaded") s)"
}

# timings CFG RUN — the timings in a started pair; rows into results.csv.
timings() {
  local cfg=$1 run=$2 a=$HA_ACTIVE b=$HA_STANDBY t0 t r out last x
  rec() { record ha-timings "$1" "$THREADS" "$FILES" "$cfg" "$run" "$2" s; }
  OPS=$HA_WORK/ops.log LOAD_OUT=$HA_WORK/load.out
  rm -f "$OPS" "$HA_WORK/stop"
  hclient_exec "$CLUSTER_CONF" org.nvmnn.workload.ha.HaLoad --log "$OPS" --stop "$HA_WORK/stop" --threads "$THREADS" \
    --root "/hat-load" --min-bytes 0 --max-bytes 0 --pause-ms "$PAUSE_MS" > "$LOAD_OUT" &
  ha_track load $!
  for _ in $(seq 1 600); do [ -n "$(ha_first_ack_after "$OPS" 0)" ] && break; ha_alive load || break; sleep 0.1; done
  [ -n "$(ha_first_ack_after "$OPS" 0)" ] || { echo "the load acknowledged nothing" >&2; cat "$LOAD_OUT" >&2; return 1; }
  sleep "$WARMUP"

  # catch-up: the standby b behind by CATCHUP files' edits, then the roll
  [ "$CATCHUP" = 0 ] || catch_up "$cfg" "$run" "$a" "$b" || return 1

  # failover: kill -9 of the active a; b takes over
  t0=$(now_ms); ha_kill "$a"
  out=$(first_ack_after_transition "$b" "$t0") || return 1
  rec failover "$(secs "$t0" "${out#* }")"; rec failover-begin "$(secs "$t0" "${out%% *}")"
  progress "." "." "ha-timings $cfg run $run: failover $(secs "$t0" "${out#* }") s ($a killed, $b began its transition after $(secs "$t0" "${out%% *}") s)"

  # rejoin: the killed a launched again, until standby
  t0=$(now_ms); ha_nn_launch "$a"
  r=$(ha_until "$a" "$TIMEOUT" --state standby) || return 1
  x=$(grep -c 'set aside as' "$(ha_log "$a")" || true)
  rec rejoin "$(secs "$t0" "$(awk '{print $2}' <<<"$r")")"
  progress "." "." "ha-timings $cfg run $run: rejoin $(secs "$t0" "$(awk '{print $2}' <<<"$r")") s ($a standby again$([ "$x" = 0 ] || echo ", its region set aside and rebuilt"))"

  # standby restart: a stopped, edits go on, the active rolls; a launched until standby with them
  ha_stop_role "$a"; sleep "$GAP"
  last=$(roll) || return 1
  t0=$(now_ms); ha_nn_launch "$a"
  r=$(ha_until "$a" "$TIMEOUT" --state standby --txid "$last") || return 1
  rec standby-restart "$(secs "$t0" "$(awk '{print $2}' <<<"$r")")"; rec standby-restart-load "$(load_time "$a")"
  progress "." "." "ha-timings $cfg run $run: standby restart $(secs "$t0" "$(awk '{print $2}' <<<"$r")") s (load $(load_time "$a") s; caught up to txid $last)"

  # active restart: a stopped as standby, edits go on, b (active) killed; one NameNode launched alone
  ha_stop_role "$a"; sleep "$GAP"
  ha_kill "$b"
  x=$([ "$RELAUNCH" = standby ] && echo "$a" || echo "$b")
  t0=$(now_ms); ha_nn_launch "$x"
  out=$(first_ack_after_transition "$x" "$t0") || return 1
  rec active-restart "$(secs "$t0" "${out#* }")"; rec active-restart-begin "$(secs "$t0" "${out%% *}")"
  rec active-restart-load "$(load_time "$x")"
  LAST_VALUE="active restart $(secs "$t0" "${out#* }") s ($x launched alone; load $(load_time "$x") s, transition began after $(secs "$t0" "${out%% *}") s)"

  touch "$HA_WORK/stop"
  for _ in $(seq 1 300); do ha_alive load || break; sleep 0.1; done
  ha_stop_role load
}

total=$(( $(wc -w <<<"$CONFIGS") * (1 + RUNS) ))
step=0
for cfg in $CONFIGS; do
  step=$((step + 1))
  w=$(bench_work); WORK_OF[$cfg]=$w
  t0=$(now_s)
  if build "$cfg" "$w"; then
    progress "$step" "$total" "ha-timings build $cfg, $FILES files (checkpoint: $([ "${cfg#stock}" != "$cfg" ] && echo "$CHECKPOINT" || echo none)): $(elapsed_s "$t0" "$(now_s)") s"
  else
    cluster_down; ha_keep_logs ha-timings "build-$cfg"; WORK_OF[$cfg]=""
    progress "$step" "$total" "ha-timings build $cfg: FAILED"
    echo "ha-timings-build,$cfg,$FILES" >> "$RESULTS/failures.txt"
  fi
done
for run in $(seq 1 "$RUNS"); do
  for cfg in $CONFIGS; do
    [ -n "${WORK_OF[$cfg]}" ] || continue
    step=$((step + 1))
    if restore "$cfg" "${WORK_OF[$cfg]}" && ha_bench_restart "$cfg" && timings "$cfg" "$run"; then
      progress "$step" "$total" "ha-timings $cfg run $run: $LAST_VALUE"
    else
      progress "$step" "$total" "ha-timings $cfg run $run: FAILED"
      echo "ha-timings,$cfg,$FILES,$run" >> "$RESULTS/failures.txt"
    fi
    cluster_down
    ha_keep_logs ha-timings "$cfg-run$run"
    keep_log "$HA_WORK/load.out" ha-timings "$cfg-run$run-load.out"
  done
done
