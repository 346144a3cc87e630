#!/usr/bin/env bash
# make ha-demo: NameNode high availability with real processes on 127.0.0.1 — a ZooKeeper, three
# JournalNodes (the quorum journal), NameNodes nn1 and nn2 of nameservice "ha" with a ZKFC each
# (automatic failover, fencing shell(/bin/true)), two DataNodes, and a load client (HaLoad,
# workloads module) creating and renaming files through hdfs://ha and logging every acknowledged
# operation with its wall-clock ms. After LOAD_SECONDS the active NameNode is SIGKILLed; the
# demo measures the time from the kill to the first operation the new active acknowledges (from
# the client's log), restarts the killed NameNode until it is standby, lets the load run on, stops
# it and verifies (HaVerify) that every acknowledged create is there with its content and every
# acknowledged rename in effect: lost must be 0.
#
# MODE: nvm (both NameNodes in NVM mode, the default), stock (both stock), mixed (nn1 NVM, nn2
# stock; two rounds: NVM active -> stock takes over, then stock active -> NVM takes over), all
# (nvm, then mixed). ROUNDS (1; 2 for mixed): failovers per run, each killing whichever is active.
# LOAD_SECONDS (10), AFTER_SECONDS (5: load after the killed NameNode is standby again), THREADS (4),
# FAILOVER_TIMEOUT (60 s from the kill for the first acknowledged operation).
#
# Then a power-loss round (POWER_LOSS=1; 0 skips it): first the standby NameNode alone, then the
# whole cluster (every process above but the load client) is SIGKILLed at once and started again.
# PERSIST says where the NVM regions live and what a power loss leaves of them: emulated (the
# default) keeps them on tmpfs, which a reboot empties, so the demo deletes them and each NVM
# NameNode must rebuild its region from its newest fsimage and the shared journal on its own;
# disk (persist.mode=disk) keeps region and write-ahead log in the work directory, which the
# reboot keeps, and the NameNode replays its log. (A SIGKILL leaves the page cache to the
# kernel: what a real power loss does to a disk-mode region is the power-loss sweep's to show,
# docs/crash-consistency.md.)
set -euo pipefail
here=$(dirname "$0")
source "$here/../cluster-lib.sh"
source "$here/../ha-lib.sh"
require_dist

MODE=${MODE:-nvm}
if [ "$MODE" = all ]; then
  rc=0; results=()
  for m in nvm mixed; do
    if MODE=$m PERSIST=${PERSIST:-emulated} POWER_LOSS=${POWER_LOSS:-1} "$0"; then results+=("MODE=$m: passed"); else results+=("MODE=$m: FAILED"); rc=1; fi
  done
  printf '\n'; printf 'ha-demo %s\n' "${results[@]}"
  exit $rc
fi
case $MODE in
  nvm) nvm1=true nvm2=true ;;
  stock) nvm1=false nvm2=false ;;
  mixed) nvm1=true nvm2=false ;;
  *) echo "MODE must be nvm, stock, mixed or all (not '$MODE')" >&2; exit 2 ;;
esac
ROUNDS=${ROUNDS:-$([ "$MODE" = mixed ] && echo 2 || echo 1)}
LOAD_SECONDS=${LOAD_SECONDS:-10}
AFTER_SECONDS=${AFTER_SECONDS:-5}
THREADS=${THREADS:-4}
FAILOVER_TIMEOUT=${FAILOVER_TIMEOUT:-60}
POWER_LOSS=${POWER_LOSS:-1}
PERSIST=${PERSIST:-emulated}
case $PERSIST in
  emulated | disk) export NVM_PERSIST=$PERSIST ;;
  *) echo "PERSIST must be emulated or disk (not '$PERSIST')" >&2; exit 2 ;;
esac

work=$(mktemp -d /tmp/nvm-ha-demo.XXXXXX)
shm=$(mktemp -d /dev/shm/nvm-ha-demo.XXXXXX)
regions=$shm
[ "$PERSIST" = disk ] && regions=$work/regions && mkdir -p "$regions"
ops="$work/ops.log" stop="$work/stop"
cleanup() { ha_stop_all; rm -rf "$shm"; echo "(logs kept in $work)"; }
trap cleanup EXIT
export HJAVA_HEAP=${HJAVA_HEAP:--Xmx512m}
t_start=$(date +%s%3N)

step() { printf '\n== %s\n' "$*"; }
fail() { echo "FAILED (MODE=$MODE): $*" >&2; exit 1; }
now_ms() { date +%s%3N; }
secs() { python3 -c "print('%.2f' % (($2 - $1) / 1000.0))"; }
label() { [ "$(conf_get "$(ha_conf "$1")/hdfs-site.xml" dfs.namenode.nvm.enabled)" = true ] && echo "$1 (NVM)" || echo "$1 (stock)"; }
clock() { date -d "@${1:0:-3}.${1: -3}" +%T.%3N; }

