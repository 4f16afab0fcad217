#!/usr/bin/env bash
# Runs the benchmark of docs/performance.md: builds reactor-trace (the render rows run it) and
# the benchmark in release, then runs every row. Arguments go to the benchmark:
#   scripts/bench.sh --runs 5 --filter counter-sync,trace-read
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/bootstrap.sh
swift build -c release --product reactor-trace
swift run -c release reactor-trace-bench "$@"
