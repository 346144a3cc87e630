#!/usr/bin/env bash
# Helpers for an HA cluster as real processes on 127.0.0.1: a standalone ZooKeeper, three
# JournalNodes (the quorum journal), two NameNodes nn1/nn2 of nameservice "ha", a ZKFC per
# NameNode (automatic failover), DataNodes, and clients that reach "hdfs://ha" through
# ConfiguredFailoverProxyProvider. Source it after cluster-lib.sh (it builds on write_conf,
# free_ports, conf_put, hjava, hclient, nn_start, dn_start, kill_hard, stop_pid).
#
# Layout under HA_WORK (set by ha_write_confs): conf/<role> per process (nn1 nn2 jn1 jn2 jn3 dn1 dn2
# zk client), each with its logs/ ; data/<role> for the directories. Every process started here is
# recorded in HA_PID (role -> pid) and stopped by ha_stop_all, newest first.

HA_NS=ha
HA_NNS=(nn1 nn2)
HA_JNS=(jn1 jn2 jn3)
HA_DNS=(dn1 dn2)
declare -A HA_PID=()
HA_STARTED=()   # roles in start order (a restarted role appears again)

ha_conf() { echo "$HA_WORK/conf/$1"; }

# ha_track ROLE PID — records a started process.
ha_track() { HA_PID[$1]=$2; HA_STARTED+=("$1"); }

# ha_stop_all — SIGTERM to every recorded process still running, newest first; waits for each.
ha_stop_all() {
  local i role pid
  for ((i = ${#HA_STARTED[@]} - 1; i >= 0; i--)); do
    role=${HA_STARTED[$i]}; pid=${HA_PID[$role]:-}
    [ -n "$pid" ] || continue
    stop_pid "$pid"
    HA_PID[$role]=
  done
}

# ha_alive ROLE — whether the recorded process of ROLE is running.
ha_alive() { local pid=${HA_PID[$1]:-}; [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; }

# ha_log ROLE — the log file of a role's process.
ha_log() {
  case $1 in
    nn*) echo "$(ha_conf "$1")/logs/namenode.log" ;;
    zkfc*) echo "$(ha_conf "nn${1#zkfc}")/logs/zkfc.log" ;;
    jn*) echo "$(ha_conf "$1")/logs/journalnode.log" ;;
    dn*) echo "$(ha_conf "$1")/logs/datanode.log" ;;
    zk) echo "$(ha_conf zk)/logs/zookeeper.log" ;;
    *) echo "$(ha_conf client)/logs/client.log" ;;
  esac
}

# ha_show_log ROLE [LINES] — the tail of a role's log on stderr, for a failure report.
ha_show_log() {
  local f; f=$(ha_log "$1")
  echo "---- last ${2:-25} lines of $f" >&2
  tail -n "${2:-25}" "$f" >&2 2>/dev/null || echo "(no log)" >&2
  echo "----" >&2
}

# wait_port PORT ROLE [SECONDS] — until 127.0.0.1:PORT accepts connections; fails if ROLE exits.
wait_port() {
  local port=$1 role=$2 i
  for ((i = 0; i < ${3:-60} * 5; i++)); do
    ha_alive "$role" || { echo "$role exited during start-up" >&2; ha_show_log "$role"; return 1; }
    python3 -c "import socket, sys; socket.create_connection(('127.0.0.1', $port), 1).close()" 2>/dev/null && return 0
    sleep 0.2
  done
  echo "$role did not listen on 127.0.0.1:$port in time" >&2; ha_show_log "$role"; return 1
}

# zk_write_conf — ZooKeeper's conf dir: zoo.cfg on ZK_PORT (a config file rather than
# "<port> <dataDir>" so that it binds 127.0.0.1 only) and a log4j.properties.
zk_write_conf() {
  local conf; conf=$(ha_conf zk)
  mkdir -p "$conf/logs" "$HA_WORK/data/zk"
  cat > "$conf/zoo.cfg" <<CFG
tickTime=500
dataDir=$HA_WORK/data/zk
clientPort=$ZK_PORT
clientPortAddress=127.0.0.1
maxClientCnxns=100
CFG
  cp "$(ha_conf client)/log4j.properties" "$conf/"
}

