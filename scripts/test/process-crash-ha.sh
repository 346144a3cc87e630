# The HA mode of the process-crash test (HA=1), sourced by process-crash-test.sh after
# cluster-lib.sh and ha-lib.sh; it uses the driver's helpers and variables (work, shm, cconf,
# control, KILLS, LEASE_HARD_LIMIT, RESTART_TIMEOUT, NVM, publish, start_writer, wait_verified,
# now_ms, secs, acked, snapshot_acked, snapshot_preview, abort, kills). The cluster is ha-lib's:
# ZooKeeper, three JournalNodes, nn1 and nn2 with a ZKFC each (automatic failover), two
# DataNodes; the workload reaches hdfs://ha through the failover proxy provider. A round: SIGKILL of the active NameNode, the
# ZKFC fails over, the new active serves (epoch k published: the workload resolves and verifies),
# the killed NameNode restarts and must be standby before the next kill. On
# every JN_KILL_EVERY-th kill a JournalNode (jn1, jn2, jn3 in turn) is SIGKILLed at a random
# moment of the gap and restarted once the killed NameNode is standby again.
#
# Settings: JN_KILL_EVERY (5; 0 = never), FAILOVER_TIMEOUT (120 s from the kill to the other
# NameNode reporting active; with a JournalNode down a failover takes up to 40 s here),
# CLIENT_FAILOVER_ATTEMPTS (ha-lib's 60: the client's dfs.client.failover.max.attempts; 1 makes a
# call in flight at a kill fail after one try at the other NameNode, which is then still standby,
# so it is resolved as in doubt instead of being re-sent until the new active answers it); NVM=true (both NVM), false (both stock), mixed (nn1 NVM, nn2 stock).
# Both NameNodes run with dfs.namenode.nvm.snapshots.preview=true unless MAX_SNAPSHOTS=0 (a stock
# NameNode accepts snapshot operations anyway and ignores the key).

JN_KILL_EVERY=${JN_KILL_EVERY:-5}
FAILOVER_TIMEOUT=${FAILOVER_TIMEOUT:-120}
export HJAVA_HEAP=${HJAVA_HEAP:--Xmx512m}   # ZooKeeper, JournalNodes, DataNodes (as ha-demo)
HA_NN_HEAP=${HA_NN_HEAP:--Xmx1g}

PC_ACTIVE=             # the NameNode that is active
JN_AT_MS=              # this gap's JournalNode kill, ms into the gap; empty: none
JN_DOWN= T_JN_KILL=0   # the JournalNode killed in this gap, and when
jn_kills=0
ha_killed=() ha_failovers=() ha_reported=() ha_backs=() ha_verdicts=() ha_rebuild_ms=() ha_recovery_ms=()
ha_failovers_up=() ha_failovers_jn=() ha_backs_up=() ha_backs_jn=()   # by JournalNodes all up / one down
ha_inflight=0 ha_jns=()

ha_label() {
  [ "$(conf_get "$(ha_conf "$1")/hdfs-site.xml" dfs.namenode.nvm.enabled)" = true ] && echo "$1 (NVM)" || echo "$1 (stock)"
}

# ha_pc_launch_nn NN — NN's NameNode process: ShortLeaseNameNode (shortened lease limits, as in
# the single-NameNode mode) unless LEASE_HARD_LIMIT=0.
ha_pc_launch_nn() {
  if [ "$LEASE_HARD_LIMIT" -gt 0 ]; then
    HJAVA_HEAP=$HA_NN_HEAP ha_nn_start "$1" -Dnvmnn.lease.hard-limit-ms=$((LEASE_HARD_LIMIT * 1000)) \
      org.nvmnn.workload.ShortLeaseNameNode
  else
    HJAVA_HEAP=$HA_NN_HEAP ha_nn_start "$1"
  fi
}

