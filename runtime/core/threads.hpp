// The process-wide list of threads, living and exited, and the hooks through which
// a component keeps state per thread and hands it over when a thread exits or the
// process forks. Only slow paths come here: a thread's first measured call (or
// tick), its exit, fork(), and readers such as the snapshot.
#ifndef PERF_RUNTIME_CORE_THREADS_HPP
#define PERF_RUNTIME_CORE_THREADS_HPP

#include <pthread.h>

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "perf/detail/thread_state.hpp"

namespace perf::runtime {

// The runtime's side of a thread: its hot block (first, so that a pointer to the
// block is a pointer to the record) and who it is.
struct thread_record {
  detail::thread_state state;
  long tid = 0;
};
static_assert(offsetof(thread_record, state) == 0);

// What the list remembers of a thread that has exited.
struct exited_thread {
  long tid = 0;
  std::string name;
};

// The list, as hooks and visitors see it while it is locked. Its order is the
// order of the report's thread rows: exited threads first, in the order they
// exited, then the living ones, in the order they attached.
struct thread_list {
  const std::vector<exited_thread>& exited;
  const std::vector<thread_record*>& living;
};

// What a component does at a thread's lifecycle events. Every member may be null.
// `attach`, `exit` and `fork_child` run with the list locked, like the visitors of
// visit_threads(): state that a component touches only from its hooks and
// visitors needs no lock of its own. A hook must not call visit_threads().
struct thread_hooks {
  // On the new thread, after its record is made and before it is listed: fills in
  // the component's part of `thread.state`.
  void (*attach)(thread_record& thread) = nullptr;
  // On the exiting thread, before it leaves the list, where it becomes
  // `list.exited[exited_index]`: keeps what the component reports of it.
  void (*exit)(thread_record& thread, size_t exited_index) = nullptr;
  // After `exit`, unlocked: frees the component's per-thread memory. Also called,
  // in the child of fork(), for the threads that do not exist there.
  void (*release)(thread_record& thread) = nullptr;
  // In the child of fork(): the exited threads are forgotten and `survivor`, the
  // forking thread (null if it never attached), is the only living one.
  void (*fork_child)(thread_record* survivor) = nullptr;
};

// Adds `hooks` for every thread attached from now on. Call it only from a
// PERF_RUNTIME_ON_START function (core/startup.hpp), before any thread attaches.
void add_thread_hooks(const thread_hooks& hooks);

// Calls `visit` with the list locked: no thread attaches or exits meanwhile.
void visit_threads(const std::function<void(const thread_list& list)>& visit);

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_CORE_THREADS_HPP
