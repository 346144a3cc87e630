#!/usr/bin/env bash
# make migration-demo: the procedures of docs/migration.md, run with real processes on loopback.
#   Part 1: a stock NameNode and a DataNode; a workload; stop the NameNode; NvmMigrationTool import;
#           the NVM NameNode starts on the name directory; the namespace and the file contents
#           are compared; then the rollback: dfsadmin -saveNamespace in safe mode, stop, and the
#           genuine stock hadoop-hdfs-2.7.3.jar (not the drop-in jar) starts on the result.
#   Part 2: cost of the migration for MIGRATION_BIG empty files (NNThroughputBenchmark creates
#           them on a stock NameNode): import, NVM start, offline export, stock start.
#   MIGRATION_FILES=200 MIGRATION_BIG=100000 (0 skips part 2)
set -euo pipefail
source "$(dirname "$0")/../cluster-lib.sh"
require_dist

FILES=${MIGRATION_FILES:-200}
BIG=${MIGRATION_BIG:-100000}
STOCK_JAR=${STOCK_JAR:-${M2_REPO:-$HOME/.m2/repository}/org/apache/hadoop/hadoop-hdfs/2.7.3/hadoop-hdfs-2.7.3.jar}
[ -f "$STOCK_JAR" ] || { echo "missing the stock jar $STOCK_JAR (set STOCK_JAR)" >&2; exit 1; }
work=$(mktemp -d /tmp/nvm-migration.XXXXXX)
shm=$(mktemp -d /dev/shm/nvm-migration.XXXXXX)
conf="$work/conf"
NN_PID= DN_PID=
cleanup() { stop_pid "$DN_PID"; stop_pid "$NN_PID"; rm -rf "$shm"; echo "(logs kept in $work)"; }
trap cleanup EXIT

step() { printf '\n== %s\n' "$*"; }
secs_since() { python3 -c "import time; print('%.2f' % (time.time() - $1))"; }
listing() { hdfs_dfs "$1" -ls -R / | awk '{print $1, $3, $4, $5, $6, $7, $8}' | sort; }
set_nvm() { sed -i "s#<name>dfs.namenode.nvm.enabled</name><value>[a-z]*</value>#<name>dfs.namenode.nvm.enabled</name><value>$2</value>#" "$1/hdfs-site.xml"; }
# The migration tool, as `hdfs org.apache.hadoop.hdfs.server.namenode.NvmMigrationTool CMD` runs it.
migrate() { local c=$1; shift; echo "   \$ hdfs org.apache.hadoop.hdfs.server.namenode.NvmMigrationTool $*"
  (hjava "$c" org.apache.hadoop.hdfs.server.namenode.NvmMigrationTool "$@" 2>>"$c/logs/migration.log") | sed 's/^/     /'; }