# nn_safemode_off NN — whether NN (active or standby) reports safe mode off (dfsadmin asks every
# NameNode of the nameservice and names each by address).
nn_safemode_off() {
  local addr; addr=$(conf_get "$cconf/hdfs-site.xml" "dfs.namenode.rpc-address.$HA_NS.$1")
  dfsadmin "$cconf" -safemode get 2>/dev/null | grep "Safe mode is OFF in .*$addr\$" > /dev/null
}

# nn_wait_safemode_off NN SECONDS
nn_wait_safemode_off() {
  local deadline=$(($(date +%s) + $2))
  until nn_safemode_off "$1"; do
    ha_alive "$1" || { ha_show_log "$1" 30; return 1; }
    [ "$(date +%s)" -lt "$deadline" ] || { echo "$1 still in safe mode after $2 s" >&2; ha_show_log "$1" 20; return 1; }
    sleep 0.5
  done
}

# ha_cluster_up — the cluster, nn1 active and nn2 standby (bootstrapped from nn1), both out of
# safe mode with the two DataNodes; sets cconf (the client conf dir) and PC_ACTIVE.
ha_cluster_up() {
  local nvm1 nvm2 t0
  case $NVM in
    true) nvm1=true nvm2=true ;;
    false) nvm1=false nvm2=false ;;
    mixed) nvm1=true nvm2=false ;;
    *) echo "NVM must be true, false or mixed with HA=1 (not '$NVM')" >&2; return 1 ;;
  esac
  ha_write_confs "$work" "$shm" "$nvm1" "$nvm2"
  snapshot_preview "$(ha_conf nn1)"; snapshot_preview "$(ha_conf nn2)"
  cconf=$(ha_conf client)
  [ -z "${CLIENT_FAILOVER_ATTEMPTS:-}" ] || conf_put "$cconf/hdfs-site.xml" dfs.client.failover.max.attempts "$CLIENT_FAILOVER_ATTEMPTS"
  zk_start || return 1
  jn_start_all || return 1
  zk_format || return 1
  nn_format_shared || return 1
  t0=$(now_ms)
  ha_pc_launch_nn nn1; zkfc_start nn1
  nn_wait_state nn1 active || return 1
  echo "   $(ha_label nn1) pid ${HA_PID[nn1]}: active after $(secs "$t0" "$(now_ms)") s"
  nn_bootstrap nn2 || return 1
  t0=$(now_ms)
  ha_pc_launch_nn nn2; zkfc_start nn2
  nn_wait_state nn2 standby || return 1
  echo "   $(ha_label nn2) pid ${HA_PID[nn2]}: standby after $(secs "$t0" "$(now_ms)") s (bootstrapped from nn1)"
  ha_dn_start dn1; ha_dn_start dn2
  hclient "$cconf" org.nvmnn.workload.ReadyProbe --datanodes 2 --timeout-seconds "$RESTART_TIMEOUT" | grep '^safemode-off' > /dev/null \
    || { ha_show_log nn1; echo "the active NameNode did not leave safe mode with 2 DataNodes" >&2; return 1; }
  nn_wait_safemode_off nn2 "$RESTART_TIMEOUT" || return 1
  PC_ACTIVE=nn1
  echo "   ZooKeeper, JournalNodes $(for j in "${HA_JNS[@]}"; do printf '%s ' "${HA_PID[$j]}"; done)(pids), ZKFCs, DataNodes ${HA_PID[dn1]} ${HA_PID[dn2]}; nameservice $HA_NS; safe mode off on both NameNodes"
  ha_check_loopback | sed 's/^ *//; s/^/   /' || return 1
}

# ha_plan_jn K — JN_AT_MS: on every JN_KILL_EVERY-th kill a uniform moment of the gap (GAP_MS,
# from next_gap) at which a JournalNode is killed; empty otherwise.
ha_plan_jn() {
  JN_AT_MS=
  if [ "$JN_KILL_EVERY" -gt 0 ] && [ $(($1 % JN_KILL_EVERY)) -eq 0 ]; then
    JN_AT_MS=$(( (RANDOM * 32768 + RANDOM) % (GAP_MS + 1) ))
  fi
  return 0
}

