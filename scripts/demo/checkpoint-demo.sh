#!/usr/bin/env bash
# make checkpoint-demo: what an existing cluster's checkpoint tooling and start-up options do
# against an NVM NameNode, with real processes (docs/operator-guide.md section 5,
# docs/unsupported-operations.md): the SecondaryNameNode stops at once with one message; fetchImage
# refuses an fsimage older than the namespace and serves a current one after a save, which
# `hdfs oiv` reads; `namenode -recover` recovers and checks the region; `-rollback` and
# `-upgrade` are refused with their procedure; the NameNode restarts with everything.
set -euo pipefail
source "$(dirname "$0")/../cluster-lib.sh"
require_dist

work=$(mktemp -d /tmp/nvm-ckpt.XXXXXX)
shm=$(mktemp -d /dev/shm/nvm-ckpt.XXXXXX)
conf="$work/conf"
NN_PID=
cleanup() { stop_pid "$NN_PID"; rm -rf "$shm"; echo "(logs kept in $work)"; }
trap cleanup EXIT

step() { printf '\n== %s\n' "$*"; }
fail() { echo "FAILED: $*" >&2; exit 1; }
# the first line of a log that contains $2, without time, level and class
first() { grep -m1 -h -- "$2" "$1" | sed -E 's/^[0-9:,-]+ [0-9:,]* ?[A-Z]+ [A-Za-z0-9.$]+: //' | cut -c1-"${3:-400}"; }
tree_count() { hdfs_dfs "$conf" -count / | awk '{print $1 + $2}'; }   # directories + files

step "1. an NVM NameNode from conf/ (region $shm/namespace.region), a few directories and files"
conf_from_repo "$conf" "$work/name" "$work/data" "$shm/namespace.region" > "$work/conf-changes.txt"
nn_format "$conf"
nn_start "$conf"
wait_rpc "$conf" "$NN_PID" > /dev/null
for d in a b c; do
  hdfs_dfs "$conf" -mkdir -p "/$d/sub"
  hdfs_dfs "$conf" -touchz "/$d/sub/empty-file"
done
inodes=$(tree_count)
echo "   namespace: $inodes inodes (directories and files, root included)"

step "2. hdfs secondarynamenode (what start-dfs.sh starts) with the cluster's configuration"
t0=$(date +%s.%N)
set +e
(hjava "$conf" org.apache.hadoop.hdfs.server.namenode.SecondaryNameNode) > "$conf/logs/secondarynamenode.log" 2>&1
rc=$?
set -e
secs=$(python3 -c "import time; print('%.1f' % (time.time() - $t0))")
[ "$rc" -ne 0 ] || fail "the SecondaryNameNode exited 0"
echo "   exit $rc after ${secs}s (JVM start included):"
first "$conf/logs/secondarynamenode.log" "is not used with an NVM NameNode" 330 | sed 's/^/   /'
grep -q "is not used with an NVM NameNode" "$conf/logs/secondarynamenode.log" || fail "no refusal message"

step "3. dfsadmin -fetchImage before any save: refused (the newest fsimage is the empty one of -format)"
mkdir -p "$work/fetched"
: > "$conf/logs/client.log"   # a client's errors go to its log (cluster-lib.sh)
set +e
dfsadmin "$conf" -fetchImage "$work/fetched"
rc=$?
set -e
[ "$rc" -ne 0 ] || fail "fetchImage served a stale image"
grep -m1 "^fetchImage:" "$conf/logs/client.log" | sed 's/^/   /'
grep -m1 -o "NVM NameNode: no current fsimage to serve.*bring it forward\." "$conf/logs/client.log" \
  | sed 's/^/   /' || fail "no refusal message"
echo "   exit $rc; $(find "$work/fetched" -name 'fsimage_*' | wc -l) files fetched"

step "4. the procedure: safe mode, saveNamespace, fetchImage, leave; hdfs oiv reads the image"
dfsadmin "$conf" -safemode enter | sed 's/^/   /'
dfsadmin "$conf" -saveNamespace | sed 's/^/   /'
dfsadmin "$conf" -fetchImage "$work/fetched" 2>&1 | sed 's/^/   /'
dfsadmin "$conf" -safemode leave | sed 's/^/   /'
image=$(find "$work/fetched" -name 'fsimage_*' ! -name '*.md5' | sed -n 1,1p)
[ -n "$image" ] || fail "no fsimage fetched"
hclient "$conf" org.apache.hadoop.hdfs.tools.offlineImageViewer.OfflineImageViewerPB \
  -p XML -i "$image" -o "$work/fsimage.xml"
in_image=$(grep -o '<inode><id>' "$work/fsimage.xml" | wc -l)   # INodeSection entries
echo "   $(basename "$image"): hdfs oiv lists $in_image inodes; the NameNode has $inodes"
[ "$in_image" -eq "$inodes" ] || fail "the fetched image does not hold the namespace"

step "5. kill -9 the NameNode; hdfs namenode -recover, -rollback, -upgrade on its name directory"
kill_hard "$NN_PID"; NN_PID=
for opt in -recover -rollback -upgrade; do
  set +e
  (hjava "$conf" org.apache.hadoop.hdfs.server.namenode.NameNode "$opt") > "$conf/logs/namenode$opt.log" 2>&1
  rc=$?
  set -e
  echo "   namenode $opt: exit $rc"
  case $opt in
    -recover)
      [ "$rc" -eq 0 ] || fail "-recover failed"
      first "$conf/logs/namenode$opt.log" "RECOVERY COMPLETE" | sed 's/^/     /' ;;
    -rollback)
      [ "$rc" -ne 0 ] || fail "-rollback ran"
      first "$conf/logs/namenode$opt.log" "-rollback is not supported" 200 | sed 's/^.*NVM NameNode/     NVM NameNode/' ;;
    -upgrade)
      [ "$rc" -ne 0 ] || fail "-upgrade ran"
      first "$conf/logs/namenode$opt.log" "does not support the startup option" 200 | sed 's/^.*NVM NameNode/     NVM NameNode/' ;;
  esac
done

step "6. a regular start: the namespace is all there"
nn_start "$conf"
wait_rpc "$conf" "$NN_PID" > /dev/null
after=$(tree_count)
echo "   namespace: $after inodes"
[ "$after" -eq "$inodes" ] || fail "the namespace changed: $inodes -> $after"
echo; echo "RESULT: checkpoint tooling and start-up options behave as documented"
