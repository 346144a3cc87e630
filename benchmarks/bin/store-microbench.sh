#!/usr/bin/env bash
# make bench-micro: JMH timings of the persistent inode store plus exact per-operation
# JNI-crossing and persist-barrier counts. Emulated persistence (PMEM_IS_PMEM_FORCE=1)
# on tmpfs. JMH_ARGS overrides the default run shape (1 fork, 3 x 1 s warm-up, 5 x 1 s).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
jar="$root/benchmarks/target/benchmarks.jar"
lib="$root/hadoop-hdfs-nvm/target/native/lib"
[ -f "$jar" ] || { echo "missing $jar: run 'make build' first" >&2; exit 1; }
export PMEM_IS_PMEM_FORCE=1
echo "== machine: $(nproc) cores, $(awk '/MemTotal/{printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
echo "== exact costs per operation"
java -Djava.library.path="$lib" -cp "$jar" org.nvmnn.bench.store.StoreOpCosts 10000
echo "== JMH timings (ns/op; recoveryScanPerInode is ns per recovered one-block file of a 1M-file region)"
# shellcheck disable=SC2086
java -Djava.library.path="$lib" -jar "$jar" StoreBenchmark \
  -jvmArgsAppend "-Djava.library.path=$lib" ${JMH_ARGS:--f 1 -wi 3 -w 1s -i 5 -r 1s}