# ha_kill_jn — SIGKILL of the next JournalNode in turn; the two others are the quorum meanwhile.
ha_kill_jn() {
  JN_DOWN=${HA_JNS[$((jn_kills % 3))]}
  jn_kills=$((jn_kills + 1))
  T_JN_KILL=$(now_ms)
  ha_kill "$JN_DOWN"
}

# first_ack_after MS — the ms of the first ACK any worker logged after MS (empty if none yet).
first_ack_after() { cat "$work"/ops/ops-t*.log | awk -v t="$1" '$3 == "ACK" && $1 > t { print $1 }' | sort -n | sed -n 1p; }

# acks_between FROM TO — ACK lines logged in [FROM, TO).
acks_between() { cat "$work"/ops/ops-t*.log | awk -v a="$1" -v b="$2" '$3 == "ACK" && $1 >= a && $1 < b' | wc -l; }

# region_verdict LOG FROM — what the NameNode whose start-up begins at line FROM of LOG decided
# about its region: "VERDICT|MS|TEXT", VERDICT one of servable, stock, rebuilt-AHEAD, rebuilt-GAP, unknown
# (ms: the rebuild's, or the region recovery's when servable).
region_verdict() {
  tail -n +"$2" "$1" | python3 -c '
import re, sys
verdict, ms, text, rec, waits = "unknown", "", [], None, 0
for line in sys.stdin:
    m = re.search(r"is servable with HA: (.*)", line)
    if m: verdict = "servable"; text.append("servable (" + m.group(1) + ")")
    m = re.search(r"not servable \((\w+): (.*?)\); set aside as (\S+)", line)
    if m: verdict = "rebuilt-" + m.group(1); text.append("NOT servable, set aside (" + m.group(1) + ": " + m.group(2) + ")")
    m = re.search(r"region rebuilt in (\d+) ms", line)
    if m: ms = m.group(1); text.append("rebuilt in " + ms + " ms")
    m = re.search(r"NVM region recovered (\d+) inodes in (\d+) ms", line)
    if m: rec = m.group(2); text.append("recovered " + m.group(1) + " inodes in " + rec + " ms")
    if "waiting for the shared journal to decide" in line: waits += 1
    if verdict == "unknown" and "Finished loading FSImage" in line: verdict = "stock"; text.append("stock: fsimage loaded")
if waits: text.append("waited for the journal to decide (%d log lines)" % waits)
if verdict == "servable" and rec is not None: ms = rec
print("%s|%s|%s" % (verdict, ms, "; ".join(text).replace("|", "/") or "no region decision in its log"))
'
}

