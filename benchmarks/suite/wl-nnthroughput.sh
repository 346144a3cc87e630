#!/usr/bin/env bash
# Workload: the unmodified NNThroughputBenchmark, 2.7.3's through the drop-in jar and, for the
# h35-* configurations, Hadoop 3.5.0's with its lock checked: bench_nnthroughput.py (its
# docstring has the parameters: NNT_OPS, NNT_THREADS, NNT_N, NNT_RUNS, CONFIGS, NNT_HEAP,
# NNT_BR_REPORTS, NNT_BR_BLOCKS_PER_FILE). `wl-nnthroughput.sh --plan` prints the measurements
# and their command lines without running them.
exec python3 "$(dirname "$0")/bench_nnthroughput.py" "$@"
