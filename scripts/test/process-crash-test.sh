#!/usr/bin/env bash
# make process-crash-test: an NVM NameNode and a DataNode as processes on loopback (region on
# /dev/shm, emulated persistence), the multi-threaded CrashWorkload (workloads module) logging
# every acknowledged operation, and KILLS times: SIGKILL the NameNode at a random moment,
# restart it, tell the workload (control/epoch), which resolves its in-flight operations and
# verifies its whole subtree against its model. At the end: block report, fsck, summary.
# Exit status 0 only if no acknowledged operation was lost and fsck says HEALTHY.
#
# Settings (environment): KILLS (20), SEED (printed; fixes the kill gaps and seeds each
# worker's choices; what a kill hits depends on timing, so a run cannot be replayed exactly),
# THREADS (4), MIN_GAP/MAX_GAP (2/8 s of workload between kills), TIME_LIMIT (1800 s for the
# kill loop), RESTART_TIMEOUT (120 s for a restarted NameNode to answer and leave safe mode),
# NVM (true; false = stock NameNode, edit log in the name dir).
# Experiment: ROLLBACK_REGION_AT=k (k >= 2) restarts the k-th time from a copy of the region
# taken at the previous kill, i.e. a NameNode that forgets acknowledged operations; the test
# must then report them as lost and fail (docs/process-crash-test.md).
set -euo pipefail
source "$(dirname "$0")/../cluster-lib.sh"
require_dist

KILLS=${KILLS:-20}
SEED=${SEED:-$(date +%s)}
THREADS=${THREADS:-4}
MIN_GAP=${MIN_GAP:-2}
MAX_GAP=${MAX_GAP:-8}
TIME_LIMIT=${TIME_LIMIT:-1800}
RESTART_TIMEOUT=${RESTART_TIMEOUT:-120}
NVM=${NVM:-true}
ROLLBACK_REGION_AT=${ROLLBACK_REGION_AT:-0}
RANDOM=$SEED

work=$(mktemp -d /tmp/nvm-pcrash.XXXXXX)
shm=$(mktemp -d /dev/shm/nvm-pcrash.XXXXXX)
conf="$work/conf" control="$work/control" region="$shm/namespace.region"
NN_PID= DN_PID= WL_PID=
cleanup() {
  [ -n "$WL_PID" ] && kill "$WL_PID" 2>/dev/null || true
  stop_pid "$DN_PID"; stop_pid "$NN_PID"; rm -rf "$shm"; echo "(logs kept in $work)"
}
trap cleanup EXIT

now_ms() { date +%s%3N; }
secs() { python3 -c "print('%.2f' % (($2 - $1) / 1000.0))"; }
stats() { python3 -c "import sys, statistics as s; v=[float(x) for x in sys.argv[1:]]; print('min %.2f, median %.2f, max %.2f' % (min(v), s.median(v), max(v)))" "$@"; }
acked() { cat "$work"/ops/ops-*.log 2>/dev/null | grep -c ' ACK ' || true; }

launch_nn() { nn_start "$conf"; T_LAUNCH=$(now_ms); }

# await_nn — times the launched NameNode with ReadyProbe (one JVM polling every 25 ms): sets
# T_ANSWER and T_SAFEMODE, seconds from launch to the first answered RPC / to safe mode off
# with the DataNode registered.
await_nn() {
  local t0=$T_LAUNCH out
  out=$(hclient "$conf" org.nvmnn.workload.ReadyProbe --pid "$NN_PID" --datanodes 1 --timeout-seconds "$RESTART_TIMEOUT" || true)
  if ! grep -q '^safemode-off' <<<"$out"; then
    echo "   NameNode did not answer and leave safe mode within $RESTART_TIMEOUT s (probe: $(tr '\n' ' ' <<<"$out"))" >&2
    { grep -h -E 'The reported blocks|Exiting with status|FATAL' "$conf/logs/namenode.log" || true; } | tail -1 | sed 's/^/   log: /' >&2
    return 1
  fi
  T_ANSWER=$(secs "$t0" "$(awk '/^answered/ {print $2}' <<<"$out")")
  T_SAFEMODE=$(secs "$t0" "$(awk '/^safemode-off/ {print $2}' <<<"$out")")
}