# ha_round K — kill K: the active NameNode SIGKILLed, the failover, epoch K published, the killed
# NameNode back as standby (out of safe mode), the JournalNode killed in the gap restarted, the
# workload's verification of epoch K. Sets abort and returns 1 on a failure.
ha_round() {
  local k=$1 active=$PC_ACTIVE standby t_kill t_reported t_serving t_first probe log from t0 back
  local verdict vms vtext gap inflight indoubt jn_line="" jn_down=$JN_DOWN
  standby=$(ha_other "$active")
  namenodes_alive || { abort="a NameNode was gone before kill $k"; return 1; }
  t_kill=$(now_ms)
  ha_kill "$active"
  kills=$k
  ha_killed+=("$active")
  if ! nn_wait_state "$standby" active "$FAILOVER_TIMEOUT"; then
    abort="kill $k: $standby did not become active within $FAILOVER_TIMEOUT s of the kill of $active"; return 1
  fi
  t_reported=$(now_ms)
  probe=$(hclient "$cconf" org.nvmnn.workload.ReadyProbe --pid "${HA_PID[$standby]}" --datanodes 2 \
    --timeout-seconds "$RESTART_TIMEOUT" || true)
  if ! grep -q '^safemode-off' <<<"$probe"; then
    ha_show_log "$standby" 30
    abort="kill $k: the new active $standby did not serve (probe: $(tr '\n' ' ' <<<"$probe"))"; return 1
  fi
  PC_ACTIVE=$standby
  publish epoch "$k"
  [ "$k" -lt "$KILLS" ] && start_writer $((k + 1))

  # The killed NameNode: restarted, standby before the next kill. (Not necessarily out of safe
  # mode: a standby tails finalized segments only, so one whose namespace still has blocks the
  # active deleted since leaves safe mode only after the active's next log roll, up to
  # dfs.ha.log-roll.period, 2 min, later; when it becomes active it catches up first.)
  log=$(ha_log "$active")
  from=$(( $(wc -l < "$log") + 1 ))
  t0=$(now_ms)
  ha_pc_launch_nn "$active"
  if ! nn_wait_state "$active" standby "$RESTART_TIMEOUT"; then
    abort="kill $k: the killed $active did not come back as standby (log: $log)"; return 1
  fi
  back=$(secs "$t0" "$(now_ms)")
  IFS='|' read -r verdict vms vtext < <(region_verdict "$log" "$from")
  if [ "$verdict" = unknown ] && [ "$(conf_get "$(ha_conf "$active")/hdfs-site.xml" dfs.namenode.nvm.enabled)" = true ]; then
    abort="kill $k: $active is standby but its log has no decision about its region"; return 1
  fi
  ha_backs+=("$back") ha_verdicts+=("$verdict")
  if [ -z "$jn_down" ]; then ha_backs_up+=("$back"); else ha_backs_jn+=("$back"); fi
  case $verdict in
    rebuilt-*) [ -n "$vms" ] && ha_rebuild_ms+=("$vms") ;;
    servable) [ -n "$vms" ] && ha_recovery_ms+=("$vms") ;;
  esac

  if [ -n "$JN_DOWN" ]; then
    local t_up
    jn_start "$JN_DOWN" || { abort="kill $k: $JN_DOWN did not restart"; return 1; }
    t_up=$(now_ms)
    ha_jns+=("$JN_DOWN")
    jn_line=$(printf '%s SIGKILLed %s s before the NameNode, restarted %s s after it (down %s s; operations acknowledged meanwhile: %d before the NameNode kill, %d in all)' \
      "$JN_DOWN" "$(secs "$T_JN_KILL" "$t_kill")" "$(secs "$t_kill" "$t_up")" "$(secs "$T_JN_KILL" "$t_up")" \
      "$(acks_between "$T_JN_KILL" "$t_kill")" "$(acks_between "$T_JN_KILL" "$t_up")")
    JN_DOWN=
  fi

  wait_verified "$k" $(( $(date +%s) + 600 )) || { abort="verification after failover $k did not complete"; return 1; }

  # From the kill to the first operation the new active acknowledged: only it can answer once it
  # began its transition (an acknowledgement between the kill and then came from the killed
  # NameNode's last answers), as make ha-demo measures it.
  t_serving=$(log_event_ms "$standby" "$t_kill" "Starting services required for active state")
  t_first=
  if [ -n "$t_serving" ]; then
    for _ in $(seq 1 300); do
      t_first=$(first_ack_after "$t_serving")
      [ -n "$t_first" ] && break
      sleep 0.1
    done
  fi
  gap="?"
  if [ -n "$t_first" ]; then
    gap=$(secs "$t_kill" "$t_first"); ha_failovers+=("$gap")
    if [ -z "$jn_down" ]; then ha_failovers_up+=("$gap"); else ha_failovers_jn+=("$gap"); fi
  fi
  ha_reported+=("$(secs "$t_kill" "$t_reported")")
  # operations whose call started before the kill and that the new active acknowledged: the
  # client's failover proxy re-sent them
  inflight=$(cat "$work"/ops/ops-t*.log | awk -v k="$t_kill" -v s="${t_serving:-$t_kill}" \
    '$3 == "ACK" && $1 > s && $(NF - 1) == "started" && $NF < k' | wc -l)
  ha_inflight=$((ha_inflight + inflight))
  indoubt=$(cat "$work"/ops/ops-t*.log | awk -v k="$t_kill" '$3 == "INDOUBT" && $1 > k' | wc -l)
  # for analyses after the run (the ops logs, the NameNodes' audit logs): one line per kill, ms
  echo "$k $active $standby kill=$t_kill transition=${t_serving:-?} first-ack=${t_first:-?} jn-down=${jn_down:--}" >> "$work/kills.log"
  printf '   kill %2d after %6s s of workload: %s, the active, killed; %s acknowledged the first operation %s s later (reported active %s s after the kill); in flight at the kill and acknowledged by it: %d; failed calls since the kill (in doubt): %d; verified (%s acknowledged so far, %s snapshot ops)\n' \
    "$k" "$GAP" "$(ha_label "$active")" "$standby" "$gap" "$(secs "$t_kill" "$t_reported")" "$inflight" "$indoubt" "$(acked)" "$(snapshot_acked)"
  printf '           %s restarted: standby %s s after its launch; region: %s\n' "$active" "$back" "$vtext"
  [ -z "$jn_line" ] || printf '           %s\n' "$jn_line"
  return 0
}

