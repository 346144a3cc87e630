#!/usr/bin/env bash
# Shared helpers for scripts that run a real NameNode and DataNodes as processes on
# loopback, from nvm-dist/target/lib (the drop-in jar + Hadoop 2.7.3 runtime).
# Source it; it defines functions and expects `set -euo pipefail` in the caller.

NVM_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
NVM_LIB="$NVM_ROOT/nvm-dist/target/lib"

require_dist() {
  [ -d "$NVM_LIB" ] || { echo "missing $NVM_LIB: run 'make build' first" >&2; exit 1; }
  if [ -e "$NVM_LIB/hadoop-hdfs-2.7.3.jar" ]; then
    echo "the stock hadoop-hdfs-2.7.3.jar is in $NVM_LIB; only the -nvm jar may be" >&2; exit 1
  fi
}

# free_ports VAR...: a free TCP port on 127.0.0.1 into each named variable. The ports are held
# together while they are picked, and none is one this shell handed out before: the kernel may
# give a just-closed port again, and two NameNodes configured with one port cannot both start.
NVM_PORTS_GIVEN=()
free_ports() {
  local ports p
  ports=$(python3 - "$#" "${NVM_PORTS_GIVEN[@]}" <<'PY'
import socket, sys
n, given = int(sys.argv[1]), set(sys.argv[2:])
held, out = [], []
while len(out) < n:
    s = socket.socket(); s.bind(("127.0.0.1", 0)); held.append(s)
    p = str(s.getsockname()[1])
    if p not in given: out.append(p)
print(" ".join(out))
PY
)
  for p in $ports; do
    NVM_PORTS_GIVEN+=("$p")
    printf -v "$1" '%s' "$p"
    shift
  done
}

# write_conf DIR NAME_DIR DATA_DIR NVM(true|false) [REGION_PATH] [EDITS_DIR]
# The NVM NameNode's persistence mode is NVM_PERSIST (default emulated: a region on tmpfs; disk:
# the region and its write-ahead log on an ordinary file system, docs/region-format.md §12).
# Writes core-site.xml, hdfs-site.xml and log4j.properties for a 1-NN cluster on loopback.
write_conf() {
  local dir=$1 name=$2 data=$3 nvm=$4 region=${5:-} edits=${6:-}
  mkdir -p "$dir"
  local rpc http dn dnhttp dnipc
  free_ports rpc http dn dnhttp dnipc
  cat > "$dir/core-site.xml" <<XML
<?xml version="1.0"?>
<configuration>
  <property><name>fs.defaultFS</name><value>hdfs://127.0.0.1:$rpc</value></property>
  <property><name>hadoop.tmp.dir</name><value>$dir/tmp</value></property>
</configuration>
XML
  {
    echo '<?xml version="1.0"?>'
    echo '<configuration>'
    echo "  <property><name>dfs.namenode.name.dir</name><value>file://$name</value></property>"
    [ -n "$edits" ] && echo "  <property><name>dfs.namenode.edits.dir</name><value>file://$edits</value></property>"
    echo "  <property><name>dfs.datanode.data.dir</name><value>file://$data</value></property>"
    echo "  <property><name>dfs.replication</name><value>1</value></property>"
    echo "  <property><name>dfs.namenode.rpc-address</name><value>127.0.0.1:$rpc</value></property>"
    echo "  <property><name>dfs.namenode.http-address</name><value>127.0.0.1:$http</value></property>"
    echo "  <property><name>dfs.namenode.secondary.http-address</name><value>127.0.0.1:0</value></property>"
    echo "  <property><name>dfs.datanode.address</name><value>127.0.0.1:$dn</value></property>"
    echo "  <property><name>dfs.datanode.http.address</name><value>127.0.0.1:$dnhttp</value></property>"
    echo "  <property><name>dfs.datanode.ipc.address</name><value>127.0.0.1:$dnipc</value></property>"
    echo "  <property><name>dfs.namenode.fs-limits.min-block-size</name><value>0</value></property>"
    echo "  <property><name>dfs.namenode.nvm.enabled</name><value>$nvm</value></property>"
    [ -n "$region" ] && echo "  <property><name>dfs.namenode.nvm.region.path</name><value>$region</value></property>"
    echo "  <property><name>dfs.namenode.nvm.persist.mode</name><value>${NVM_PERSIST:-emulated}</value></property>"
    echo "  <property><name>dfs.namenode.nvm.region.size</name><value>256m</value></property>"
    echo '</configuration>'
  } > "$dir/hdfs-site.xml"
  cat > "$dir/log4j.properties" <<'PROPS'
hadoop.root.logger=INFO,console
log4j.rootLogger=${hadoop.root.logger}
log4j.appender.console=org.apache.log4j.ConsoleAppender
log4j.appender.console.target=System.err
log4j.appender.console.layout=org.apache.log4j.PatternLayout
log4j.appender.console.layout.ConversionPattern=%d{HH:mm:ss,SSS} %p %c{1}: %m%n
log4j.logger.org.apache.hadoop.util.NativeCodeLoader=ERROR
PROPS
}