# zk_start — a standalone ZooKeeper server (zookeeper-3.4.6.jar), until it answers "ruok".
zk_start() {
  local conf; conf=$(ha_conf zk)
  HJAVA_HEAP=-Xmx256m hjava "$conf" org.apache.zookeeper.server.ZooKeeperServerMain "$conf/zoo.cfg" \
    >> "$(ha_log zk)" 2>&1 &
  ha_track zk $!
  local i
  for ((i = 0; i < 300; i++)); do
    ha_alive zk || { echo "ZooKeeper exited" >&2; ha_show_log zk; return 1; }
    [ "$(python3 - "$ZK_PORT" <<'PY' 2>/dev/null
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), 1)
s.sendall(b"ruok"); print(s.recv(4).decode()); s.close()
PY
)" = imok ] && return 0
    sleep 0.2
  done
  echo "ZooKeeper did not answer ruok in time" >&2; ha_show_log zk; return 1
}

# conf_del FILE NAME — removes a property from a *-site.xml written by write_conf.
conf_del() { sed -i "\#<name>$2</name>#d" "$1"; }

# ha_write_confs WORK SHM NN1_NVM NN2_NVM — one conf dir per process (write_conf's files, the
# single-NameNode addresses replaced by the nameservice's), ZooKeeper's, the NVM regions in SHM.
ha_write_confs() {
  HA_WORK=$1
  local shm=$2 nvm1=$3 nvm2=$4 role nn i
  local -a props=()
  free_ports ZK_PORT
  local -A nn_rpc=() nn_http=() zkfc=()
  for nn in "${HA_NNS[@]}"; do free_ports "nn_rpc[$nn]" "nn_http[$nn]" "zkfc[$nn]"; done
  local -a jn_rpc=() jn_http=() qj=()
  for i in 0 1 2; do free_ports "jn_rpc[$i]" "jn_http[$i]"; qj+=("127.0.0.1:${jn_rpc[$i]}"); done
  props+=(
    "core-site.xml fs.defaultFS hdfs://$HA_NS"
    "core-site.xml ha.zookeeper.quorum 127.0.0.1:$ZK_PORT"
    "hdfs-site.xml dfs.nameservices $HA_NS"
    "hdfs-site.xml dfs.ha.namenodes.$HA_NS nn1,nn2"
    "hdfs-site.xml dfs.namenode.shared.edits.dir qjournal://$(IFS=';'; echo "${qj[*]}")/$HA_NS"
    "hdfs-site.xml dfs.client.failover.proxy.provider.$HA_NS org.apache.hadoop.hdfs.server.namenode.ha.ConfiguredFailoverProxyProvider"
    "hdfs-site.xml dfs.ha.automatic-failover.enabled true"
    "hdfs-site.xml dfs.ha.fencing.methods shell(/bin/true)"
    "hdfs-site.xml dfs.ha.tail-edits.period 1"
    "hdfs-site.xml dfs.replication 2"
    "hdfs-site.xml dfs.namenode.safemode.extension 0"
  )
  for nn in "${HA_NNS[@]}"; do
    props+=(
      "hdfs-site.xml dfs.namenode.rpc-address.$HA_NS.$nn 127.0.0.1:${nn_rpc[$nn]}"
      "hdfs-site.xml dfs.namenode.http-address.$HA_NS.$nn 127.0.0.1:${nn_http[$nn]}"
      "hdfs-site.xml dfs.ha.zkfc.port.$HA_NS.$nn ${zkfc[$nn]}"
    )
  done
  # a client's failover proxy: 2.7.3 backs off 500 ms * 2^n (up to 15 s) between failovers, which
  # would measure its own sleeps more than the failover; these keep its retries close together
  local -a client_props=(
    "hdfs-site.xml dfs.client.failover.sleep.base.millis 100"
    "hdfs-site.xml dfs.client.failover.sleep.max.millis 1000"
    "hdfs-site.xml dfs.client.failover.max.attempts 60"
  )
  local -A nvm=([nn1]=$nvm1 [nn2]=$nvm2)
  for role in "${HA_NNS[@]}" "${HA_JNS[@]}" "${HA_DNS[@]}" client; do
    local dir; dir=$(ha_conf "$role")
    case $role in
      nn*) write_conf "$dir" "$HA_WORK/data/$role/name" "$HA_WORK/data/$role/unused" "${nvm[$role]}" "$shm/$role.region" ;;
      *) write_conf "$dir" "$HA_WORK/data/$role/name" "$HA_WORK/data/$role/data" false ;;
    esac
    conf_del "$dir/hdfs-site.xml" dfs.namenode.rpc-address
    conf_del "$dir/hdfs-site.xml" dfs.namenode.http-address
    local s f k v
    for s in "${props[@]}"; do read -r f k v <<< "$s"; conf_put "$dir/$f" "$k" "$v"; done
    case $role in
      nn*) conf_put "$dir/hdfs-site.xml" dfs.ha.namenode.id "$role" ;;
      jn*)
        i=$((${role#jn} - 1))
        conf_put "$dir/hdfs-site.xml" dfs.journalnode.rpc-address "127.0.0.1:${jn_rpc[$i]}"
        conf_put "$dir/hdfs-site.xml" dfs.journalnode.http-address "127.0.0.1:${jn_http[$i]}"
        conf_put "$dir/hdfs-site.xml" dfs.journalnode.edits.dir "$HA_WORK/data/$role/edits"
        ;;
      client) for s in "${client_props[@]}"; do read -r f k v <<< "$s"; conf_put "$dir/$f" "$k" "$v"; done ;;
    esac
  done
  zk_write_conf
}

# jn_launch JN — a JournalNode process in the background (recorded; not waited for).
jn_launch() {
  local conf; conf=$(ha_conf "$1"); mkdir -p "$conf/logs"
  hjava "$conf" org.apache.hadoop.hdfs.qjournal.server.JournalNode >> "$(ha_log "$1")" 2>&1 &
  ha_track "$1" $!
}

# jn_wait JN — until the JournalNode listens on its RPC port (fails if it exits).
jn_wait() { wait_port "$(conf_get "$(ha_conf "$1")/hdfs-site.xml" dfs.journalnode.rpc-address | cut -d: -f2)" "$1"; }

# jn_start JN — one JournalNode (again, after ha_kill), until it listens on its RPC port.
jn_start() { jn_launch "$1"; jn_wait "$1"; }

# jn_start_all — the three JournalNodes, until each listens on its RPC port.
jn_start_all() {
  local jn
  for jn in "${HA_JNS[@]}"; do jn_launch "$jn"; done
  for jn in "${HA_JNS[@]}"; do jn_wait "$jn" || return 1; done
}

# ha_run ROLE LOGNAME MAIN ARGS... — a one-shot command with ROLE's conf; its output in
# conf/ROLE/LOGNAME.log, shown (tail) if it fails.
ha_run() {
  local role=$1 name=$2 conf; shift 2; conf=$(ha_conf "$role")
  if ! (hjava "$conf" "$@") > "$conf/$name.log" 2>&1; then
    echo "$role: '$*' failed; the tail of $conf/$name.log:" >&2
    tail -n 25 "$conf/$name.log" >&2
    return 1
  fi
}

zk_format() { ha_run nn1 formatZK org.apache.hadoop.hdfs.tools.DFSZKFailoverController -formatZK -force -nonInteractive; }

# nn_format_shared — formats nn1's name directory and the JournalNodes (the shared edits dir).
nn_format_shared() { ha_run nn1 format org.apache.hadoop.hdfs.server.namenode.NameNode -format -force -nonInteractive; }

# nn_bootstrap NN — copies the running other NameNode's namespace into NN's name directory.
nn_bootstrap() { ha_run "$1" bootstrap org.apache.hadoop.hdfs.server.namenode.NameNode -bootstrapStandby -force -nonInteractive; }

# ha_nn_start NN [JVM-OPTIONS... MAIN] — a NameNode (cluster-lib's nn_start with NN's conf; the
# optional arguments as nn_start's).
ha_nn_start() { local nn=$1; shift; nn_start "$(ha_conf "$nn")" "$@"; ha_track "$nn" "$NN_PID"; }

# zkfc_start NN — the ZKFC of NN (its conf: dfs.ha.namenode.id tells it which NameNode is local).
zkfc_start() {
  local conf; conf=$(ha_conf "$1")
  mkdir -p "$conf/logs"
  HJAVA_HEAP=-Xmx256m hjava "$conf" org.apache.hadoop.hdfs.tools.DFSZKFailoverController >> "$(ha_log "zkfc${1#nn}")" 2>&1 &
  ha_track "zkfc${1#nn}" $!
}

ha_dn_start() { dn_start "$(ha_conf "$1")"; ha_track "$1" "$DN_PID"; }

# nn_state NN — "active" or "standby" as DFSHAAdmin -getServiceState answers, "down" if it does not.
nn_state() {
  local s
  s=$(NVM_JAVA_OPTS="${NVM_JAVA_OPTS:-} -XX:TieredStopAtLevel=1" \
    hclient "$(ha_conf client)" org.apache.hadoop.hdfs.tools.DFSHAAdmin -getServiceState "$1" 2>/dev/null) || s=down
  echo "${s:-down}"
}

# nn_wait_state NN STATE [SECONDS] — until NN reports STATE; fails, showing its log, if the
# NameNode process exits or the time (default 120 s) runs out.
nn_wait_state() {
  local nn=$1 want=$2 deadline=$(($(date +%s) + ${3:-120})) s
  while :; do
    if ! ha_alive "$nn"; then
      ha_show_log "$nn" 30
      echo "$nn exited (it was to become $want); the exception it exited with:" >&2
      { grep -m1 -E '^[A-Za-z0-9_.$]+(Exception|Error)(: |$)' "$(ha_log "$nn")" || echo "(none in its log)"; } | sed 's/^/   /' >&2
      return 1
    fi
    s=$(nn_state "$nn")
    [ "$s" = "$want" ] && return 0
    if [ "$(date +%s)" -ge "$deadline" ]; then
      echo "$nn is '$s', not '$want', after ${3:-120} s" >&2
      ha_show_log "$nn" 30; ha_show_log "zkfc${nn#nn}" 15; return 1
    fi
    sleep 0.3
  done
}

# ha_active — the NameNode that reports "active" ("" if none does).
ha_active() {
  local nn
  for nn in "${HA_NNS[@]}"; do
    ha_alive "$nn" && [ "$(nn_state "$nn")" = active ] && { echo "$nn"; return 0; }
  done
  echo ""
}

ha_other() { [ "$1" = nn1 ] && echo nn2 || echo nn1; }

# ha_kill ROLE — SIGKILL, until the process is gone.
ha_kill() { kill_hard "${HA_PID[$1]}"; HA_PID[$1]=; }

# ha_kill_all — SIGKILL to every recorded process still running except the load client, all at
# once (as a power loss stops them), then until each is gone.
ha_kill_all() {
  local role pids=()
  for role in "${!HA_PID[@]}"; do
    [ "$role" = load ] && continue
    [ -n "${HA_PID[$role]}" ] && pids+=("${HA_PID[$role]}") && HA_PID[$role]=
  done
  [ ${#pids[@]} -gt 0 ] || return 0
  disown "${pids[@]}" 2>/dev/null || true
  kill -9 "${pids[@]}" 2>/dev/null || true
  local pid
  for pid in "${pids[@]}"; do while kill -0 "$pid" 2>/dev/null; do sleep 0.05; done; done
}

# ha_check_loopback — every TCP socket the recorded processes listen on is on 127.0.0.1; prints
# the count, or the others and fails.
ha_check_loopback() {
  local pids role pid listen others
  pids=$(for role in "${!HA_PID[@]}"; do pid=${HA_PID[$role]}; [ -n "$pid" ] && echo "pid=$pid,"; done)
  listen=$(ss -ltnpH | grep -F -f <(echo "$pids") | awk '{print $4}')
  others=$(grep -v '^127\.0\.0\.1:' <<<"$listen" || true)
  if [ -n "$others" ]; then
    echo "   listening outside 127.0.0.1: $(echo $others)" >&2; return 1
  fi
  echo "   $(grep -c . <<<"$listen") listening TCP sockets of these processes, all on 127.0.0.1"
}

# log_event_ms ROLE SINCE_MS TEXT — when ROLE's process log (ha_log's names: nn1, zkfc1, …)
# first logged a line containing TEXT after SINCE_MS (epoch ms; the log has the time of day only,
# read as of SINCE_MS's day), or nothing.
log_event_ms() { log_scan "$1" "$2" "$3" time; }

# log_line_after ROLE SINCE_MS TEXT — that line itself (as log_event_ms finds it), or nothing.
log_line_after() { log_scan "$1" "$2" "$3" line; }

log_scan() {
  python3 - "$(ha_log "$1")" "$2" "$3" "$4" <<'PY'
import datetime, re, sys
log, since, text, what = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
day = datetime.datetime.fromtimestamp(since / 1000).replace(hour=0, minute=0, second=0, microsecond=0)
for line in open(log, errors="replace"):
    m = re.match(r"(\d\d):(\d\d):(\d\d),(\d\d\d) ", line)
    if m and text in line:
        h, mi, s, ms = map(int, m.groups())
        t = int((day + datetime.timedelta(hours=h, minutes=mi, seconds=s, milliseconds=ms)).timestamp() * 1000)
        if t > since:
            print(t if what == "time" else line.rstrip("\n")); break
PY
}

# ha_first_ack_after LOG MS — the first line of an HA load's log (HaLoad: "ms thread OUTCOME
# operation ...") acknowledged after MS (epoch ms), or nothing.
ha_first_ack_after() { awk -v t="$2" '$3 == "ACK" && $1 > t { print; exit }' "$1" 2>/dev/null; }
