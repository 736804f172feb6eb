#!/usr/bin/env bash
# The main job end to end: builds the example log pipeline with the runtime,
# runs it, and prints its exit-time report. Usage: scripts/example.sh [--json]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build-example

"$root/scripts/setup.sh"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DPERF_BUILD_TESTS=OFF -DPERF_BUILD_BENCH=OFF >/dev/null
cmake --build "$build" --target log_pipeline >/dev/null

if [[ ${1:-} == --json ]]; then
  report=$build/report.json
  PERF_REPORT=$report "$build/examples/log_pipeline"
  cat "$report"
else
  "$build/examples/log_pipeline"
fi
