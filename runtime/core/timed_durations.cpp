#include "core/timed_durations.hpp"

namespace perf::runtime {
namespace {

timed_durations_source chosen = nullptr;  // set before any thread but main runs

}  // namespace

void set_timed_durations_source(timed_durations_source source) { chosen = source; }

bucket_counts read_timed_durations(unsigned site) { return chosen != nullptr ? chosen(site) : bucket_counts{}; }

}  // namespace perf::runtime