# conf_set FILE NAME VALUE — adds a property to a *-site.xml written by write_conf.
conf_set() {
  sed -i "s#</configuration>#  <property><name>$2</name><value>$3</value></property>\n</configuration>#" "$1"
}

# conf_put FILE NAME VALUE — sets a property: replaces its value if present, else adds it.
conf_put() {
  if grep -q "<name>$2</name>" "$1"; then
    sed -i "s#<name>$2</name><value>[^<]*</value>#<name>$2</name><value>$3</value>#" "$1"
  else
    conf_set "$1" "$2" "$3"
  fi
}

# conf_get FILE NAME — a property's value from a *-site.xml written by write_conf.
conf_get() {
  sed -n "s#.*<name>$2</name><value>\([^<]*\)</value>.*#\1#p" "$1"
}

# hjava CONF MAIN ARGS... — a Hadoop JVM with the conf dir first on the classpath.
# HJAVA_HEAP (default -Xmx2g) and PMEM_FORCE (PMEM_IS_PMEM_FORCE, default 1; 0 with NVM_PERSIST=disk,
# whose region is on an ordinary disk) may be set by callers;
# NVM_JAVA_OPTS, extra JVM options for every process and client started here (the secure demo's
# Kerberos settings).
hjava() {
  local conf=$1; shift
  # exec: when run in the background, $! is then the JVM itself, so kill -9 hits the JVM
  # shellcheck disable=SC2086
  local force=1
  [ "${NVM_PERSIST:-emulated}" = disk ] && force=0
  PMEM_IS_PMEM_FORCE=${PMEM_FORCE:-$force} exec java ${HJAVA_HEAP:--Xmx2g} ${NVM_JAVA_OPTS:-} -XX:+UseParallelGC -Dhadoop.log.dir="$conf/logs" \
    -Djava.net.preferIPv4Stack=true -cp "$conf:$NVM_LIB/*" "$@"
}

# A client JVM in place of the shell: its log goes to logs/client.log, its output to stdout.
# Backgrounded (`hclient_exec CONF MAIN ... &`), $! is the JVM itself.
hclient_exec() {
  local conf=$1; shift
  mkdir -p "$conf/logs"
  # shellcheck disable=SC2086
  exec java -Xmx512m ${NVM_JAVA_OPTS:-} -Dhadoop.root.logger=WARN,console -Djava.net.preferIPv4Stack=true \
    -cp "$conf:$NVM_LIB/*" "$@" 2>>"$conf/logs/client.log"
}

# A client command: its log goes to logs/client.log, its output to stdout.
hclient() { (hclient_exec "$@"); }

hdfs_dfs() { local conf=$1; shift; hclient "$conf" org.apache.hadoop.fs.FsShell "$@"; }
dfsadmin() { local conf=$1; shift; hclient "$conf" org.apache.hadoop.hdfs.tools.DFSAdmin "$@"; }

