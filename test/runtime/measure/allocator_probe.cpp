// A program with a replacement operator new of its own, which the runtime allocates
// through (attaching a thread, registering a site). ALLOCATOR_PROBE_MODE chooses it:
//   measured  operator new is itself measured; 3 work() calls, then 4 on a thread
//   hooked    operator new calls a measured hook under a lock of the program's (as a
//             logging library's allocation hook does), while 8 threads each make the
//             first calls of 64 sites; the threads have attached before the hook is
//             on (one work() call each) and exit after it is off
//   churning  the same hook, on throughout: 4 rounds of 8 threads that are created,
//             allocate (the hook's measured call attaches them, the hook's lock
//             held), make the first calls of 64 sites new to the round, and exit,
//             while another thread takes snapshots and writes a report
//   (unset)   a plain operator new; the same calls as `measured`
// A deadlock ends the process with SIGALRM instead of hanging its test.
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <thread>
#include <utility>
#include <vector>

#include "perf/perf.hpp"

namespace {

enum class allocator_mode { plain, measured, hooked, churning };

allocator_mode chosen_mode() {
  static const allocator_mode mode = [] {
    const char* name = std::getenv("ALLOCATOR_PROBE_MODE");
    if (name != nullptr && std::strcmp(name, "measured") == 0) return allocator_mode::measured;
    if (name != nullptr && std::strcmp(name, "hooked") == 0) return allocator_mode::hooked;
    if (name != nullptr && std::strcmp(name, "churning") == 0) return allocator_mode::churning;
    return allocator_mode::plain;
  }();
  return mode;
}

void* allocate(std::size_t bytes) {
  void* memory = std::malloc(bytes == 0 ? 1 : bytes);
  if (memory == nullptr) throw std::bad_alloc();
  return memory;
}

void* measured_allocate(std::size_t bytes) {
  PERF_MEASURE("allocator_probe.operator_new");
  return allocate(bytes);
}

std::atomic<bool> hook_on{false};
std::mutex hook_lock;
thread_local bool in_hook = false;
void allocation_hook() { PERF_MEASURE("allocator_probe.allocation_hook"); }

void work() { PERF_MEASURE("allocator_probe.work"); }

constexpr std::size_t sites_per_thread = 64;
template <std::size_t Round, std::size_t>
void first_call() {
  PERF_MEASURE("allocator_probe.first_call");
}
template <std::size_t Round, std::size_t... K>
void call_each(std::index_sequence<K...>) {
  (first_call<Round, K>(), ...);
}

}  // namespace

void* operator new(std::size_t bytes) {
  switch (chosen_mode()) {
    case allocator_mode::measured: return measured_allocate(bytes);
    case allocator_mode::hooked:
    case allocator_mode::churning:
      if (hook_on.load() && !in_hook) {  // the hook's own allocations (the runtime's on its first call) are not hooked
        in_hook = true;
        {
          const std::lock_guard<std::mutex> lock(hook_lock);
          allocation_hook();
        }
        in_hook = false;
      }
      break;
    case allocator_mode::plain: break;
  }
  return allocate(bytes);
}
// Every other form that pairs with these, so that no allocation made by one form is
// freed by another's (a sanitizer checks).
void* operator new[](std::size_t bytes) { return ::operator new(bytes); }
void* operator new(std::size_t bytes, const std::nothrow_t&) noexcept {
  try {
    return ::operator new(bytes);
  } catch (const std::bad_alloc&) { return nullptr; }
}
void* operator new[](std::size_t bytes, const std::nothrow_t& tag) noexcept { return ::operator new(bytes, tag); }
void operator delete(void* memory) noexcept { std::free(memory); }
void operator delete(void* memory, std::size_t) noexcept { std::free(memory); }
void operator delete[](void* memory) noexcept { std::free(memory); }
void operator delete[](void* memory, std::size_t) noexcept { std::free(memory); }
void operator delete(void* memory, const std::nothrow_t&) noexcept { std::free(memory); }
void operator delete[](void* memory, const std::nothrow_t&) noexcept { std::free(memory); }

constexpr int thread_count = 8;

// One round of `churning`: its threads' first allocation runs the hook (before any
// measured call of their own), then they call the round's sites for the first time.
template <std::size_t Round>
void churn_round() {
  std::vector<std::thread> threads;
  for (int t = 0; t < thread_count; ++t)
    threads.emplace_back([] {
      void* volatile buffer = ::operator new(64);  // a call, not a new-expression: never elided
      ::operator delete(buffer);
      call_each<Round>(std::make_index_sequence<sites_per_thread>());
    });
  for (std::thread& t : threads) t.join();
}

// `churning`: the rounds, and the reader beside them. `report`: where it writes.
void churn(const char* report) {
  std::atomic<bool> done{false};
  std::thread reader([&] {
    do {
      const perf::snapshot s = perf::take_snapshot();
      (void)s;
    } while (!done.load());
    perf::write_report(report);
  });
  churn_round<1>();
  churn_round<2>();
  churn_round<3>();
  churn_round<4>();
  done = true;
  reader.join();
}

int main() {
  alarm(60);
  if (chosen_mode() == allocator_mode::churning) {
    hook_on = true;
    const char* report = std::getenv("ALLOCATOR_PROBE_REPORT");
    churn(report != nullptr ? report : "/dev/null");
    hook_on = false;
    return 0;
  }
  if (chosen_mode() == allocator_mode::hooked) {
    std::atomic<int> attached{0}, finished{0};
    std::atomic<bool> go{false}, leave{false};
    std::vector<std::thread> threads;
    for (int t = 0; t < thread_count; ++t)
      threads.emplace_back([&] {
        work();
        ++attached;
        while (!go.load()) std::this_thread::yield();
        call_each<0>(std::make_index_sequence<sites_per_thread>());
        ++finished;
        while (!leave.load()) std::this_thread::yield();
      });
    while (attached.load() < thread_count) std::this_thread::yield();
    hook_on = true;
    go = true;
    while (finished.load() < thread_count) std::this_thread::yield();
    hook_on = false;
    leave = true;
    for (std::thread& t : threads) t.join();
    return 0;
  }
  for (int i = 0; i < 3; ++i) work();
  std::thread([] {
    for (int i = 0; i < 4; ++i) work();
  }).join();
  return 0;
}
