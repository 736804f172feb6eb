#include "core/timed_samples.hpp"

namespace perf::runtime {
namespace {

timed_samples_source chosen{nullptr, nullptr};  // set before any thread but main runs

}  // namespace

void set_timed_samples_source(const timed_samples_source& source) { chosen = source; }

std::vector<timed_sample> read_timed_samples(uint64_t from, uint64_t to) {
  return chosen.read != nullptr ? chosen.read(from, to) : std::vector<timed_sample>{};
}

void prepare_timed_samples() {
  if (chosen.prepare != nullptr) chosen.prepare();
}

}  // namespace perf::runtime
