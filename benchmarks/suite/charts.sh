#!/usr/bin/env bash
# charts.sh RESULTS_DIR — draws the run's charts (bench_charts.py, matplotlib). Uses the system
# python3 if it has matplotlib, else a virtual environment under benchmarks/target/chart-venv,
# created and filled by pip on first use.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
VENV="$HERE/../target/chart-venv"
PY=python3
if ! python3 -c 'import matplotlib' 2>/dev/null; then
  if [ ! -x "$VENV/bin/python" ] || ! "$VENV/bin/python" -c 'import matplotlib' 2>/dev/null; then
    echo "installing matplotlib into $VENV (pip)"
    python3 -m venv "$VENV" || { echo "python3 -m venv failed: install python3-venv" >&2; exit 1; }
    "$VENV/bin/pip" install -q matplotlib
  fi
  PY="$VENV/bin/python"
fi
"$PY" "$HERE/bench_charts.py" "$1"
