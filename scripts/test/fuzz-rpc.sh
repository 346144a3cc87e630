#!/usr/bin/env bash
# make fuzz-rpc: the differential RPC fuzzer (docs/bad-input.md, "Differential RPC fuzzing").
# A stock and an NVM NameNode as processes (the same drop-in jar; dfs.namenode.nvm.enabled false
# and true; the NVM region on /dev/shm, emulated persistence; both name directories on /dev/shm),
# each with a fake DataNode, both started from one formatted name directory (same namespace,
# cluster and block pool ids). The driver (workloads: org.nvmnn.workload.fuzz.FuzzRpc) sends a
# seeded sequence of ClientProtocol calls with hostile arguments to both, compares every answer,
# SIGKILLs and restarts both every K calls and compares their full namespaces; each distinct
# divergence is shrunk to a short reproduction at the end.
#
# Settings (environment):
#   OPS (1000000)        calls to send (RESTARTs not counted)
#   SEED (time, printed) the generator's seed
#   K (10000)            calls between restarts (>= 100 restarts at the defaults)
#   HOSTILE (0.15)       probability of a hostile value for each argument that has one
#   SKIP ()              comma-separated tags not to generate (known bugs), e.g. nul,long-owner
#   MAX_ENTRIES (1500)   namespace size above which the generator deletes more
#   SHRINK_SECONDS (300) time budget to shrink each distinct divergence; SHRINKS (6): how many
#   MAX_DIVERGENCES (100) stop the run after this many divergences (stock restart bugs do not count)
#   DIR_ITEMS (48)       dfs.namenode.fs-limits.max-directory-items (lowered so it is reached)
#   MAX_BLOCKS (16)      dfs.namenode.fs-limits.max-blocks-per-file (lowered likewise)
#   REGION_SIZE (256m)   the NVM region
#   REPLAY (file)        instead of a run: replay a reproduction file on a fresh pair; with
#                        SHRINK=1 a divergence is shrunk further (SHRINK_SECONDS)
#   KEEP (0)             1 keeps the work directory (configuration, logs) in /tmp
#   NN_TIER (1)          the NameNodes' JIT: -XX:TieredStopAtLevel (1 = C1 only: faster start-ups and,
#                        on 2 cores, faster calls too; 4 = the JVM's default)
#   STOCK_CHECKPOINT (0) 1: the stock NameNode saves its namespace right before each kill, so its
#                        restart loads an fsimage instead of replaying edits (docs/bad-input.md: what
#                        that reference differs in); 0: edit-log replay (stock replay bugs reported apart)
#   SNAPSHOTS (0)        1 turns the NVM NameNode's snapshot preview on (docs/snapshots.md):
#                        createSnapshot, renameSnapshot and deleteSnapshot are then compared with
#                        the stock NameNode's, and the listing after each restart holds every
#                        snapshot's tree and the diff reports between consecutive snapshots
#   DEBUG_CHECKS (1)     1 runs the NVM NameNode with its write-through checks: a call whose batch
#                        frees a directory page a live inode still names (-Dnvm.debug.parentLinks),
#                        or a delete under a snapshot whose scoped diff comparison missed a changed
#                        record (-Dnvm.debug.snapshotSweep), fails at once (a divergence at that
#                        call) instead of a restart failing or differing later
#   BASELINE (0)         1 runs two stock NameNodes: a check of the fuzzer itself (every
#                        divergence is then a false positive or a stock restart failure)
# Exit status: 0 no divergence, 1 divergences, 2 the NameNodes could not be started.
#
# The short profile that fits in `make test` (about 2 minutes here):
#   OPS=2000 K=700 SEED=1 SHRINK_SECONDS=60 ./scripts/test/fuzz-rpc.sh
set -euo pipefail
source "$(dirname "$0")/../cluster-lib.sh"
require_dist

OPS=${OPS:-1000000}
SEED=${SEED:-$(date +%s)}
K=${K:-10000}
HOSTILE=${HOSTILE:-0.15}
SKIP=${SKIP:-}
MAX_ENTRIES=${MAX_ENTRIES:-1500}
SHRINK_SECONDS=${SHRINK_SECONDS:-300}
SHRINKS=${SHRINKS:-6}
MAX_DIVERGENCES=${MAX_DIVERGENCES:-100}
DIR_ITEMS=${DIR_ITEMS:-48}
MAX_BLOCKS=${MAX_BLOCKS:-16}
REGION_SIZE=${REGION_SIZE:-256m}
REPLAY=${REPLAY:-}
SHRINK=${SHRINK:-0}
KEEP=${KEEP:-0}
BASELINE=${BASELINE:-0}
SNAPSHOTS=${SNAPSHOTS:-0}

