#!/usr/bin/env bash
# make snapshot-demo: incremental replication with the unmodified hadoop-distcp 2.7.3 from an NVM
# source cluster (the snapshot preview, docs/snapshots.md) to a stock target cluster, each a
# NameNode and a DataNode as real processes on loopback. A full copy of snapshot s0, then rounds of
# changes on the source (creates, deletes, renames across directories, appends, permission and
# replication changes), a snapshot, a kill -9 and restart of the NVM NameNode, and
# `distcp -update -delete -diff s<i-1> s<i>` (2.7.3 wants -delete with -diff), which applies the source's snapshot diff report to the target
# (its deletes and renames) and copies what changed; after each round the target must equal the
# source's snapshot: the same paths, types, sizes, permissions, replication and file checksums.
set -euo pipefail
source "$(dirname "$0")/../cluster-lib.sh"
require_dist

ROUNDS=${SNAPSHOT_DEMO_ROUNDS:-3}
work=$(mktemp -d /tmp/nvm-snapshot-demo.XXXXXX)
shm=$(mktemp -d /dev/shm/nvm-snapshot-demo.XXXXXX)
src="$work/source" tgt="$work/target"
SRC_NN= SRC_DN= TGT_NN= TGT_DN=
cleanup() {
  stop_pid "$SRC_DN"; stop_pid "$TGT_DN"; stop_pid "$SRC_NN"; stop_pid "$TGT_NN"
  rm -rf "$shm"; echo "(logs kept in $work)"
}
trap cleanup EXIT

step() { printf '\n== %s\n' "$*"; }
fail() { echo; echo "RESULT: FAILED: $*"; exit 1; }

# start CONF: the NameNode and the DataNode of the cluster configured in CONF; sets NN_PID, DN_PID
start() {
  nn_start "$1"
  wait_rpc "$1" "$NN_PID" > /dev/null
  dn_start "$1"
  dfsadmin "$1" -safemode wait > /dev/null
}

step "1. two clusters: an NVM source (snapshot preview on) and a stock target"
conf_from_repo "$src" "$work/src-name" "$work/src-data" "$shm/source.region" > "$work/src-conf-changes.txt"
conf_put "$src/hdfs-site.xml" dfs.namenode.nvm.snapshots.preview true
conf_from_repo "$tgt" "$work/tgt-name" "$work/tgt-data" "$shm/unused.region" > "$work/tgt-conf-changes.txt"
conf_put "$tgt/hdfs-site.xml" dfs.namenode.nvm.enabled false
SRC=$(conf_get "$src/core-site.xml" fs.defaultFS)
TGT=$(conf_get "$tgt/core-site.xml" fs.defaultFS)
for c in "$src" "$tgt"; do nn_format "$c"; done
start "$src"; SRC_NN=$NN_PID SRC_DN=$DN_PID
start "$tgt"; TGT_NN=$NN_PID TGT_DN=$DN_PID
echo "   source $SRC: NVM NameNode (pid $SRC_NN), region $shm/source.region"
echo "   target $TGT: stock NameNode (pid $TGT_NN), fsimage and edit log in $work/tgt-name"

sdfs() { hdfs_dfs "$src" "$@"; }
tdfs() { hdfs_dfs "$tgt" "$@"; }
run() { echo "   \$ hdfs dfs $*"; sdfs "$@" | sed 's/^/     /'; }

# view CONF ROOT: every path below ROOT (relative), its type and permission, replication, owner,
# group and size, then
# each file's checksum (MD5-of-CRC32C: both clusters use conf/'s block and checksum sizes)
view() {
  local conf=$1 root=$2 listing files
  listing=$(hdfs_dfs "$conf" -ls -R "$root")
  echo "$listing" | awk -v r="$root/" '{p=$8; sub("^" r, "", p); print $1, $2, $3, $4, $5, p}' | sort -k6
  files=$(echo "$listing" | awk '$1 ~ /^-/ {print $8}')
  [ -z "$files" ] && return 0
  # shellcheck disable=SC2086
  hdfs_dfs "$conf" -checksum $files | awk -v r="$root/" '{p=$1; sub("^" r, "", p); print "checksum", p, $3}' | sort
}

# distcp ARGS...: the unmodified DistCp 2.7.3 with the local job runner (its staging on the local
# disk, so neither namespace sees it); its log in $work/distcp-N.log
distcp_n=0
distcp() {
  distcp_n=$((distcp_n + 1))
  local log="$work/distcp-$distcp_n.log"
  echo "   \$ hadoop distcp $*"
  if ! (hclient_exec "$src" org.apache.hadoop.tools.DistCp -Dfs.defaultFS=file:/// \
        -Dmapreduce.framework.name=local -Dhadoop.tmp.dir="$work/mapred" "$@") > "$log" 2>&1; then
    tail -20 "$log"; fail "distcp exited with an error (log: $log)"
  fi
  # DistCp falls back to a full copy, with only a warning, when it cannot use the diff
  local fallback
  fallback=$(grep -c -E "Failed to use snapshot diff|has been modified since snapshot" \
    "$log" "$src/logs/client.log" || true)
  if [ "$(echo "$fallback" | awk -F: '{s += $NF} END {print s + 0}')" != 0 ]; then
    fail "distcp did not use the snapshot diff (log: $log)"
  fi
  echo "     done"
}

