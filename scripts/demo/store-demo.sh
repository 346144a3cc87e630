#!/usr/bin/env bash
# make store-demo: run StoreDemo against an emulated region on tmpfs.
# Expects the build to have made hadoop-hdfs-nvm/target (make store-demo builds first).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
jar="$root/hadoop-hdfs-nvm/target/hadoop-hdfs-nvm-0.1.0-SNAPSHOT.jar"
lib="$root/hadoop-hdfs-nvm/target/native/lib"
work="${DEMO_DIR:-/dev/shm/nvm-store-demo-$$}"
[ -f "$jar" ] || { echo "missing $jar: run 'make build' first" >&2; exit 1; }
trap 'rm -rf "$work"' EXIT
# Emulated persistent memory: libpmem flushes cache lines even though tmpfs is not DAX.
export PMEM_IS_PMEM_FORCE=1
# not exec: the EXIT trap must run to remove the region (64 MiB of tmpfs)
java -Djava.library.path="$lib" -cp "$jar" \
  org.apache.hadoop.hdfs.server.namenode.nvm.StoreDemo "$work"
