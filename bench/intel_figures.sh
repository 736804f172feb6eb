#!/bin/sh
# Every figure issue 14 asks of a many-core Intel machine with RDTSCP, in one command
# (docs/performance.md, "Intel"):
#
#   bench/intel_figures.sh [BUILD_DIR]               build (default: build-figures) and run
#   bench/intel_figures.sh --stage DIR [BUILD_DIR]   build here, copy the benches and the
#                                                    shared libraries they load into DIR
#   bench/intel_figures.sh --prebuilt DIR            run the benches staged in DIR (on a
#                                                    machine without the build's packages)
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
benches="bench/runtime_bench bench/compensation_bench bench/adaptive/adaptive_bench bench/adaptive/memtable_bench"

build() {
  cmake -S "$source_dir" -B "$1" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DPERF_BUILD_TOOL=OFF -DPERF_BUILD_TESTS=OFF -DPERF_BUILD_BENCH=ON >/dev/null
  cmake --build "$1" --target runtime_bench compensation_bench adaptive_bench memtable_bench
}

case "${1:-}" in
  --stage)
    stage=$2
    build_dir=${3:-build-figures}
    build "$build_dir"
    mkdir -p "$stage/lib"
    for bench in $benches; do
      mkdir -p "$stage/$(dirname "$bench")"
      cp "$build_dir/$bench" "$stage/$bench"
      # Every library it loads but the C and C++ runtimes, which the other machine has.
      ldd "$build_dir/$bench" | awk '$3 ~ /^\// {print $3}' | while read -r library; do
        case $(basename "$library") in
          libc.so* | libm.so* | libstdc++.so* | libgcc_s.so*) ;;
          *) cp -L "$library" "$stage/lib/" ;;
        esac
      done
    done
    echo "staged in $stage: bench/intel_figures.sh --prebuilt $stage"
    exit 0
    ;;
  --prebuilt)
    build_dir=$2
    export LD_LIBRARY_PATH="$(cd "$build_dir" && pwd)/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    ;;
  *)
    build_dir=${1:-build-figures}
    build "$build_dir"
    ;;
esac

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
