// The allocation counters' part of perf::snapshot: every thread that allocated or
// freed, the exited ones in bounded rows.
#include <algorithm>
#include <cstring>
#include <string>
#include <utility>

#include "core/settings.hpp"
#include "core/snapshot_parts.hpp"
#include "core/startup.hpp"
#include "core/thread_name.hpp"
#include "perf/alloc.hpp"
#include "perf/detail/alloc_counters.hpp"

namespace perf::runtime {
namespace {

namespace counters = alloc::detail;

allocation_counting counting_of(counters::counting_mode mode) {
  switch (mode) {
    case counters::interposed: return allocation_counting::interposed;
    case counters::sanitizer_hooks: return allocation_counting::sanitizer_hooks;
    case counters::inactive: break;
  }
  return allocation_counting::inactive;
}

// Exited threads first, in rows as the thread list keeps them (core/threads.hpp:
// the first to start one by one, the later ones folded by name; a row's peak is
// its threads' highest), then the living ones; each in the order they started.
allocation_stats read_allocations() {
  // The reading thread's own counters as they were before this reading allocated.
  const alloc::counters mine = alloc::this_thread();
  const counters::thread_counters* const my_record = counters::current;
  allocation_stats read;
  read.counting = counting_of(counters::mode());
  std::vector<std::pair<const counters::thread_counters*, alloc::counters>> oldest_first;
  for (const counters::thread_counters* record = counters::newest_record(); record != nullptr; record = record->next) {
    const alloc::counters c =
        record == my_record
            ? mine
            : alloc::counters{counters::load_relaxed(record->allocations), counters::load_relaxed(record->bytes),
                              counters::load_relaxed(record->frees), counters::load_relaxed(record->bytes_freed),
                              counters::load_relaxed(record->peak_live)};
    // A record that the runtime's own work attached and then put back to zero
    // (core/uncounted_allocations.hpp): its thread allocated and freed nothing.
    if (c.allocations == 0 && c.frees == 0) continue;
    oldest_first.emplace_back(record, c);
  }
  std::reverse(oldest_first.begin(), oldest_first.end());
  std::vector<thread_allocations> living;
  size_t listed = 0;
  const uint64_t one_by_one = current_settings().environment.exited_threads_listed;
  for (const auto& [record, c] : oldest_first) {
    const bool exited = __atomic_load_n(&record->state, __ATOMIC_ACQUIRE) == counters::exited;
    thread_allocations* t = nullptr;
    if (exited) {
      t = &read.threads[exited_row(read.threads, listed, one_by_one, record->tid,
                                   std::string(record->name, strnlen(record->name, sizeof record->name)))];
    } else {
      t = &living.emplace_back();
      t->tid = record->tid;
      t->name = thread_name(record->tid);
    }
    t->exited = exited;
    t->allocations += c.allocations;
    t->bytes += c.bytes;
    t->frees += c.frees;
    t->bytes_freed += c.bytes_freed;
    t->peak_live_bytes = std::max<uint64_t>(t->peak_live_bytes, c.peak_live);
  }
  read.threads.insert(read.threads.end(), living.begin(), living.end());
  return read;
}

// The counters as the program left them, read when it exits and before the exit
// outputs run: what the report and the trace writers allocate is not the program's.
const allocation_stats* at_exit = nullptr;

void read_allocations_at_exit() {
  allocation_stats read = read_allocations();  // before the allocation that keeps it
  at_exit = new allocation_stats(std::move(read));
}

void add_allocations(snapshot& s, const thread_list&, snapshot_depth) {
  s.allocations = at_exit != nullptr ? *at_exit : read_allocations();
}

PERF_RUNTIME_ON_START(register_allocation_part) {
  add_snapshot_part(add_allocations);
  add_exit_quiet(read_allocations_at_exit);
}

}  // namespace
}  // namespace perf::runtime
