// The process-wide list of threads, living and exited, and the hooks through which
// a component keeps state per thread and hands it over when a thread exits or the
// process forks. Only slow paths come here: a thread's first measured call (or
// tick), its exit, fork(), and readers such as the snapshot.
//
// Locks. A thread attaches on its first measured call, which may come from inside
// the program's own code with the program's locks held (its replacement operator
// new, say, calling a logging function). So attaching takes only the attach lock
// (held across the attach hooks) and the links' lock (held to link the record),
// neither ever held across an allocation (the allocator may be the program's) or
// any other program code; readers and hand-overs take only the links' lock of the
// two, to copy or unlink. Readers (visit_threads) take the thread list's lock, held
// across allocations; nothing waits for it in the middle of the program's code,
// provided the program does not read reports (perf::take_snapshot,
// perf::write_report) from inside its allocator.
//
// Exiting threads never wait for that lock: an exiting thread leaves its record on a
// lock-free stack of exited threads and goes. Exiting threads that find the lock free,
// and readers once they are done, hand the oldest of them over through the exit
// hooks, at most hand_over_at_once per call, and none while a reader waits for the
// lock. A reader hands none over before its visit: it visits those not handed over
// yet as living records that have left (has_left()). So a reader waits for at most one
// hand-over of at most hand_over_at_once threads, and its visit costs what the threads
// there are cost, however many threads start and exit meanwhile (a program's exit
// report while a spawner starts a thread every 100 µs:
// test/runtime/core/thread_churn_test.cpp).
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
// block is a pointer to the record), who it is, and its links in the thread list.
struct thread_record {
  detail::thread_state state;
  long tid = 0;
  char name[16] = {};  // as the thread was named when it exited (PR_GET_NAME)
  bool left = false;   // it has exited, `name` set; not handed over yet (has_left())
  // The list of living threads, in the order they attached (under the links' lock).
  thread_record* previous = nullptr;
  thread_record* next = nullptr;
  thread_record* next_exited = nullptr;  // the stack of exited threads not handed over yet
};
static_assert(offsetof(thread_record, state) == 0);

// Whether the thread of a record in thread_list::living has exited (its record
// waits to be handed over, as it left it): its `name` is then set. For visitors.
inline bool has_left(const thread_record& thread) { return __atomic_load_n(&thread.left, __ATOMIC_ACQUIRE); }

// What the list remembers of exited threads: one row per thread for the first
// config::exited_threads_listed to exit (PERF_THREADS), then a row per thread name
// (`tid` 0) that the later ones are folded into, for the first
// `exited_names_listed` names; later names share the row `other_exited_threads`.
// The rows thus stay bounded however many threads come and go.
struct exited_thread {
  long tid = 0;  // 0: a row of several threads
  std::string name;
  uint64_t threads = 1;  // threads folded into the row
};
constexpr size_t exited_names_listed = 64;
constexpr const char* other_exited_threads = "other names";

// The index of the row of `rows` (rows of exited threads as above, of any type
// with `tid`, `name` and `threads`, its first `listed` of one thread each) that the
// exited thread `tid` called `name` becomes or is folded into; a new row is
// appended, with its `tid`, `name` and `threads` = 1 (else value-initialized), a
// row it is folded into gets `threads` + 1. `one_by_one`: how many rows of one
// thread each there may be (config::exited_threads_listed).
template <typename Row>
size_t exited_row(std::vector<Row>& rows, size_t& listed, uint64_t one_by_one, long tid, std::string name) {
  auto append = [&](long row_tid, std::string row_name) {
    Row& row = rows.emplace_back();
    row.tid = row_tid;
    row.name = std::move(row_name);
    row.threads = 1;
    return rows.size() - 1;
  };
  if (listed == rows.size() && listed < one_by_one) {
    ++listed;
    return append(tid, std::move(name));
  }
  const size_t names = rows.size() - listed;
  auto named = [&](const std::string& wanted) {
    for (size_t i = listed; i < rows.size(); ++i)
      if (rows[i].name == wanted) return i;
    return rows.size();
  };
  size_t row = named(name);
  if (row == rows.size() && names >= exited_names_listed) row = named(other_exited_threads);
  if (row == rows.size()) return append(0, names < exited_names_listed ? std::move(name) : other_exited_threads);
  ++rows[row].threads;
  return row;
}

// The list, as exit hooks and visitors see it under the thread list's lock. Its order is
// the order of the report's thread rows: exited threads first (the rows above, in
// the order they were made), then the living ones, in the order they attached. A
// visitor's `living` is a copy taken when the visit began: a thread that attaches
// during the visit is not in it; none that is in it is handed over (its exit hooks
// run, its record freed) before the visit ends. A thread that has exited but is not
// handed over yet is in `living`, its record as it left it, has_left() true.
struct thread_list {
  const std::vector<exited_thread>& exited;
  const std::vector<thread_record*>& living;
};

// What a component does at a thread's lifecycle events. Every member may be null.
// `exit` runs under the thread list's lock, like the visitors of visit_threads():
// state that a component touches only from exit hooks and visitors needs no lock of
// its own. `attach` runs under the attach lock only, beside exit hooks and visitors:
// it must allocate nothing through operator new or malloc (mmap is the runtime's
// own), call no program code, and guard what it shares with them by a lock of its
// own, held as briefly. `fork_child` runs with all the locks held. A hook must not call
// visit_threads().
struct thread_hooks {
  // On the new thread, after its record is made and before it is listed: fills in
  // the component's part of `thread.state`. No allocation (see above).
  void (*attach)(thread_record& thread) = nullptr;
  // On the exiting thread, with no lock held, as the last thing it does with its
  // record: what must happen on the thread itself (its signal stack, its pending
  // durations). No allocation, no file.
  void (*leave)(thread_record& thread) = nullptr;
  // When the exited thread is handed over, on whichever thread does it, before it
  // leaves the list, where it becomes or is folded into `list.exited[exited_index]`
  // (a row new or already there): adds what the component reports of it to that
  // row's. The thread may be gone: only its record counts. May allocate.
  void (*exit)(thread_record& thread, size_t exited_index) = nullptr;
  // After `exit`, unlocked: frees the component's per-thread memory. Also called,
  // in the child of fork(), for the threads that do not exist there.
  void (*release)(thread_record& thread) = nullptr;
  // In the child of fork(): the exited threads are forgotten and `survivor`, the
  // forking thread (null if it never attached), is the only living one.
  void (*fork_child)(thread_record* survivor) = nullptr;
};

// The most exited threads one call hands over: what bounds a reader's wait, and an
// exiting thread's work for others.
constexpr size_t hand_over_at_once = 64;

// Adds `hooks` for every thread attached from now on. Call it only from a
// PERF_RUNTIME_ON_START function (core/startup.hpp), before any thread attaches.
void add_thread_hooks(const thread_hooks& hooks);

// Calls `visit` under the thread list's lock: no thread is handed over meanwhile, and
// threads that attach meanwhile are not in its list. Waits for at most one hand-over
// in progress, never behind exiting threads; then hands over at most
// hand_over_at_once exited threads. `visit` may allocate; it runs as the calling
// thread's runtime work (core/runtime_work.hpp).
void visit_threads(const std::function<void(const thread_list& list)>& visit);

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_CORE_THREADS_HPP