publish() { echo "$2" > "$control/$1.tmp"; mv "$control/$1.tmp" "$control/$1"; }

# wait_verified K DEADLINE — until every worker has verified epoch K.
wait_verified() {
  while :; do
    [ -f "$control/verified" ] && [ "$(cat "$control/verified")" -ge "$1" ] && return 0
    kill -0 "$WL_PID" 2>/dev/null || { echo "the workload exited early" >&2; return 1; }
    [ "$(date +%s)" -lt "$2" ] || { echo "the workload did not verify epoch $1 in time" >&2; return 1; }
    sleep 0.1
  done
}

# next_gap — GAP := MIN_GAP..MAX_GAP seconds, millisecond resolution. Not called in $(...):
# bash reseeds RANDOM in subshells, and the gaps are to follow from SEED.
next_gap() {
  local span=$(( (MAX_GAP - MIN_GAP) * 1000 + 1 ))
  local ms=$(( MIN_GAP * 1000 + (RANDOM * 32768 + RANDOM) % span ))
  printf -v GAP '%d.%03d' $((ms / 1000)) $((ms % 1000))
}

echo "== process-crash test: seed $SEED, $KILLS kills, $THREADS workload threads, ${MIN_GAP}-${MAX_GAP} s between kills, NVM=$NVM"
echo "   work dir $work; region $region"
write_conf "$conf" "$work/name" "$work/data" "$NVM" "$region"
# MiniDFSCluster's setting: leave safe mode as soon as the DataNode's block report reaches the
# threshold (the 30 s default extension would only add a fixed wait to every restart)
conf_set "$conf/hdfs-site.xml" dfs.namenode.safemode.extension 0
mkdir -p "$control"
nn_format "$conf"
launch_nn
dn_start "$conf"
await_nn
echo "   NameNode (pid $NN_PID) and DataNode (pid $DN_PID) started"

hclient_exec "$conf" org.nvmnn.workload.CrashWorkload --control "$control" --logs "$work/ops" \
  --threads "$THREADS" --seed "$SEED" > "$work/workload.out" &
WL_PID=$!
t_begin=$(date +%s)
abort=""
wait_verified 0 $((t_begin + 300)) || abort="the workload did not start"
[ -z "$abort" ] && echo "   workload (pid $WL_PID) running: $(head -1 "$work/workload.out")"

answers=() safemodes=() recoveries=() kills=0
for k in $(seq 1 "$KILLS"); do
  [ -z "$abort" ] || break
  if [ $(( $(date +%s) - t_begin )) -ge "$TIME_LIMIT" ]; then abort="time limit of $TIME_LIMIT s reached"; break; fi
  next_gap
  sleep "$GAP"
  old=$NN_PID
  kill_hard "$NN_PID"
  kills=$k
  if [ "$ROLLBACK_REGION_AT" -gt 0 ] && [ "$k" -eq $((ROLLBACK_REGION_AT - 1)) ]; then
    cp --sparse=always "$region" "$work/region.at-kill-$k"
  fi
  if [ "$k" -eq "$ROLLBACK_REGION_AT" ]; then
    cp --sparse=always "$work/region.at-kill-$((k - 1))" "$region"
    echo "   EXPERIMENT: region rolled back to its state at kill $((k - 1))"
  fi
  launch_nn
  await_nn || { abort="restart $k failed"; break; }
  [ "$NN_PID" != "$old" ] && ! kill -0 "$old" 2>/dev/null || { abort="the killed NameNode is still running"; break; }
  rec=""
  if [ "$NVM" = true ]; then
    rec=$(grep -h "NVM region recovered" "$conf/logs/namenode.log" | tail -1 | sed 's/.*NVM region \(recovered [^)]*)\).*/\1/')
    [ "$(grep -c "NVM region recovered" "$conf/logs/namenode.log")" -eq "$k" ] \
      || { abort="restart $k did not log a region recovery"; break; }
    recoveries+=("$(sed -n 's/.* in \([0-9]*\) ms.*/\1/p' <<<"$rec")")
  else
    rec=$(grep -h "Finished loading FSImage" "$conf/logs/namenode.log" | tail -1 | sed 's/.*Finished/stock: finished/')
  fi
  answers+=("$T_ANSWER") safemodes+=("$T_SAFEMODE")
  publish epoch "$k"
  wait_verified "$k" $(( $(date +%s) + 600 )) || { abort="verification after restart $k did not complete"; break; }
  printf '   kill %2d after %6s s of workload: answering %5s s, safe mode off %5s s after launch; %s; verified (%s acknowledged so far)\n' \
    "$k" "$GAP" "$T_ANSWER" "$T_SAFEMODE" "$rec" "$(acked)"
