#!/bin/sh
# Every figure issue 14 asks of a many-core Intel machine with RDTSCP, in one command
# (docs/performance.md, "Intel"):
#
#   bench/intel_figures.sh [BUILD_DIR]      (default: build-figures)
#
# Builds runtime_bench, compensation_bench, adaptive_bench and memtable_bench (RelWithDebInfo, no rewriter, no tests),
# prints the processor and its clock features, then runs runtime_bench with the
# default clock and with PERF_CLOCK=rdtscp and PERF_CLOCK=tsc: the measured call in
# bare clock reads and in bare rdtsc reads, with and without tick-log events
# (PERF_MEASURE_NO_TICKS), perf::tick(n), per-thread throughput at 2 to N threads
# (N = the CPUs), the exit report for 10,000 sites x 16 threads, and the same probe
# ratios interleaved with their 95% intervals; then the compensation bench and issue
# 29's adaptive-timing benches (adaptive_bench, memtable_bench).
set -eu

source_dir=$(cd "$(dirname "$0")/.." && pwd)
build_dir=${1:-build-figures}

cmake -S "$source_dir" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DPERF_BUILD_TOOL=OFF -DPERF_BUILD_TESTS=OFF -DPERF_BUILD_BENCH=ON >/dev/null
cmake --build "$build_dir" --target runtime_bench compensation_bench adaptive_bench memtable_bench

echo "== processor"
lscpu | grep -E '^(Model name|CPU\(s\)|Thread\(s\) per core|Hypervisor vendor):' || true
for flag in rdtscp constant_tsc nonstop_tsc; do
  if grep -qw "$flag" /proc/cpuinfo; then echo "$flag: yes"; else echo "$flag: no"; fi
done

for clock in auto rdtscp tsc; do
  echo
  echo "== runtime_bench, PERF_CLOCK=$clock"
  PERF_CLOCK=$clock PERF_REPORT=off "$build_dir/bench/runtime_bench"
done

echo
echo "== compensation_bench (default clock)"
PERF_REPORT=off "$build_dir/bench/compensation_bench"

echo
echo "== adaptive_bench (default clock, PERF_TIMING as its default)"
PERF_REPORT=off "$build_dir/bench/adaptive/adaptive_bench"

echo
echo "== memtable_bench (default clock)"
PERF_REPORT=off "$build_dir/bench/adaptive/memtable_bench"
