// Issue 29's memtable target (docs/performance.md, "Adaptive timing"): the throughput
// of a leveldb-like memtable (memtable.hpp: inserts and lookups through a comparator
// functor, a scan through an iterator's Next/key) with the comparator and the
// iterator's methods measured, over the same code plain, in one run; measured twice:
// with the scope's fast path called (the default) and inlined (PERF_INLINE_FAST_PATH).
// The three builds of memtable.cpp alternate round by round; each keeps its least
// time, the one least disturbed by other load. Target: at least 0.90x the plain
// build's throughput. Unless PERF_TIMING is set, the bench then runs itself again
// with PERF_TIMING=all.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <numeric>
#include <random>
#include <vector>

#include "adaptive/memtable.hpp"
#include "compensation_shapes.hpp"
#include "perf/perf.hpp"
#include "run_again.hpp"

namespace {

constexpr std::size_t keys_per_round = 50'000;
constexpr int rounds = 15;

uint64_t checksum = 0;

double round_ns(uint64_t (*round)(const uint64_t*, std::size_t), const std::vector<uint64_t>& keys) {
  const auto start = std::chrono::steady_clock::now();
  checksum += round(keys.data(), keys.size());
  return std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main(int, char** argv) {
  std::vector<uint64_t> keys(keys_per_round);
  std::iota(keys.begin(), keys.end(), uint64_t{1});
  std::shuffle(keys.begin(), keys.end(), std::mt19937_64(29));
  std::vector<double> plain, measured, inlined;
  for (int round = 0; round <= rounds; ++round) {
    const double plain_ns = round_ns(bench::plain_memtable::round, keys);
    const double measured_ns = round_ns(bench::measured_memtable::round, keys);
    const double inlined_ns = round_ns(bench::inlined_memtable::round, keys);
    if (round == 0) continue;  // warm-up
    plain.push_back(plain_ns);
    measured.push_back(measured_ns);
    inlined.push_back(inlined_ns);
  }
  const perf::snapshot s = perf::take_snapshot();
  uint64_t measured_calls = 0;
  for (const perf::function_stats& f : s.functions) measured_calls += f.calls;
  const double ratio = bench::least(plain) / bench::least(measured);
  const double inlined_ratio = bench::least(plain) / bench::least(inlined);
  std::printf(
      "memtable: %zu inserts, lookups and scanned keys a round, %.1f M measured calls a round: measured "
      "throughput / plain throughput %.3fx, %.3fx with PERF_INLINE_FAST_PATH (target >= 0.90x): %s\n",
      keys_per_round, static_cast<double>(measured_calls) / 2 / (rounds + 1) / 1e6, ratio, inlined_ratio,
      ratio >= 0.90           ? "met"
      : inlined_ratio >= 0.90 ? "met with PERF_INLINE_FAST_PATH"
                              : "NOT MET");
  if (checksum == 0) return 1;
  return bench::run_again_with(argv, "PERF_TIMING", "all");
}