done

if [ -z "$abort" ]; then next_gap; sleep "$GAP"; fi   # a last stretch of workload, then a final verification
publish stop 1
wl_rc=0; wait "$WL_PID" || wl_rc=$?
WL_PID=
echo
echo "== workload (exit status $wl_rc)"
sed 's/^/   /' "$work/workload.out"
grep -h -E ' (LOST|NOT-ALL-OR-NOTHING|ERROR|VERIFY-FAILED|RESOLVE-FAILED|FATAL) ' "$work"/ops/ops-*.log | head -20 | sed 's/^/   /' || true

echo
echo "== fsck after a fresh block report"
fsck_ok=false
if kill -0 "$NN_PID" 2>/dev/null; then
  dfsadmin "$conf" -triggerBlockReport "$(conf_get "$conf/hdfs-site.xml" dfs.datanode.ipc.address)" >/dev/null || true
  sleep 3
  fsck=$(hclient "$conf" org.apache.hadoop.hdfs.tools.DFSck / -openforwrite || true)
  # (the dots fsck prints per file end up in front of "Status:")
  grep -E "Status:|Total dirs|Total files|Total blocks|Minimally|Under-replicated|Corrupt blocks|MISSING|is HEALTHY|is CORRUPT" \
    <<<"$fsck" | sed 's/^\.*//; s/^ */   /'
  if grep -q 'Status: HEALTHY' <<<"$fsck" && grep -qE 'Corrupt blocks:\s+0$' <<<"$fsck" && ! grep -q 'MISSING' <<<"$fsck"; then
    fsck_ok=true
  fi
fi
echo "$fsck" > "$work/fsck.out"

echo
where=$([ "$NVM" = true ] && echo "region on tmpfs, emulated persistence" || echo "stock NameNode, edit log in $work/name")
echo "== summary (seed $SEED; $where)"
echo "   kills: $kills of $KILLS"
grep -E '^(kills:|in doubt resolved|lost operations)' "$work/workload.out" | sed 's/^/   workload: /' || true
if [ "${#answers[@]}" -gt 0 ]; then
  echo "   restart, NameNode launch to first answered RPC (s): $(stats "${answers[@]}")"
  echo "   restart, NameNode launch to safe mode off (s):      $(stats "${safemodes[@]}")"
  [ "${#recoveries[@]}" -gt 0 ] && echo "   region recovery inside the NameNode (ms):           $(stats "${recoveries[@]}")"
fi
echo "   fsck: $($fsck_ok && echo HEALTHY, 0 corrupt, 0 missing || echo NOT HEALTHY or not run)"
fail=""
[ -n "$abort" ] && fail="$fail; $abort"
[ "$wl_rc" -eq 0 ] || fail="$fail; the workload reported failures (exit $wl_rc)"
$fsck_ok || fail="$fail; fsck"
if [ -z "$fail" ]; then
  echo "RESULT: PASS — $kills kills, no acknowledged operation lost, fsck HEALTHY"
else
  echo "RESULT: FAIL${fail}"; exit 1
fi
