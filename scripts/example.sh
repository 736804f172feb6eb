#!/usr/bin/env bash
# The main job end to end: builds and installs perf-instrument, copies the example
# log pipeline (examples/log_pipeline, marked with [[perf::measure]]), instruments
# the copy with perf-instrument, builds it, runs it and prints its exit-time report.
# Usage: scripts/example.sh [--json]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$root/build-example

"$root/scripts/setup.sh"
cmake -S "$root" -B "$work/perf" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DPERF_BUILD_TESTS=OFF -DPERF_BUILD_BENCH=OFF >/dev/null
cmake --build "$work/perf" >/dev/null
cmake --install "$work/perf" --prefix "$work/prefix" >/dev/null

rm -rf "$work/log_pipeline"
cp -r "$root/examples/log_pipeline" "$work/log_pipeline"
cmake -S "$work/log_pipeline" -B "$work/log_pipeline/build" -G Ninja -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
"$work/prefix/bin/perf-instrument" -p "$work/log_pipeline/build"
cmake --build "$work/log_pipeline/build" >/dev/null

if [[ ${1:-} == --json ]]; then
  PERF_REPORT="$work/report.json" "$work/log_pipeline/build/log_pipeline"
  cat "$work/report.json"
else
  "$work/log_pipeline/build/log_pipeline"
fi