nn_format() { (hjava "$1" org.apache.hadoop.hdfs.server.namenode.NameNode -format -force -nonInteractive > "$1/format.log" 2>&1); }

# nn_start CONF [JVM-OPTIONS... MAIN] — starts the NameNode in the background; sets NN_PID. The
# optional arguments replace the main class (NameNode) with another one and its JVM options (the
# process-crash test's ShortLeaseNameNode).
nn_start() {
  local conf=$1; shift; mkdir -p "$conf/logs"
  [ $# -gt 0 ] || set -- org.apache.hadoop.hdfs.server.namenode.NameNode
  hjava "$conf" "$@" >> "$conf/logs/namenode.log" 2>&1 &
  NN_PID=$!
}

dn_start() {
  local conf=$1; mkdir -p "$conf/logs"
  hjava "$conf" org.apache.hadoop.hdfs.server.datanode.DataNode >> "$conf/logs/datanode.log" 2>&1 &
  DN_PID=$!
}

# wait_rpc CONF PID — until the NameNode answers a listing (or the process died); prints seconds.
wait_rpc() {
  local conf=$1 pid=$2 t0; t0=$(date +%s.%N)
  for _ in $(seq 1 600); do
    kill -0 "$pid" 2>/dev/null || { echo "NameNode exited; see $conf/logs/namenode.log" >&2; tail -20 "$conf/logs/namenode.log" >&2; return 1; }
    if hdfs_dfs "$conf" -ls / >/dev/null 2>&1; then
      python3 -c "import time; print('%.2f' % (time.time() - $t0))"; return 0
    fi
    sleep 0.2
  done
  echo "NameNode did not answer in time" >&2; return 1
}

# kill_hard PID — SIGKILL and wait until the process is really gone.
kill_hard() {
  local pid=$1
  disown "$pid" 2>/dev/null || true   # no job-control "Killed" notice
  kill -9 "$pid" 2>/dev/null || true
  while kill -0 "$pid" 2>/dev/null; do sleep 0.05; done
}

stop_pid() { local pid=${1:-}; [ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null || true; }

# conf_from_repo DIR NAME_DIR DATA_DIR REGION_PATH — the repository's conf/ (core-site.xml,
# hdfs-site.xml, log4j.properties) copied to DIR, with the directories, the region and the ports
# moved (free ports on 127.0.0.1) so that it runs next to anything else on the machine; every
# other setting is conf/'s. Prints each changed property.
conf_from_repo() {
  local dir=$1 name=$2 data=$3 region=$4
  mkdir -p "$dir"
  cp "$NVM_ROOT/conf/core-site.xml" "$NVM_ROOT/conf/hdfs-site.xml" "$NVM_ROOT/conf/log4j.properties" "$dir/"
  local rpc http dn dnhttp dnipc
  free_ports rpc http dn dnhttp dnipc
  local -a set=(
    "core-site.xml fs.defaultFS hdfs://127.0.0.1:$rpc"
    "core-site.xml hadoop.tmp.dir $dir/tmp"
    "hdfs-site.xml dfs.namenode.name.dir file://$name"
    "hdfs-site.xml dfs.datanode.data.dir file://$data"
    "hdfs-site.xml dfs.namenode.nvm.region.path $region"
    "hdfs-site.xml dfs.namenode.rpc-address 127.0.0.1:$rpc"
    "hdfs-site.xml dfs.namenode.http-address 127.0.0.1:$http"
    "hdfs-site.xml dfs.datanode.address 127.0.0.1:$dn"
    "hdfs-site.xml dfs.datanode.http.address 127.0.0.1:$dnhttp"
    "hdfs-site.xml dfs.datanode.ipc.address 127.0.0.1:$dnipc"
  )
  local s f k v
  for s in "${set[@]}"; do
    read -r f k v <<< "$s"
    [ "$(conf_get "$dir/$f" "$k")" = "$v" ] && continue
    conf_put "$dir/$f" "$k" "$v"
    echo "   $k = $v   (conf/ has $(conf_get "$NVM_ROOT/conf/$f" "$k"))"
  done
}
