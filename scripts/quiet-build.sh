#!/usr/bin/env bash
# The Makefile's Maven build, quietly: Maven's whole output goes to a log file; the terminal gets
# one line per reactor module (its name when it starts, ok or FAILED and its time when it ends).
# On failure: the failing module's last lines before Maven's summary, the [ERROR] lines, the
# log's path; the exit status is Maven's.
#   scripts/quiet-build.sh MAVEN_ARGS...     e.g. scripts/quiet-build.sh -DskipTests install
# Environment: MVN (default 'mvn -B -ntp'; the Makefile passes its own), BUILD_LOG (default
# build.log at the repository root: outside every target/, so a `clean` in the same build
# cannot delete it while it is written).
set -uo pipefail
shopt -s extglob
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
log=${BUILD_LOG:-$root/build.log}
read -r -a mvn <<< "${MVN:-mvn -B -ntp}"
shown=${log#"$root"/}

now_us() { local t=${EPOCHREALTIME:-$(date +%s.%N)}; t=${t/[.,]/}; echo "${t:0:16}"; }
secs() { local us=$1; printf '%d.%d s' $((us / 1000000)) $(((us / 100000) % 10)); }

echo "build: ${mvn[*]} $*   (full log: $shown)"
t0=$(now_us)

# parse: reads Maven's output, writes every line to the log (fd 3), prints the module lines.
# Leaves in $state_file the failing module's name and the log line number of its header.
state_file=$(mktemp)
trap 'rm -f "$state_file"' EXIT
parse() {
  local line plain n=0 cur="" idx="" hdr=0 start=0 t failed
  # a module's line is printed when it starts and completed when it ends
  finish() {   # finish STATUS
    [ -n "$cur" ] || return 0
    t=$(now_us)
    printf '%-6s %s\n' "$1" "$(secs $((t - start)))"
  }
  while IFS= read -r line || [ -n "$line" ]; do
    printf '%s\n' "$line" >&3
    n=$((n + 1))
    plain=${line//$'\e'\[*([0-9;])m/}
    # "[INFO] Building NVM NameNode :: jar patcher 0.1.0-SNAPSHOT    [2/7]" (not "Building jar: ...")
    if [[ $plain =~ ^\[INFO\]\ Building\ (.*[^ ])\ +(\[[0-9]+/[0-9]+\])$ ]]; then
      finish ok
      cur=${BASH_REMATCH[1]% *}; idx=${BASH_REMATCH[2]}; hdr=$n; start=$(now_us)
      printf '  %-6s %-56s ' "$idx" "$cur"
    elif [[ $plain == "[INFO] BUILD SUCCESS" ]]; then
      finish ok; cur=""
    elif [[ $plain == "[INFO] BUILD FAILURE" ]]; then
      failed=$cur; finish FAILED; cur=""
      printf '%s\n%s\n' "$failed" "$hdr" > "$state_file"
    fi
  done
  # output ended without a verdict (Maven killed, or a single-module build without headers)
  if [ -n "$cur" ]; then echo "?"; printf '%s\n%s\n' "$cur" "$hdr" > "$state_file"; fi
}

exec 3> "$log"
"${mvn[@]}" "$@" 2>&1 | parse
rc=${PIPESTATUS[0]}
exec 3>&-
el=$(secs $(($(now_us) - t0)))

if [ "$rc" = 0 ]; then
  echo "build: done in $el"
  exit 0
fi

module=$(sed -n 1p "$state_file"); hdr=$(sed -n 2p "$state_file"); [ "${hdr:-0}" -gt 0 ] || hdr=1
echo
echo "build: FAILED after $el${module:+ in module '$module'} (mvn exit $rc)"
first=$(awk -v s="$hdr" 'NR >= s && /^\[ERROR\]/ { print NR; exit }' "$log")
if [ -n "$first" ]; then
  # what the failing step printed before Maven's summary and errors (a compiler, CMake, ctest, a test)
  end=$(awk -v s="$hdr" -v f="$first" 'NR >= s && (NR == f || /^\[INFO\] (Reactor Summary|BUILD FAILURE)/) { print NR; exit }' "$log")
  if [ "$end" -gt "$hdr" ]; then
    echo "---- the module's last lines (log lines $hdr-$((end - 1))):"
    sed -n "${hdr},$((end - 1))p" "$log" | grep -vE '^\[INFO\] *$' | tail -30
  fi
  echo "---- the errors:"
  sed -n "${first},\$p" "$log" | grep '^\[ERROR\]' | sed 's/ -> \[Help 1\]$//' \
    | grep -vE '^\[ERROR\] *$|Re-run Maven|-e switch|-X switch|For more information about|\[Help 1\] http|After correcting the problems|mvn <args> -rf' \
    | sed -n 1,40p
else
  echo "---- the last 40 lines of the log:"
  tail -40 "$log"
fi
echo "---- full log: $log"
exit "$rc"
