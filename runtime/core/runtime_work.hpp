// The runtime's own work on a program's thread (attaching the thread, registering a
// site, reading every thread's figures under the thread list's lock), during which
// the thread's measured calls record nothing. Such a call comes from code the
// runtime does not control: the program's replacement operator new, or a signal
// handler that interrupted the work. Recorded, it could take a lock the thread
// already holds, or recurse into the very work it interrupted.
#ifndef PERF_RUNTIME_CORE_RUNTIME_WORK_HPP
#define PERF_RUNTIME_CORE_RUNTIME_WORK_HPP

#include "perf/detail/compiler.hpp"
#include "perf/detail/thread_state.hpp"

namespace perf::runtime {

// How many runtime_work regions are open on a thread that has no block yet:
// attach_thread() attaches nothing while it is nonzero. Only runtime_work writes it.
extern PERF_DETAIL_TLS unsigned unattached_runtime_work;

// While a runtime_work lives, the calling thread is busy (thread_state::busy): its
// measured calls, and its attaching, record nothing. Use it as a local, on one
// thread; regions nest. Async-signal-safe; allocates nothing. A thread that attaches
// inside the region is not busy for the rest of it.
class runtime_work {
 public:
  runtime_work() noexcept : thread_(detail::current_thread) {
    unsigned& depth = thread_ != nullptr ? thread_->busy : unattached_runtime_work;
    __atomic_store_n(&depth, depth + 1, __ATOMIC_RELAXED);
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
  }
  ~runtime_work() {
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    unsigned& depth = thread_ != nullptr ? thread_->busy : unattached_runtime_work;
    __atomic_store_n(&depth, depth - 1, __ATOMIC_RELAXED);
  }
  runtime_work(const runtime_work&) = delete;
  runtime_work& operator=(const runtime_work&) = delete;

 private:
  detail::thread_state* const thread_;
};

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_CORE_RUNTIME_WORK_HPP
