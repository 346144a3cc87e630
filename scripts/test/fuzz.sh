#!/usr/bin/env bash
# make fuzz: libFuzzer over region images (native/fuzz/fuzz_region_open.c), with AddressSanitizer
# and UndefinedBehaviorSanitizer, seeded with a corpus of real regions made by the library; then
# the offline checker as the oracle of the native open over every input of the corpus and the
# seeds (FuzzCorpusOracleTest through Maven: checker consistent => open accepts, open refuses =>
# checker ERROR).
#   FUZZ_SECONDS=n   how long to fuzz (default 120)
#   FUZZ_JOBS=n      parallel fuzzing processes (default 1)
# Exits non-zero if the fuzzer found a crash, a sanitizer report or a violated property (the
# input that triggered it is left in native/target-fuzz/: crash-*, leak-*, timeout-*), or if the
# checker and the native open disagree on an input (named in the test report).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
build="$root/native/target-fuzz"
seconds="${FUZZ_SECONDS:-}"; seconds="${seconds:-120}"
jobs="${FUZZ_JOBS:-}"; jobs="${jobs:-1}"
if ! command -v clang >/dev/null; then
  if [ "$(id -u)" = 0 ]; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq clang >/dev/null
  else
    echo "clang is missing: run 'sudo apt-get install -y clang' first" >&2; exit 1
  fi
fi
mkdir -p "$build"
CC=clang cmake -S "$root/native" -B "$build" -DNVM_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >"$build/configure.log"
cmake --build "$build" --target fuzz_region_open fuzz_corpus -j2 >"$build/build.log"
corpus="$build/corpus"
seeds="$build/seeds"
rm -rf "$seeds"; mkdir -p "$corpus" "$seeds"
"$build/fuzz_corpus" "$seeds"
export PMEM_IS_PMEM_FORCE=1 NVM_FUZZ_DIR=/dev/shm
echo "fuzzing for $seconds s ($jobs job(s)); corpus: $corpus (grows across runs), seeds: $seeds"
cd "$build"
rc=0
"$build/fuzz_region_open" -max_total_time="$seconds" -max_len=32800 -jobs="$jobs" -workers="$jobs" \
  -print_final_stats=1 "$corpus" "$seeds" >"$build/fuzz.log" 2>&1 || rc=$?
grep -E "^(stat::|#[0-9]+ +DONE|PROPERTY VIOLATED|==[0-9]+==ERROR|SUMMARY)" "$build/fuzz.log" fuzz-*.log 2>/dev/null | tail -20 || true
if [ $rc -ne 0 ] || ls "$build"/crash-* "$build"/leak-* >/dev/null 2>&1; then
  echo "fuzz: FAILED (exit $rc); log: $build/fuzz.log; inputs: $(ls "$build" | grep -E '^(crash|leak|timeout)-' | tr '\n' ' ')" >&2
  exit 1
fi
echo "fuzz: no crash, no sanitizer report, no violated property in $seconds s; corpus now $(ls "$corpus" | wc -l) inputs"
echo "oracle: the offline checker against the native open over the corpus and the seeds (log: $build/oracle.log)"
report="$root/hadoop-hdfs-nvm/target/surefire-reports"
if ! (cd "$root" && ${MVN:-mvn -B -ntp} -q -pl hadoop-hdfs-nvm -am verify -Dtest=FuzzCorpusOracleTest \
      -Dsurefire.failIfNoSpecifiedTests=false -Dctest.skip=true -Dnvm.fuzz.corpus="$corpus:$seeds") \
      >"$build/oracle.log" 2>&1; then
  echo "fuzz: the checker and the native open disagree on an input, or the build failed: $build/oracle.log," \
    "$report/*FuzzCorpusOracleTest.txt" >&2
  exit 1
fi
tail -1 "$report/org.apache.hadoop.hdfs.server.namenode.nvm.tools.FuzzCorpusOracleTest-output.txt"