work=$(mktemp -d /tmp/nvm-fuzzrpc.XXXXXX)
shm=$(mktemp -d /dev/shm/nvm-fuzzrpc.XXXXXX)
DRIVER_PID=
cleanup() {
  [ -n "$DRIVER_PID" ] && kill "$DRIVER_PID" 2>/dev/null && wait "$DRIVER_PID" 2>/dev/null || true
  # the driver kills its NameNodes; should it have died first, they go by their pid files
  local p
  for p in "$work"/stock/namenode.pid "$work"/nvm/namenode.pid; do
    [ -f "$p" ] && kill -9 "$(cat "$p")" 2>/dev/null || true
  done
  rm -rf "$shm"
  if [ "$KEEP" = 1 ]; then
    echo "(work directory kept: $work)"
  else
    rm -rf "$work"/stock/tmp "$work"/nvm/tmp "$work"/*-data
    echo "(logs and reproductions kept in $work)"
  fi
}
trap cleanup EXIT

for side in stock nvm; do
  nvm=false; region=
  [ $side = nvm ] && [ "$BASELINE" != 1 ] && nvm=true
  [ $side = nvm ] && region="$shm/nvm.region"
  write_conf "$work/$side" "$shm/$side-name" "$work/$side-data" "$nvm" "$region"
  f="$work/$side/hdfs-site.xml"
  # out of safe mode at once after a start; the fake DataNode reports right after
  conf_set "$f" dfs.namenode.safemode.threshold-pct 0
  conf_set "$f" dfs.namenode.safemode.extension 0
  # limits lowered or restored so that calls reach them
  conf_put "$f" dfs.namenode.fs-limits.min-block-size 1048576
  conf_set "$f" dfs.namenode.fs-limits.max-directory-items "$DIR_ITEMS"
  conf_set "$f" dfs.namenode.fs-limits.max-blocks-per-file "$MAX_BLOCKS"
  # ACLs on (2.7.3's default is off), so that the ACL calls reach the namespace; xattrs are on
  conf_put "$f" dfs.namenode.acls.enabled true
  # the stock NameNode saves an image at start-up after replaying this many edits
  conf_set "$f" dfs.namenode.checkpoint.txns 20000
  conf_put "$f" dfs.namenode.nvm.region.size "$REGION_SIZE"
  if [ "$SNAPSHOTS" = 1 ]; then conf_put "$f" dfs.namenode.nvm.snapshots.preview true; fi
  # no background namespace changes: the lazy-persist scrubber deletes LAZY_PERSIST files whose
  # blocks are missing (after a restart, until the block report) at a moment of its own
  conf_set "$f" dfs.namenode.lazypersist.file.scrub.interval.sec -1
  # a million calls would log gigabytes (audit lines, every refused call's stack trace): only
  # warnings and errors from these; FATAL and start-up failures stay in the log
  cat >> "$work/$side/log4j.properties" <<'PROPS'
log4j.logger.org.apache.hadoop.hdfs.server.namenode.FSNamesystem.audit=WARN
log4j.logger.org.apache.hadoop.ipc.Server=WARN
log4j.logger.BlockStateChange=WARN
log4j.logger.org.apache.hadoop.hdfs.StateChange=ERROR
PROPS
done

# one format, copied before every fresh start of either NameNode
cp "$work/stock/hdfs-site.xml" "$work/format-site.xml"
mkdir -p "$work/format"
cp "$work/stock/core-site.xml" "$work/stock/log4j.properties" "$work/format/"
sed "s#file://$shm/stock-name#file://$shm/template#" "$work/stock/hdfs-site.xml" > "$work/format/hdfs-site.xml"
(hjava "$work/format" org.apache.hadoop.hdfs.server.namenode.NameNode -format -force -nonInteractive \
  -clusterid CID-fuzz-rpc > "$work/format.log" 2>&1) || { echo "format failed: $work/format.log"; tail "$work/format.log"; exit 2; }

args=(--seed "$SEED" --ops "$OPS" --restart-every "$K" --hostile "$HOSTILE" --skip "$SKIP"
  --max-entries "$MAX_ENTRIES" --shrink-seconds "$SHRINK_SECONDS" --shrinks "$SHRINKS"
  --max-divergences "$MAX_DIVERGENCES" --out "$work"
  --lib "$NVM_LIB" --java "$(command -v java)" --template "$shm/template"
  --stock-conf "$work/stock" --stock-name "$shm/stock-name"
  --nvm-conf "$work/nvm" --nvm-name "$shm/nvm-name" --nvm-region "$shm/nvm.region"
  --refusals "$NVM_ROOT/docs/unsupported-operations.md")
[ "$BASELINE" = 1 ] && args+=(--baseline true)
if [ "$SNAPSHOTS" = 1 ]; then args+=(--snapshots true); fi
[ "${STOCK_CHECKPOINT:-0}" = 1 ] && args+=(--stock-checkpoint true)
if [ -n "$REPLAY" ]; then
  args+=(--replay "$(realpath "$REPLAY")")
  [ "$SHRINK" = 1 ] && args+=(--replay-shrink true)
fi

echo "== fuzz-rpc: work directory $work, name directories and region in $shm"
rc=0
java -Xmx2g -XX:+UseParallelGC -Dfuzz.nn.tier="${NN_TIER:-1}" -Dfuzz.nn.debugChecks="$([ "${DEBUG_CHECKS:-1}" = 1 ] && echo true || echo false)" -Djava.net.preferIPv4Stack=true -Dhadoop.root.logger=WARN,console \
  -Dlog4j.configuration="file://$work/stock/log4j.properties" \
  -cp "$NVM_LIB/*" org.nvmnn.workload.fuzz.FuzzRpc "${args[@]}" 2>>"$work/driver.log" &
DRIVER_PID=$!
wait "$DRIVER_PID" || rc=$?
DRIVER_PID=
exit "$rc"
