#!/usr/bin/env bash
# make upstream-tests: upstream HDFS test classes straight from hadoop-hdfs-2.7.3-tests.jar, with the
# drop-in jar on the class path instead of the stock one, twice: NVM mode off, then on (by
# configuration alone: an hdfs-site.xml on the test class path). Prints a per-class table and
# writes docs/upstream-tests.md.
#   CLASSES='TestA,TestB'  run these classes instead of nvm-it/src/test/upstream/default-classes.txt
#                           (report: nvm-it/target/upstream-tests.md instead of docs/upstream-tests.md)
#   FULL=1                  the default set plus full-classes.txt (report: docs/upstream-tests-full.md)
#   FORKS=n                 test JVMs in parallel per mode (default 2, one per core here)
#   REACTOR=1               build the modules in the same Maven run (from the root, -pl nvm-it -am)
#                           and take the drop-in jar from that build instead of the local
#                           repository: nothing is installed (for a branch whose jar is not the
#                           installed one; the default runs Maven in nvm-it alone, after make build)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
# the default set's report is the document; any other selection's stays in target/
out="$root/nvm-it/target/upstream-tests.md"
if [ -z "${CLASSES:-}" ]; then
  lists="$root/nvm-it/src/test/upstream/default-classes.txt"
  out="$root/docs/upstream-tests.md"
  if [ "${FULL:-0}" = 1 ]; then
    lists="$lists $root/nvm-it/src/test/upstream/full-classes.txt"
    out="$root/docs/upstream-tests-full.md"
  fi
  CLASSES=$(cat $lists | grep -v '^#' | grep -v '^$' | paste -sd, -)
fi
# fully qualified names are accepted too: surefire matches on the simple name
CLASSES=$(echo "$CLASSES" | tr ',' '\n' | sed 's/.*\.//' | paste -sd, -)
cd "$root/nvm-it"
rm -rf target/upstream-reports target/upstream-dirs
mkdir -p target/log   # hadoop.log.dir: TestMetaSave writes its output there
start=$(date +%s)
if [ "${REACTOR:-0}" = 1 ]; then
  # package runs the upstream-test-resources unpack (generate-test-resources) and the modules'
  # own tests, which -Dtest filters to none; the two upstream executions then run in nvm-it
  # (in the other modules the selection matches no test)
  (cd "$root" && mvn -B -ntp -pl nvm-it -am package surefire:test@upstream-stock surefire:test@upstream-nvm \
    -Dupstream.skip=false -Dupstream.forks="${FORKS:-2}" -Dtest="$CLASSES" \
    -Dsurefire.failIfNoSpecifiedTests=false -Dctest.skip=true) \
    > "$root/nvm-it/target/upstream-tests.log" 2>&1 || { tail -30 "$root/nvm-it/target/upstream-tests.log"; exit 1; }
else
  mvn -B -ntp dependency:unpack@upstream-test-resources surefire:test@upstream-stock surefire:test@upstream-nvm -Dupstream.skip=false -Dupstream.forks="${FORKS:-2}" -Dtest="$CLASSES" \
    > "$root/nvm-it/target/upstream-tests.log" 2>&1 || { tail -30 "$root/nvm-it/target/upstream-tests.log"; exit 1; }
fi
elapsed=$(( $(date +%s) - start ))
echo "ran in $elapsed s (log: nvm-it/target/upstream-tests.log)"
nclasses=$(echo "$CLASSES" | tr ',' '\n' | grep -c .)
info="$(date -u +%Y-%m-%d), $nclasses classes, $elapsed s for both modes with ${FORKS:-2} test JVMs per mode, $(nproc) CPUs"
python3 "$root/scripts/test/upstream-report.py" "$root/nvm-it/target/upstream-reports" \
  "$root/nvm-it/src/test/upstream/classification.tsv" "$out" "$info"
