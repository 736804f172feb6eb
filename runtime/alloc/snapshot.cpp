// The allocation counters' part of perf::snapshot: every thread that allocated or
// freed, oldest first.
#include <algorithm>
#include <cstring>
#include <string>

#include "core/snapshot.hpp"
#include "core/startup.hpp"
#include "core/thread_name.hpp"
#include "perf/detail/alloc_counters.hpp"

namespace perf::runtime {
namespace {

namespace counters = alloc::detail;

const char* counting_name(counters::counting_mode mode) {
  switch (mode) {
    case counters::interposed: return "interposed";
    case counters::sanitizer_hooks: return "sanitizer hooks";
    case counters::inactive: break;
  }
  return "inactive";
}

allocation_stats read_allocations() {
  allocation_stats read;
  read.counting = counting_name(counters::mode());
  for (const counters::thread_counters* record = counters::newest_record(); record != nullptr; record = record->next) {
    // A record that the runtime's own work attached and then put back to zero
    // (core/uncounted_allocations.hpp): its thread allocated and freed nothing.
    if (counters::load_relaxed(record->allocations) == 0 && counters::load_relaxed(record->frees) == 0) continue;
    thread_allocations t;
    t.tid = record->tid;
    t.exited = __atomic_load_n(&record->state, __ATOMIC_ACQUIRE) == counters::exited;
    t.name = t.exited ? std::string(record->name, strnlen(record->name, sizeof record->name))
                      : thread_name(record->tid);
    t.allocations = counters::load_relaxed(record->allocations);
    t.bytes = counters::load_relaxed(record->bytes);
    t.frees = counters::load_relaxed(record->frees);
    t.bytes_freed = counters::load_relaxed(record->bytes_freed);
    t.peak_live_bytes = counters::load_relaxed(record->peak_live);
    read.threads.push_back(std::move(t));
  }
  std::reverse(read.threads.begin(), read.threads.end());
  return read;
}

// The counters as the program left them, read when it exits and before the exit
// outputs run: what the report and the trace writers allocate is not the program's.
const allocation_stats* at_exit = nullptr;

void read_allocations_at_exit() { at_exit = new allocation_stats(read_allocations()); }

void add_allocations(snapshot& s, const thread_list&, snapshot_depth) { s.allocations = at_exit != nullptr ? *at_exit : read_allocations(); }

PERF_RUNTIME_ON_START(register_allocation_part) {
  add_snapshot_part(add_allocations);
  add_exit_quiet(read_allocations_at_exit);
}

}  // namespace
}  // namespace perf::runtime