zkfc_event_ms() { log_event_ms "zkfc${1#nn}" "$2" "$3"; }
# since T_KILL MS — "+S.SS s" from the kill, or "+? s"
since() { [ -n "$2" ] && echo "+$(secs "$1" "$2") s" || echo "+? s"; }


step "1. configure (MODE=$MODE): nn1 $([ "$nvm1" = true ] && echo NVM || echo stock), nn2 $([ "$nvm2" = true ] && echo NVM || echo stock); regions in $regions (persist.mode $PERSIST)"
ha_write_confs "$work" "$regions" "$nvm1" "$nvm2"
client=$(ha_conf client)
echo "   nameservice $HA_NS: nn1 at $(conf_get "$client/hdfs-site.xml" dfs.namenode.rpc-address.ha.nn1), nn2 at $(conf_get "$client/hdfs-site.xml" dfs.namenode.rpc-address.ha.nn2)"
echo "   shared edits: $(conf_get "$client/hdfs-site.xml" dfs.namenode.shared.edits.dir)"
echo "   ZooKeeper 127.0.0.1:$ZK_PORT; conf dirs: $work/conf/{zk,jn1,jn2,jn3,nn1,nn2,dn1,dn2,client}"

step "2. ZooKeeper, three JournalNodes; format: ZK (-formatZK), nn1 and the journal (-format)"
zk_start || fail "ZooKeeper did not start"
jn_start_all || fail "a JournalNode did not start"
echo "   ZooKeeper pid ${HA_PID[zk]}, JournalNodes pids ${HA_PID[jn1]} ${HA_PID[jn2]} ${HA_PID[jn3]}"
zk_format || fail "-formatZK"
nn_format_shared || fail "nn1 -format"

step "3. nn1 and its ZKFC; nn2 bootstrapped from nn1 (-bootstrapStandby), with its ZKFC; two DataNodes"
t0=$(now_ms)
ha_nn_start nn1; zkfc_start nn1
nn_wait_state nn1 active || fail "$(label nn1) did not become active"
echo "   $(label nn1) pid ${HA_PID[nn1]}: active after $(secs "$t0" "$(now_ms)") s (ZKFC pid ${HA_PID[zkfc1]})"
nn_bootstrap nn2 || fail "nn2 -bootstrapStandby"
t0=$(now_ms)
ha_nn_start nn2; zkfc_start nn2
nn_wait_state nn2 standby || fail "$(label nn2) did not become standby"
echo "   $(label nn2) pid ${HA_PID[nn2]}: standby after $(secs "$t0" "$(now_ms)") s (ZKFC pid ${HA_PID[zkfc2]})"
ha_dn_start dn1; ha_dn_start dn2
hclient "$client" org.nvmnn.workload.ReadyProbe --datanodes 2 --timeout-seconds 120 | grep '^safemode-off' > /dev/null \
  || { ha_show_log nn1; fail "the active NameNode did not leave safe mode with 2 DataNodes"; }
echo "   DataNodes pids ${HA_PID[dn1]} ${HA_PID[dn2]} registered; safe mode off"
ha_check_loopback || fail "a process listens outside 127.0.0.1"

step "4. the load: $THREADS threads creating (1-8 KiB, content from the name) and renaming files through hdfs://$HA_NS"
hclient_exec "$client" org.nvmnn.workload.ha.HaLoad --log "$ops" --stop "$stop" --threads "$THREADS" > "$work/load.out" &
ha_track load $!
for _ in $(seq 1 600); do
  [ -n "$(ha_first_ack_after "$ops" 0)" ] && break
  ha_alive load || { cat "$work/load.out" >&2; fail "the load client exited"; }
  sleep 0.1
done
[ -n "$(ha_first_ack_after "$ops" 0)" ] || fail "no operation acknowledged within 60 s"
sed 's/^/   /' "$work/load.out"
sleep "$LOAD_SECONDS"
echo "   $(grep -c ' ACK ' "$ops") operations acknowledged so far ($LOAD_SECONDS s after the first)"

