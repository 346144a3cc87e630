#!/usr/bin/env bash
# make crash-test: the crash-point sweeps (nvm-it). A real NameNode in NVM mode runs every supported
# mutation once with the region capturing the images a crash could leave; each image is checked,
# recovered and compared with the operation's consistent states. Two sweeps:
#   CrashPointSweepTest  (memory modes) at every persist barrier, the images a process crash or
#                        a power loss on persistent memory there could leave;
#   PowerLossSweepTest   (disk mode) at every sync point of the write-ahead log and the region file,
#                        the region/log pairs a power loss there could leave (region-format.md §12.7;
#                        POWERLOSS_SAMPLE: cases per kind and point, default 4, 0 = 16).
# Prints each per-operation table; exits non-zero on a violation in either.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root/nvm-it"
rc=0
for sweep in CrashPointSweepTest:crash-test PowerLossSweepTest:powerloss-test; do
  test=${sweep%%:*} name=${sweep#*:}
  rm -f "target/$name-report.txt"
  src=0
  mvn -B -ntp -q surefire:test -Dtest="$test" -Dnvm.powerloss.sample="${POWERLOSS_SAMPLE:-4}" \
    > "target/$name.log" 2>&1 || src=$?
  echo "== $test"
  if [ -f "target/$name-report.txt" ]; then
    cat "target/$name-report.txt"
  else
    tail -40 "target/$name.log"
    echo "crash-test: $test wrote no report (log: nvm-it/target/$name.log)" >&2
    src=1
  fi
  [ "$src" = 0 ] || rc=1
  echo
done
exit $rc