# ha_summary — the HA lines of the summary.
ha_summary() {
  local n1=0 n2=0 nn servable=0 ahead=0 gap=0 stock=0 v
  for nn in "${ha_killed[@]}"; do [ "$nn" = nn1 ] && n1=$((n1 + 1)) || n2=$((n2 + 1)); done
  for v in "${ha_verdicts[@]}"; do
    case $v in servable) servable=$((servable + 1)) ;; rebuilt-AHEAD) ahead=$((ahead + 1)) ;; rebuilt-GAP) gap=$((gap + 1)) ;; stock) stock=$((stock + 1)) ;; esac
  done
  echo "   kills of the active NameNode: $kills of $KILLS (nn1 $n1, nn2 $n2); JournalNodes SIGKILLed and restarted: ${#ha_jns[@]}${ha_jns:+ (${ha_jns[*]})}"
  [ "${#ha_failovers[@]}" -gt 0 ] && echo "   failover, kill -9 of the active to the first operation the new active acknowledged (s): $(stats "${ha_failovers[@]}") (${#ha_failovers[@]} kills)"
  [ "${#ha_failovers_up[@]}" -gt 0 ] && echo "     with the three JournalNodes up (s): $(stats "${ha_failovers_up[@]}") (${#ha_failovers_up[@]} kills)"
  [ "${#ha_failovers_jn[@]}" -gt 0 ] && echo "     with a JournalNode down (s):        $(stats "${ha_failovers_jn[@]}") (${#ha_failovers_jn[@]} kills)"
  [ "${#ha_reported[@]}" -gt 0 ] && echo "   failover, kill -9 to the other NameNode reporting active (getServiceState polls, s): $(stats "${ha_reported[@]}")"
  [ "${#ha_backs[@]}" -gt 0 ] && echo "   killed NameNode, launch to standby (s): $(stats "${ha_backs[@]}")"
  [ "${#ha_backs_up[@]}" -gt 0 ] && echo "     with the three JournalNodes up (s): $(stats "${ha_backs_up[@]}")"
  [ "${#ha_backs_jn[@]}" -gt 0 ] && echo "     with a JournalNode down (s):        $(stats "${ha_backs_jn[@]}")"
  echo "   restarted NameNode's region: servable $servable, set aside and rebuilt $((ahead + gap)) (ahead of the quorum $ahead, gap $gap)$([ "$stock" -gt 0 ] && echo ", stock NameNode $stock")"
  [ "${#ha_recovery_ms[@]}" -gt 0 ] && echo "   region recovery of a servable region (ms): $(stats "${ha_recovery_ms[@]}")"
  [ "${#ha_rebuild_ms[@]}" -gt 0 ] && echo "   region rebuild (ms): $(stats "${ha_rebuild_ms[@]}")"
  echo "   operations in flight at a kill that the new active acknowledged (re-sent by the client's failover proxy): $ha_inflight"
  return 0
}
