#!/usr/bin/env bash
# The main job end to end: builds and installs perf-instrument, builds the example log
# pipeline (examples/log_pipeline: a plain CMake project marked with [[perf::measure]])
# instrumented through the zero-edit CMake integration -- its files untouched, one -D
# on the configure line -- runs it and prints its exit-time report; the tick log's
# timeline goes to build-example/trace.json. Usage: scripts/example.sh [--json]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$root/build-example

"$root/scripts/setup.sh"
cmake -S "$root" -B "$work/perf" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DPERF_BUILD_TESTS=OFF -DPERF_BUILD_BENCH=OFF >/dev/null
cmake --build "$work/perf" >/dev/null
cmake --install "$work/perf" --prefix "$work/prefix" >/dev/null

cmake -S "$root/examples/log_pipeline" -B "$work/log_pipeline" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_PROJECT_INCLUDE="$("$work/prefix/bin/perf-instrument" --cmake-include)" >/dev/null
cmake --build "$work/log_pipeline" >/dev/null

export PERF_TRACE=$work/trace.json
# 200,000 lines take the pipeline a few hundred milliseconds of CPU: at the default
# 100 Hz that is a handful of samples, at 1 kHz a few hundred, enough for the sampler's
# section to say where the time goes.
export PERF_SAMPLE_HZ=${PERF_SAMPLE_HZ:-1000}
lines=200000
if [[ ${1:-} == --json ]]; then
  PERF_REPORT="$work/report.json" "$work/log_pipeline/log_pipeline" $lines >/dev/null
  cat "$work/report.json"
else
  "$work/log_pipeline/log_pipeline" $lines
  echo "Timeline of every measured call: $PERF_TRACE (open it in https://ui.perfetto.dev)"
fi
