#!/usr/bin/env bash
# The side-by-side benchmark suite (docs/benchmarks.md): bench_driver.py, which holds the
# profiles (bench_profiles.py), reads the configurations (bench_configs.py) and runs the wl-*.sh
# workloads.
#   bench.sh quick|full|targets|nnthroughput|heap-attrs|ha|snapshots [--into RESULTS_DIR] [--dry-run] [WORKLOAD...]
# Every parameter a profile sets can be overridden by an environment variable of the same name.
# Writes benchmarks/results/<timestamp>/ (results.csv, ratios.csv, targets.csv, report.txt,
# run-info.txt, charts/, logs/) and points benchmarks/results/latest at it; --into adds a segment
# to an earlier run's directory; --dry-run prints the plan and runs nothing. `bench.sh --help`.
exec python3 "$(dirname "$0")/bench_driver.py" "$@"
