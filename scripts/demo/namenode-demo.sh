#!/usr/bin/env bash
# make demo: an NVM NameNode and a DataNode as real processes on loopback, an emulated
# persistent-memory region on tmpfs, a workload through the HDFS shell and the upstream
# NNBenchWithoutMR, a SIGKILL of the NameNode, a restart, and proof that the namespace
# came back: counts and a checksum of the full listing before and after.
set -euo pipefail
source "$(dirname "$0")/../cluster-lib.sh"
require_dist

FILES=${DEMO_FILES:-1000}   # ~0.2 s per file: 2.7.3 clients retry complete() after 400 ms when the DataNode's report trails
NVM=${DEMO_NVM:-true}   # DEMO_NVM=false runs the same demo on the stock NameNode (edit log)
work=$(mktemp -d /tmp/nvm-demo.XXXXXX)
shm=$(mktemp -d /dev/shm/nvm-demo.XXXXXX)
conf="$work/conf"
NN_PID= DN_PID=
cleanup() { stop_pid "$DN_PID"; stop_pid "$NN_PID"; rm -rf "$shm"; echo "(logs kept in $work)"; }
trap cleanup EXIT

step() { printf '\n== %s\n' "$*"; }
# a NameNode log line without its time, level and class: "NVM region recovered ..."
logline() { sed -E 's/^[0-9:,]+ [A-Z]+ [A-Za-z0-9$]+: //; s/^/   log: /'; }
listing() { hdfs_dfs "$conf" -ls -R / | awk '{print $1, $3, $4, $5, $6, $7, $8}' | sort; }

if [ "$NVM" = true ]; then
  step "1. configure from conf/: NVM mode on, region $shm/namespace.region (emulated persistence on tmpfs)"
else
  step "1. configure from conf/: stock NameNode (fsimage + edit log in $work/name)"
fi
conf_from_repo "$conf" "$work/name" "$work/data" "$shm/namespace.region" > "$work/conf-changes.txt"
echo "   $conf: the repository's conf/ with its directories, region and ports moved"
echo "   (NameNode at $(conf_get "$conf/hdfs-site.xml" dfs.namenode.rpc-address); every change: $work/conf-changes.txt)"
[ "$NVM" = true ] || conf_put "$conf/hdfs-site.xml" dfs.namenode.nvm.enabled false
grep -o '<name>dfs.namenode.nvm[^<]*</name><value>[^<]*' "$conf/hdfs-site.xml" | sed 's/<\/name><value>/ = /; s/<name>/   /'

step "2. format the name directory and start the NameNode and a DataNode"
nn_format "$conf"
nn_start "$conf"
secs=$(wait_rpc "$conf" "$NN_PID")
echo "   NameNode (pid $NN_PID) answering after ${secs}s"
{ grep -h -E "NVM (region|NameNode)" "$conf/logs/namenode.log" || true; } | sed -n 1,5p | logline
dn_start "$conf"
dfsadmin "$conf" -safemode wait >/dev/null
echo "   DataNode (pid $DN_PID) registered; safe mode off"

step "3. a workload through the HDFS shell"
printf 'hello from the NVM NameNode\n' > "$work/hello.txt"
seq 1 20000 > "$work/numbers.txt"
run() { echo "   \$ hdfs dfs $*"; hdfs_dfs "$conf" "$@" | sed 's/^/     /'; }
run -mkdir -p /demo/in /demo/out /demo/tmp
run -put "$work/hello.txt" "$work/numbers.txt" /demo/in/
run -cp /demo/in/numbers.txt /demo/tmp/copy.txt
run -mv /demo/in/hello.txt /demo/out/greeting.txt
run -chmod 600 /demo/out/greeting.txt
run -setrep 1 /demo/in/numbers.txt
run -rm -r /demo/tmp
run -ls -R /demo
run -cat /demo/out/greeting.txt

# ~0.2 s a file (see FILES above): say how long to wait
wait_s=$(( FILES / 5 )); [ "$wait_s" -lt 120 ] && wait_for="${wait_s} s" || wait_for="$(( (wait_s + 30) / 60 )) min"
step "4. upstream NNBenchWithoutMR: create and write $FILES files (1 block each; about $wait_for)"
t0=$(date +%s.%N)
hclient "$conf" org.apache.hadoop.hdfs.NNBenchWithoutMR -operation createWrite -baseDir /bench \
  -startTime "$(date +%s)" -numFiles "$FILES" -blocksPerFile 1 -bytesPerBlock 1 -bytesPerChecksum 1 \
  | { grep -E "exceptions" || true; } | sed 's/^/   /'
