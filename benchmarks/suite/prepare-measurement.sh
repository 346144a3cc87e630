#!/usr/bin/env bash
# prepare-measurement.sh CFG WORK REGION_GB — for one in-process measurement (bench_nnthroughput.py):
# CFG's configuration in WORK/conf (bench_conf, from the configuration table) and its name
# directory formatted by CFG's runtime, or copied from FORMAT_CACHE (nn_format_cached). Prints
# what the measurement's JVM needs, as NAME=value lines: CFG_TMP (the tmpfs directory to remove
# afterwards), CFG_ENV_FORCE (PMEM_IS_PMEM_FORCE), CFG_LIB (the runtime's class path directory).
# Needs RESULTS (bench-lib.sh) and, to share formats between measurements, FORMAT_CACHE.
set -euo pipefail
source "$(dirname "$0")/bench-lib.sh"
[ $# = 3 ] || { echo "usage: $0 CFG WORK REGION_GB" >&2; exit 2; }
cfg=$1 work=$2 gb=$3
bench_conf "$cfg" "$work" "$gb" >&2
# printed before the format: a failed format still names the directory to remove
printf 'CFG_TMP=%s\nCFG_ENV_FORCE=%s\nCFG_LIB=%s\n' "$CFG_TMP" "$CFG_ENV_FORCE" "$CFG_LIB"
# the format's own log stays in WORK/conf/format.log
nn_format_cached "$cfg" "$work/conf" >&2
