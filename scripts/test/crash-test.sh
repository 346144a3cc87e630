#!/usr/bin/env bash
# make crash-test: the crash-point sweep (nvm-it CrashPointSweepTest). A real NameNode in NVM mode
# runs every supported mutation once with the region capturing, at every persist barrier, the
# images a crash there would leave; each image is checked, recovered and compared with the
# operation's consistent states. Prints the per-operation table; exits non-zero on a violation.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root/nvm-it"
rm -f target/crash-test-report.txt
rc=0
mvn -B -ntp -q surefire:test -Dtest=CrashPointSweepTest > target/crash-test.log 2>&1 || rc=$?
if [ -f target/crash-test-report.txt ]; then
  cat target/crash-test-report.txt
else
  tail -40 target/crash-test.log
  echo "crash-test: no report was written (log: nvm-it/target/crash-test.log)" >&2
  exit 1
fi
exit $rc