gaps=() summary=()
for round in $(seq 1 "$ROUNDS"); do
  active=$(ha_active)
  [ -n "$active" ] || fail "no active NameNode before round $round"
  standby=$(ha_other "$active")
  step "$((4 + round)). round $round: kill -9 the active $(label "$active"); $(label "$standby") should take over"
  ha_alive load || { cat "$work/load.out" >&2; fail "the load client exited"; }
  t_kill=$(now_ms)
  ha_kill "$active"
  echo "   $(label "$active") killed at $(clock "$t_kill") (SIGKILL; its ZKFC keeps running)"
  # Only the new active acknowledges after it began its transition ("Starting services required for
  # active state": logged before it can serve, long after the killed NameNode could answer); an
  # acknowledgement between the kill and that line came from the killed NameNode's last answers.
  ack=
  while [ -z "$ack" ]; do
    t_serving=$(log_event_ms "$standby" "$t_kill" "Starting services required for active state")
    [ -n "$t_serving" ] && ack=$(ha_first_ack_after "$ops" "$t_serving")
    [ -n "$ack" ] && break
    ha_alive load || { cat "$work/load.out" >&2; fail "the load client exited"; }
    if [ $(($(now_ms) - t_kill)) -gt $((FAILOVER_TIMEOUT * 1000)) ]; then
      echo "   no operation acknowledged within $FAILOVER_TIMEOUT s of the kill; $standby is '$(nn_state "$standby")'" >&2
      ha_show_log "zkfc${standby#nn}" 20; ha_show_log "$standby" 30
      fail "no failover to $(label "$standby")"
    fi
    sleep 0.1
  done
  t_ack=${ack%% *}
  gap=$(secs "$t_kill" "$t_ack")
  nn_wait_state "$standby" active 30 || fail "$(label "$standby") acknowledged operations but is not active"
  started=$(sed -n 's/.* # started \([0-9]*\).*/\1/p' <<<"$ack")
  t_quit=$(zkfc_event_ms "$active" "$t_kill" "Quitting master election")
  t_active=$(zkfc_event_ms "$standby" "$t_kill" "to active state")
  printf '   %-8s ZKFC of %s: its NameNode does not answer; quits the election\n' "$(since "$t_kill" "$t_quit")" "$active"
  printf '   %-8s ZKFC of %s: fenced %s, %s transitioned to active\n' "$(since "$t_kill" "$t_active")" "$standby" "$active" "$standby"
  printf '   %-8s %s began its transition to active\n' "$(since "$t_kill" "$t_serving")" "$standby"
  printf '   %-8s the first operation the new active acknowledged (%s):\n' "+$gap s" \
    "$([ "${started:-$t_ack}" -lt "$t_kill" ] && echo "in flight at the kill, started $(secs "$started" "$t_kill") s before it" || echo "started after the kill")"
  echo "            $ack" | cut -c1-200
  echo "   failover: kill -9 of the active to the first acknowledged operation: $gap s"
  indoubt=$(awk -v t="$t_kill" '$3 == "INDOUBT" && $1 > t' "$ops" | wc -l)
  echo "   operations in doubt since the kill: $indoubt"
  awk -v t="$t_kill" '$3 != "ACK" && $1 > t' "$ops" | sed -n 1,6p | cut -c1-220 | sed 's/^/     /'
  gaps+=("$gap")

  t0=$(now_ms)
  ha_nn_start "$active"
  nn_wait_state "$active" standby 180 || fail "the restarted $(label "$active") did not become standby"
  back=$(secs "$t0" "$(now_ms)")
  echo "   $(label "$active") restarted (pid ${HA_PID[$active]}): standby after $back s"
  summary+=("round $round: $(label "$active") killed, $(label "$standby") acknowledged the first operation $gap s later; $active standby again $back s after its restart")
  sleep "$AFTER_SECONDS"
done

# lose_power ROLE... — what a power loss leaves of the NVM regions of these NameNodes (PERSIST)
lose_power() {
  local nn
  for nn in "$@"; do
    [ "$(conf_get "$(ha_conf "$nn")/hdfs-site.xml" dfs.namenode.nvm.enabled)" = true ] || continue
    if [ "$PERSIST" = emulated ]; then
      rm -f "$regions/$nn.region"
      echo "   $nn: its region on tmpfs is gone with the reboot ($regions/$nn.region deleted)"
    else
      echo "   $nn: its region and write-ahead log stay on the disk ($(du -sh "$regions/$nn.region" | cut -f1), log $(du -sh "$regions/$nn.region.wal" | cut -f1))"
    fi
  done
}

# restart_report NN SINCE_MS — how NN's NVM region came back at its last start
restart_report() {
  local line
  local text
  for text in "initialised for namespace" "region rebuilt in" "at this start" "applied from the shared journal" "NVM namesystem loaded in"; do
    line=$(log_line_after "$1" "$2" "$text")
    [ -n "$line" ] || continue
    line=$(sed -E 's/^[0-9:,]+ INFO [A-Za-z]+: //; s/ for namespace RegionIdentity.*//; s/(NVM region [^:]*): [0-9]+ bytes, (persistence mode [a-z]+), pmem_is_pmem=[a-z]+; .*(; replayed)/\1: \2\3/' <<<"$line")
    echo "   $1: $line"
  done
}