# The genuine stock jar in place of the drop-in jar: what an operator runs after swapping it back.
stock_classpath() { local cp=$1 j; for j in "$NVM_LIB"/*.jar; do case $j in *hadoop-hdfs-nvm-*) ;; *) cp="$cp:$j" ;; esac; done; echo "$cp:$STOCK_JAR"; }
nn_start_stock_jar() { local c=$1; mkdir -p "$c/logs"
  java -Xmx2g -XX:+UseParallelGC -Dhadoop.log.dir="$c/logs" -Djava.net.preferIPv4Stack=true -cp "$(stock_classpath "$c")" \
    org.apache.hadoop.hdfs.server.namenode.NameNode >> "$c/logs/namenode.log" 2>&1 &
  NN_PID=$!; }
stop_nn() { stop_pid "$NN_PID"; NN_PID=; }

step "1. a stock NameNode (fsimage + edit log in $work/name) and a DataNode; the drop-in jar with NVM off"
write_conf "$conf" "$work/name" "$work/data" false "$shm/namespace.region"
mkdir -p "$conf/logs"
echo "   dfs.namenode.nvm.enabled = false, dfs.namenode.nvm.region.path = $shm/namespace.region (emulated persistence)"
nn_format "$conf"
nn_start "$conf"
wait_rpc "$conf" "$NN_PID" >/dev/null
dn_start "$conf"
dfsadmin "$conf" -safemode wait >/dev/null

step "2. a workload through the HDFS shell and NNBenchWithoutMR ($FILES files of one block)"
printf 'written through the stock NameNode\n' > "$work/hello.txt"
seq 1 20000 > "$work/numbers.txt"
run() { echo "   \$ hdfs dfs $*"; hdfs_dfs "$conf" "$@" | sed 's/^/     /'; }
run -mkdir -p /data/in /data/team /user/alice
run -put "$work/hello.txt" "$work/numbers.txt" /data/in/
run -chmod 700 /user/alice
run -chown alice:staff /user/alice
run -setrep 1 /data/in/numbers.txt
echo "   \$ hdfs dfsadmin -setQuota 1000 /data/team; -setSpaceQuota 1g /data/team"
dfsadmin "$conf" -setQuota 1000 /data/team
dfsadmin "$conf" -setSpaceQuota 1g /data/team
hclient "$conf" org.apache.hadoop.hdfs.NNBenchWithoutMR -operation createWrite -baseDir /bench \
  -startTime "$(date +%s)" -numFiles "$FILES" -blocksPerFile 1 -bytesPerBlock 1 -bytesPerChecksum 1 >/dev/null
before=$(listing "$conf")
sum_before=$(echo "$before" | sha256sum | cut -c1-16)
echo "   namespace: $(echo "$before" | wc -l) entries, listing sha256 $sum_before"

step "3. stop the stock NameNode (SIGTERM, as hadoop-daemon.sh stop namenode); the DataNode keeps running"
stop_nn
ls "$work/name/current" | sed 's/^/   name dir: /'

step "4. import"
migrate "$conf" import
ls -l "$shm/namespace.region" | awk '{print "   region: " $NF ", " $5 " bytes"}'
ls "$work/name/current" | sed 's/^/   name dir: /'

step "5. NVM mode on; the NameNode starts on the imported region"
set_nvm "$conf" true
nn_start "$conf"
echo "   NameNode answering after $(wait_rpc "$conf" "$NN_PID")s"
grep -h "NVM region recovered" "$conf/logs/namenode.log" | tail -1 | sed 's/^/   log: /'
dfsadmin "$conf" -safemode wait >/dev/null
after=$(listing "$conf")
sum_after=$(echo "$after" | sha256sum | cut -c1-16)
echo "   namespace: $(echo "$after" | wc -l) entries, listing sha256 $sum_after"
[ "$sum_before" = "$sum_after" ] || { echo "MISMATCH after the import"; diff <(echo "$before") <(echo "$after") | sed -n 1,10p; exit 1; }
echo "   \$ hdfs dfs -cat /data/in/hello.txt"; hdfs_dfs "$conf" -cat /data/in/hello.txt | sed 's/^/     /'
[ "$(hdfs_dfs "$conf" -cat /data/in/numbers.txt | wc -l)" = 20000 ] || { echo "numbers.txt does not read back"; exit 1; }
run -mkdir /data/written-in-nvm-mode
run -put "$work/numbers.txt" /data/written-in-nvm-mode/numbers.txt

step "6. rollback: save a standard fsimage in safe mode, stop, and start the genuine stock jar on it"
nvm_listing=$(listing "$conf")
sum_nvm=$(echo "$nvm_listing" | sha256sum | cut -c1-16)
echo "   \$ hdfs dfsadmin -safemode enter"; dfsadmin "$conf" -safemode enter | sed 's/^/     /'
echo "   \$ hdfs dfsadmin -saveNamespace"; dfsadmin "$conf" -saveNamespace | sed 's/^/     /'
stop_nn
echo "   name dir: $(ls "$work/name/current" | grep -E '^fsimage_[0-9]+$' | tr '\n' ' ')seen_txid $(cat "$work/name/current/seen_txid")"
set_nvm "$conf" false
nn_start_stock_jar "$conf"
echo "   stock NameNode (classpath: $(basename "$STOCK_JAR"), no drop-in jar) answering after $(wait_rpc "$conf" "$NN_PID")s"
grep -h "STARTUP_MSG:   classpath" "$conf/logs/namenode.log" | tail -1 | grep "hadoop-hdfs-nvm" > /dev/null && { echo "the drop-in jar is on the stock classpath"; exit 1; }
grep -h -E "Loaded image for txid|Loaded FSImage" "$conf/logs/namenode.log" | tail -1 | sed 's/^.*: /   log: /'
dfsadmin "$conf" -safemode wait >/dev/null
stock_listing=$(listing "$conf")
sum_stock=$(echo "$stock_listing" | sha256sum | cut -c1-16)
echo "   namespace: $(echo "$stock_listing" | wc -l) entries, listing sha256 $sum_stock (NVM mode before the rollback: $sum_nvm)"
[ "$sum_nvm" = "$sum_stock" ] || { echo "MISMATCH after the rollback"; diff <(echo "$nvm_listing") <(echo "$stock_listing") | sed -n 1,10p; exit 1; }
[ "$(hdfs_dfs "$conf" -cat /data/written-in-nvm-mode/numbers.txt | wc -l)" = 20000 ] || { echo "a file written in NVM mode does not read back"; exit 1; }
echo "   /data/written-in-nvm-mode/numbers.txt (written in NVM mode) reads back through the stock NameNode"
run -mkdir /data/written-after-the-rollback
stop_nn

step "7. NVM mode on again without a new import: the old region is refused"
set_nvm "$conf" true
nn_start "$conf"
for _ in $(seq 1 100); do kill -0 "$NN_PID" 2>/dev/null || break; sleep 0.2; done
if kill -0 "$NN_PID" 2>/dev/null; then echo "the NameNode started on an out-of-date region"; exit 1; fi
NN_PID=
grep -h -o "region .* is out of date: .* (a rollback?)" "$conf/logs/namenode.log" | tail -1 | fold -s -w 110 | sed 's/^/   refused: /'
set_nvm "$conf" false
stop_pid "$DN_PID"; DN_PID=
echo; echo "RESULT: stock -> NVM -> stock kept the namespace (listing sha256 $sum_before, then $sum_nvm) and the data"

[ "$BIG" -gt 0 ] || exit 0
step "8. cost for $BIG empty files, 1000 per directory (NNThroughputBenchmark create on a stock NameNode)"
big="$work/big"
write_conf "$big/conf" "$big/name" "$big/data" false "$shm/big.region"
mkdir -p "$big/conf/logs" "$big/conf/tmp/dfs/hosts" && touch "$big/conf/tmp/dfs/hosts/include" "$big/conf/tmp/dfs/hosts/exclude"
nn_format "$big/conf"
PMEM_IS_PMEM_FORCE=1 java -Xmx2g -XX:+UseParallelGC -Dhadoop.tmp.dir="$big/conf/tmp" -Djava.net.preferIPv4Stack=true \
  -cp "$big/conf:$NVM_LIB/*" org.apache.hadoop.hdfs.server.namenode.NNThroughputBenchmark -fs "hdfs://127.0.0.1:0" \
  -D hadoop.tmp.dir="$big/conf/tmp" -op create -threads 2 -files "$BIG" -filesPerDir 1000 -close -keepResults \
  > "$big/conf/logs/create.log" 2>&1
echo "   name dir: $(du -sh "$big/name/current" | cut -f1) ($(ls "$big/name/current" | grep -c '^edits_') edit segments)"
t0=$(date +%s.%N); migrate "$big/conf" import | grep -E "import: (loaded|[0-9]+ inodes|wrote|verified)" | sed 's/listing sha256 [0-9a-f]*, //'
echo "   import: $(secs_since "$t0") s wall (JVM start included)"
set_nvm "$big/conf" true
nn_start "$big/conf"; echo "   NVM NameNode answering after $(wait_rpc "$big/conf" "$NN_PID") s"
grep -h "NVM region recovered" "$big/conf/logs/namenode.log" | tail -1 | sed 's/^.*NvmFSImage: /   log: /' | cut -c1-120
count_nvm=$(hdfs_dfs "$big/conf" -count / | awk '{print $1, $2}')
stop_nn
t0=$(date +%s.%N); migrate "$big/conf" export | grep -E "export: (loaded|done)" | cut -c1-110
echo "   export: $(secs_since "$t0") s wall (JVM start included)"
set_nvm "$big/conf" false
nn_start_stock_jar "$big/conf"; echo "   stock NameNode (stock jar) answering after $(wait_rpc "$big/conf" "$NN_PID") s"
count_stock=$(hdfs_dfs "$big/conf" -count / | awk '{print $1, $2}')
stop_nn
echo "   directories and files: NVM mode $count_nvm, stock after the export $count_stock"
[ "$count_nvm" = "$count_stock" ] || { echo "MISMATCH in part 2"; exit 1; }