# compare ROUND SNAPSHOT: the target's /data against the source's snapshot
compare() {
  local a b
  a=$(view "$src" "/data/.snapshot/$2")
  b=$(view "$tgt" /data)
  if [ "$a" != "$b" ]; then
    echo "   source snapshot $2 (<) against the target (>):"
    diff <(echo "$a") <(echo "$b") | sed -n '1,30s/^/     /p'
    fail "round $1: the target differs from the source's snapshot $2"
  fi
  echo "   target /data equals source /data/.snapshot/$2: $(echo "$a" | grep -c -v '^checksum') entries," \
    "$(echo "$a" | grep -c '^checksum') file checksums, sha256 $(echo "$a" | sha256sum | cut -c1-16)"
}

step "2. round 0: data on the source, snapshot s0, a full copy, snapshot s0 on the target"
for i in 1 2 3 4 5 6; do seq 1 $((i * 3000)) > "$work/part-$i.txt"; done
run -mkdir -p /data/logs /data/tables/t1 /data/tables/t2 /data/staging
run -put "$work/part-1.txt" "$work/part-2.txt" /data/logs/
run -put "$work/part-3.txt" "$work/part-4.txt" /data/tables/t1/
run -put "$work/part-5.txt" /data/tables/t2/
run -put "$work/part-6.txt" /data/staging/
echo "   \$ hdfs dfsadmin -allowSnapshot /data; hdfs dfs -createSnapshot /data s0"
dfsadmin "$src" -allowSnapshot /data > /dev/null
sdfs -createSnapshot /data s0 | sed 's/^/     /'
tdfs -mkdir -p /data
dfsadmin "$tgt" -allowSnapshot /data > /dev/null
distcp -update -pugpr "$SRC/data/.snapshot/s0" "$TGT/data"
tdfs -createSnapshot /data s0 > /dev/null
compare 0 s0

# changes ROUND: creates, deletes, renames across directories, an append, attribute changes
changes() {
  local r=$1 logs=/data/logs
  [ "$r" -gt 3 ] && logs=/data/archive
  seq 1 $((r * 1000 + 7)) > "$work/new-$r.txt"
  printf 'appended in round %s\n' "$r" > "$work/tail-$r.txt"
  run -mkdir -p /data/staging "/data/tables/t$((r + 2))"
  run -put "$work/new-$r.txt" "/data/staging/new-$r.txt"
  run -mv "/data/staging/new-$r.txt" "/data/tables/t1/new-$r.txt"
  run -appendToFile "$work/tail-$r.txt" "$logs/part-1.txt"
  case $r in
    1) run -mv /data/tables/t2 /data/tables/t2-renamed
       run -rm /data/logs/part-2.txt
       run -chmod 640 /data/tables/t1/part-3.txt ;;
    2) run -mv /data/tables/t1/part-4.txt /data/logs/part-4.txt
       run -rm -r /data/staging
       run -setrep 2 /data/logs/part-1.txt ;;
    3) run -mv /data/logs /data/archive
       run -rm /data/tables/t1/new-2.txt
       run -chmod 700 /data/tables/t5 ;;
    *) run -mv "/data/tables/t1/new-$((r - 1)).txt" "/data/archive/new-$((r - 1)).txt"
       run -chmod 750 "/data/tables/t$((r + 2))" ;;
  esac
}

prev=s0
for r in $(seq 1 "$ROUNDS"); do
  step "$((r + 2)). round $r: changes on the source, snapshot s$r, kill -9 of the NVM NameNode, distcp -diff $prev s$r"
  changes "$r"
  sdfs -createSnapshot /data "s$r" | sed 's/^/     /'
  kill_hard "$SRC_NN"
  echo "   NVM NameNode $SRC_NN killed (SIGKILL)"
  logged=$(wc -l < "$src/logs/namenode.log")
  nn_start "$src"; SRC_NN=$NN_PID
  secs=$(wait_rpc "$src" "$SRC_NN")
  rec=$(tail -n +$((logged + 1)) "$src/logs/namenode.log" | grep -h -o "NVM region recovered [0-9]* inodes in [0-9]* ms" | tail -1 || true)
  [ -n "$rec" ] || fail "the restarted NameNode did not recover from the region"
  echo "   restarted (pid $SRC_NN) after ${secs}s: $rec"
  dfsadmin "$src" -safemode wait > /dev/null
  echo "   \$ hdfs snapshotDiff /data $prev s$r"
  hclient "$src" org.apache.hadoop.hdfs.tools.snapshot.SnapshotDiff /data "$prev" "s$r" | sed 's/^/     /'
  distcp -update -delete -pugpr -diff "$prev" "s$r" "$SRC/data" "$TGT/data"
  tdfs -createSnapshot /data "s$r" > /dev/null
  compare "$r" "s$r"
  prev="s$r"
done

step "$((ROUNDS + 3)). the source's snapshots after the last restart"
echo "   \$ hdfs lsSnapshottableDir"
hclient "$src" org.apache.hadoop.hdfs.tools.snapshot.LsSnapshottableDir | sed 's/^/     /'
run -ls /data/.snapshot

echo
echo "RESULT: after $ROUNDS rounds of changes, kill -9 restarts of the NVM source and distcp -diff," \
  "the stock target equals every source snapshot"