next=$((5 + ROUNDS))
if [ "$POWER_LOSS" = 1 ]; then
  standby=$(ha_other "$(ha_active)")
  step "$next. power loss of the standby $(label "$standby"): kill -9, reboot, restart"
  t_kill=$(now_ms)
  ha_kill "$standby"; ha_kill "zkfc${standby#nn}"
  lose_power "$standby"
  ha_nn_start "$standby"; zkfc_start "$standby"
  nn_wait_state "$standby" standby 180 || fail "$(label "$standby") did not become standby after its power loss"
  echo "   $(label "$standby") standby again $(secs "$t_kill" "$(now_ms)") s after the power loss"
  restart_report "$standby" "$t_kill"
  sleep "$AFTER_SECONDS"
  next=$((next + 1))

  step "$next. power loss of the whole cluster: every process but the load client killed at once; reboot; start in order"
  before=$(grep -c ' ACK ' "$ops")
  t_kill=$(now_ms)
  ha_kill_all
  echo "   ZooKeeper, 3 JournalNodes, 2 NameNodes, 2 ZKFCs, 2 DataNodes killed at $(clock "$t_kill") ($before operations acknowledged before)"
  lose_power nn1 nn2
  t_on=$(now_ms)
  zk_start || fail "ZooKeeper did not restart"
  jn_start_all || fail "a JournalNode did not restart"
  ha_nn_start nn1; zkfc_start nn1; ha_nn_start nn2; zkfc_start nn2
  ha_dn_start dn1; ha_dn_start dn2
  active=
  while [ -z "$active" ]; do
    for nn in nn1 nn2; do ha_alive "$nn" || { ha_show_log "$nn" 30; fail "$nn exited after the power loss"; }; done
    [ $(($(now_ms) - t_on)) -gt 300000 ] && fail "no active NameNode 300 s after the power came back"
    active=$(ha_active)
    sleep 0.3
  done
  standby=$(ha_other "$active")
  ack=
  while [ -z "$ack" ]; do
    t_serving=$(log_event_ms "$active" "$t_on" "Starting services required for active state")
    [ -n "$t_serving" ] && ack=$(ha_first_ack_after "$ops" "$t_serving")
    [ -n "$ack" ] && break
    ha_alive load || { cat "$work/load.out" >&2; fail "the load client exited"; }
    [ $(($(now_ms) - t_on)) -gt 300000 ] && fail "no operation acknowledged 300 s after the power came back"
    sleep 0.2
  done
  nn_wait_state "$standby" standby 180 || fail "$(label "$standby") did not become standby after the power loss"
  printf '   %-8s %s began its transition to active\n' "$(since "$t_on" "$t_serving")" "$active"
  printf '   %-8s the first operation acknowledged after the power came back\n' "$(since "$t_on" "${ack%% *}")"
  for nn in nn1 nn2; do restart_report "$nn" "$t_on"; done
  summary+=("power loss: the standby alone, then the whole cluster; $(label "$active") active and acknowledging $(secs "$t_on" "${ack%% *}") s after the power came back")
  sleep "$AFTER_SECONDS"
  next=$((next + 1))
fi

step "$next. stop the load; verify the namespace against its log"
touch "$stop"
for _ in $(seq 1 1200); do ha_alive load || break; sleep 0.1; done
ha_alive load && fail "the load client did not stop within 120 s"
set +e; wait "${HA_PID[load]}"; load_rc=$?; set -e
HA_PID[load]=
sed -n '2,$p' "$work/load.out" | sed 's/^/   /'
[ "$load_rc" = 0 ] || fail "the load client exited with $load_rc"
set +e
hclient "$client" org.nvmnn.workload.ha.HaVerify --log "$ops" > "$work/verify.out"
verify_rc=$?
set -e
sed -n '1,40s/^/   /p' "$work/verify.out"
lost=$(sed -n 's/^lost=//p' "$work/verify.out")
[ "$verify_rc" = 0 ] && [ "$lost" = 0 ] || fail "verification: lost=${lost:-?} (exit $verify_rc; $work/verify.out)"

echo
echo "RESULT (MODE=$MODE, PERSIST=$PERSIST): lost=0 after $ROUNDS failover(s)$([ "$POWER_LOSS" = 1 ] && echo " and a power-loss round"), $(($(now_ms) / 1000 - t_start / 1000)) s in all"
printf '   %s\n' "${summary[@]}"
echo "   kill -9 to the first acknowledged operation: ${gaps[*]} s"
sed -n 's/^verify: the log has /   the load: /p; s/^verify: /   verified: /p' "$work/verify.out"