echo "   $FILES files created, written and closed in $(python3 -c "import time; print('%.1f' % (time.time() - $t0))")s (one client, JVM start included)"

before=$(listing)
n_before=$(echo "$before" | wc -l)
sum_before=$(echo "$before" | sha256sum | cut -c1-16)
echo "   namespace now: $n_before entries, listing sha256 $sum_before"

step "5. kill -9 the NameNode (no shutdown, no checkpoint) and start it again"
old=$NN_PID
kill_hard "$NN_PID"
echo "   NameNode $old killed (SIGKILL; the process is gone)"
logged=$(wc -l < "$conf/logs/namenode.log")   # the restart's log lines come after these
nn_start "$conf"
secs=$(wait_rpc "$conf" "$NN_PID")
[ "$NN_PID" != "$old" ] && ! kill -0 "$old" 2>/dev/null || { echo "the old NameNode is still running" >&2; exit 1; }
echo "   restarted NameNode (pid $NN_PID) answering after ${secs}s (JVM start included)"
if [ "$NVM" = true ]; then
  rec=$(tail -n +$((logged + 1)) "$conf/logs/namenode.log" | grep -h "NVM region recovered" | tail -1)
  [ -n "$rec" ] || { echo "the restarted NameNode did not recover from the region" >&2; exit 1; }
  # the recovery's summary (the RecoveryReport's fields are in the log)
  echo "$rec" | sed 's/; RecoveryReport{.*//' | logline
else
  tail -n +$((logged + 1)) "$conf/logs/namenode.log" | { grep -E "Loaded image|Edits file .* of size|Loaded .* edits" || true; } | tail -3 | logline
fi
dfsadmin "$conf" -safemode wait >/dev/null
echo "   block reports received; safe mode off"

step "6. compare"
after=$(listing)
n_after=$(echo "$after" | wc -l)
sum_after=$(echo "$after" | sha256sum | cut -c1-16)
echo "   before the kill: $n_before entries, sha256 $sum_before"
echo "   after restart:   $n_after entries, sha256 $sum_after"
echo "   \$ hdfs dfs -cat /demo/out/greeting.txt"; hdfs_dfs "$conf" -cat /demo/out/greeting.txt | sed 's/^/     /'
lines=$(hdfs_dfs "$conf" -cat /demo/in/numbers.txt | wc -l)
echo "   /demo/in/numbers.txt has $lines lines (expected 20000)"
{ hclient "$conf" org.apache.hadoop.hdfs.tools.DFSck / || true; } | { grep -E "Status|Total files|Total blocks" || true; } | sed -E 's/^\.*//; s/^ *//; s/^/   fsck: /'
if [ "$NVM" = true ]; then
  step "7. monitoring: the NvmNamespace bean at the NameNode's /jmx (docs/operator-guide.md, Monitoring)"
  http=$(conf_get "$conf/hdfs-site.xml" dfs.namenode.http-address)
  echo "   \$ curl 'http://$http/jmx?qry=Hadoop:service=NameNode,name=NvmNamespace'"
  python3 - "$http" <<'PY' | sed 's/^/     /'
import json, sys, urllib.request
b = json.load(urllib.request.urlopen("http://%s/jmx?qry=Hadoop:service=NameNode,name=NvmNamespace" % sys.argv[1]))["beans"][0]
for k in ("tag.PersistMode", "RegionSizeBytes", "PagesUsed", "PagesFree", "LiveInodes", "Persists", "UndoLoggedPersists",
          "PersistNanosAvgTime", "JniCalls", "LastRecoveryMillis", "LastRecoveryInodes", "LastRecoveryUndoRolledBack"):
    print("%-28s %s" % (k, b.get(k)))
PY
fi

if [ "$sum_before" = "$sum_after" ] && [ "$lines" = 20000 ]; then
  how=$([ "$NVM" = true ] && echo "no edit log, no fsimage: restart by region scan" || echo "stock: fsimage + edit log replay")
  echo; echo "RESULT: the namespace survived kill -9 intact ($how)"
else
  echo; echo "RESULT: MISMATCH"; diff <(echo "$before") <(echo "$after") | sed -n 1,20p; exit 1
fi
