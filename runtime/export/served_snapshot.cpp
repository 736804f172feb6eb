#include "export/served_snapshot.hpp"

#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>

#include "sampler/sampler.hpp"

namespace perf::runtime {
namespace {

std::atomic<long> server_tid{0};

template <typename Rows>
void erase_server_rows(Rows& rows, long tid) {
  rows.erase(std::remove_if(rows.begin(), rows.end(), [tid](const auto& row) { return row.tid == tid; }), rows.end());
}

}  // namespace

void become_server_thread() noexcept {
  // Lives as long as the thread: the handler passes over its samples.
  static thread_local const sampling_pause paused;
  (void)paused;
  server_tid.store(static_cast<long>(syscall(SYS_gettid)), std::memory_order_release);
}

snapshot served_snapshot() {
  snapshot s = take_snapshot();
  const long tid = server_tid.load(std::memory_order_acquire);
  if (tid != 0) {
    erase_server_rows(s.threads, tid);
    erase_server_rows(s.allocations.threads, tid);
    erase_server_rows(s.samples.threads, tid);
  }
  return s;
}

}  // namespace perf::runtime
