#include "core/timed_samples.hpp"

namespace perf::runtime {
namespace {

timed_samples_reader chosen_reader = nullptr;  // written before any thread but main runs

}  // namespace

void set_timed_samples_reader(timed_samples_reader reader) { chosen_reader = reader; }

std::vector<timed_sample> read_timed_samples(uint64_t from, uint64_t to) {
  return chosen_reader != nullptr ? chosen_reader(from, to) : std::vector<timed_sample>{};
}

}  // namespace perf::runtime
