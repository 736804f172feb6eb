// Whether a measured duration holds the measured body: leaves whose bodies are
// dependent chains of 0 to 32 multiply-adds (bodies.hpp; each call takes the last
// one's result), every call timed (PERF_MEASURE_TIME_ALL) and sampled (PERF_MEASURE
// under adaptive timing), their reported mean less the plain twin's time, median of 7
// rounds (docs/performance.md, "The clock's reads and the measured body"). A read the
// processor may move (plain RDTSC) lets the body run in the probe's shadow: the
// reported mean misses part of it. Unless PERF_CLOCK is set, the bench then runs itself
// again with PERF_CLOCK=rdtscp and with PERF_CLOCK=tsc-fenced. Benches are not tests:
// the exit status says nothing of the figures.
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "adaptive/bodies.hpp"
#include "adaptive/leaf_loops.hpp"
#include "compensation_shapes.hpp"
#include "perf/perf.hpp"
#include "run_again.hpp"

namespace {

template <int Steps>
__attribute__((noinline)) uint64_t plain_leaf(uint64_t x) {
  return bench::chain<Steps>(x);
}

template <int Steps>
__attribute__((noinline)) uint64_t every_call_timed(uint64_t x) {
  PERF_MEASURE_TIME_ALL("every call timed");
  return bench::chain<Steps>(x);
}

template <int Steps>
__attribute__((noinline)) uint64_t sampled(uint64_t x) {
  PERF_MEASURE("sampled");
  return bench::chain<Steps>(x);
}

template <int Steps>
void report_body() {
  constexpr int rounds = 7;
  std::vector<double> plain, timed_error, sampled_error;
  for (int round = 0; round <= rounds; ++round) {
    const double plain_ns = bench::loop_ns_per_call<plain_leaf<Steps>>(2'000'000);
    const double timed_ns = bench::measured_loop<every_call_timed<Steps>>(1'000'000, "every call timed").mean_ns;
    const double sampled_ns = bench::measured_loop<sampled<Steps>>(4'000'000, "sampled").mean_ns;
    if (round == 0) continue;  // warm-up
    plain.push_back(plain_ns);
    timed_error.push_back(timed_ns - plain_ns);
    sampled_error.push_back(sampled_ns - plain_ns);
  }
  const double p = bench::median(plain), t = bench::median(timed_error), s = bench::median(sampled_error);
  std::printf("%5d %9.2f %+13.2f %7.3f %+13.2f %7.3f\n", Steps, p, t, (p + t) / p, s, (p + s) / p);
}

}  // namespace

int main(int, char** argv) {
  const perf::snapshot s = perf::take_snapshot();
  std::printf("clock %s; probe %.2f ns a call (%.2f ns inside), %s\n", s.clock.source.c_str(), s.clock.probe_ns,
              s.clock.probe_inside_ns, s.clock.compensated ? "subtracted" : "not subtracted");
  // The error: the reported mean less the plain call's time; the ratio: reported / plain.
  std::printf("%5s %9s %13s %7s %13s %7s\n", "steps", "plain ns", "timed: error", "ratio", "sampled: error", "ratio");
  report_body<0>();
  report_body<1>();
  report_body<2>();
  report_body<4>();
  report_body<8>();
  report_body<16>();
  report_body<32>();
  std::fflush(stdout);
  const int fenced_by_rdtscp = bench::run_again_with(argv, "PERF_CLOCK", "rdtscp");
  return fenced_by_rdtscp != 0 ? fenced_by_rdtscp : bench::run_again_with(argv, "PERF_CLOCK", "tsc-fenced");
}
