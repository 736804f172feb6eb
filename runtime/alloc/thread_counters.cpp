// The records of allocation counters: one per thread that allocated, carved from
// never-freed pages and kept in a list that only grows, so that any thread may
// walk it without a lock while threads come and go.
#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdlib>

#include "alloc/heap_sampling_hook.hpp"
#include "core/stack_unwind.hpp"
#include "core/startup.hpp"
#include "perf/detail/alloc_counters.hpp"

namespace perf::alloc::detail {
namespace {

// Never written: its state stays `unattached`. Its `recording` is nonzero, so that
// the interposer's one test of `recording` also sends a thread without its own
// record to the path that attaches one.
// constinit: allocations before any constructor runs read it.
constinit thread_counters placeholder = [] {
  thread_counters record{};
  record.recording = 1;
  return record;
}();
thread_counters* list_head = nullptr;
int counting = inactive;
uint32_t frees_checked = 0;  // check_frees of the records to come

// Records are carved from chunks of this many bytes, under a spin lock: a thread
// takes it once, on its first allocation, and malloc cannot use a mutex that may
// itself allocate.
constexpr size_t chunk_bytes = 64 * 1024;
bool busy = false;
thread_counters* chunk_next = nullptr;
thread_counters* chunk_end = nullptr;
pthread_key_t exit_key;
bool exit_key_made = false;

void lock() noexcept {
  while (__atomic_test_and_set(&busy, __ATOMIC_ACQUIRE)) sched_yield();
}
void unlock() noexcept { __atomic_clear(&busy, __ATOMIC_RELEASE); }

void on_thread_exit(void* record_pointer) {
  auto* record = static_cast<thread_counters*>(record_pointer);
  char name[sizeof record->name] = {};
  pthread_getname_np(pthread_self(), name, sizeof name);
  for (size_t i = 0; i < sizeof name; ++i) store_relaxed(record->name[i], name[i]);
  // Allocations in later destructors still land in this record (`current` stays).
  __atomic_store_n(&record->state, uint32_t{exited}, __ATOMIC_RELEASE);
}

thread_counters* new_record() noexcept {
  if (chunk_next == chunk_end) {
    void* chunk = mmap(nullptr, chunk_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (chunk == MAP_FAILED) {
      static const char message[] = "perf: cannot map memory for allocation counters; aborting\n";
      (void)!write(STDERR_FILENO, message, sizeof message - 1);
      std::abort();
    }
    chunk_next = static_cast<thread_counters*>(chunk);
    chunk_end = chunk_next + chunk_bytes / sizeof(thread_counters);
  }
  return chunk_next++;  // zeroed by the kernel
}

// In a forked child only the forking thread lives on: the others are marked
// exited, and a lock a vanished thread held is released.
void after_fork_in_child() {
  __atomic_clear(&busy, __ATOMIC_RELAXED);
  for (thread_counters* record = newest_record(); record != nullptr; record = record->next)
    if (record != current) __atomic_store_n(&record->state, uint32_t{exited}, __ATOMIC_RELEASE);
}

PERF_RUNTIME_AFTER_START(register_fork_handler) { pthread_atfork(nullptr, nullptr, after_fork_in_child); }

}  // namespace

PERF_DETAIL_TLS thread_counters* current = &placeholder;

thread_counters* attach() noexcept {
  if (current->state != unattached) return current;
  lock();
  if (!exit_key_made) exit_key_made = pthread_key_create(&exit_key, on_thread_exit) == 0;
  thread_counters* record = new_record();
  unlock();
  record->tid = static_cast<long>(gettid());
  record->state = alive;
  record->next = __atomic_load_n(&list_head, __ATOMIC_RELAXED);
  while (!__atomic_compare_exchange_n(&list_head, &record->next, record, true, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED)) {}
  // After the record is on the list (both sequentially consistent): either this load
  // sees sampling started, or check_frees_of_sampled_blocks() finds the record.
  if (__atomic_load_n(&frees_checked, __ATOMIC_SEQ_CST) != 0) store_relaxed(record->check_frees, uint32_t{1});
  current = record;
  // After `current`: for keys past the first 32, glibc allocates here.
  if (exit_key_made) pthread_setspecific(exit_key, record);
  return record;
}

// The stack is unwound from the tables (core/stack_unwind.hpp): the program's code need
// not keep frame pointers. Microseconds, but only the gtest budgets record.
void record_allocation(thread_counters& record, uint64_t usable, uint64_t requested) noexcept {
  const uint32_t seen = record.sizes_seen;
  store_relaxed(record.sizes_seen, seen + 1);
  store_relaxed(record.requested_bytes, record.requested_bytes + requested);
  if (seen >= recorded_allocations || record.recorded == nullptr) return;
  recorded_allocation& into = record.recorded[seen];
  into.requested = requested;
  into.usable = usable;
  into.depth = runtime::unwind_calling_thread(into.frames, recorded_frames);
  if (into.depth != 0 && into.frames[into.depth - 1] == runtime::truncated_frame) --into.depth;  // no frame to show
}

void set_mode(counting_mode chosen) noexcept { __atomic_store_n(&counting, int{chosen}, __ATOMIC_RELEASE); }
counting_mode mode() noexcept { return static_cast<counting_mode>(__atomic_load_n(&counting, __ATOMIC_ACQUIRE)); }

thread_counters* newest_record() noexcept { return __atomic_load_n(&list_head, __ATOMIC_ACQUIRE); }

uint64_t sampled_filter[(1u << sampled_filter_bits_log2) / 64] = {};

namespace {
// The heap sampler's, once registered (set_heap_sampling_hook); read atomically.
runtime::heap_sampling_hook heap_hook{};
}  // namespace

void sample_allocation(thread_counters& record, const void* block, uint64_t requested) noexcept {
  const auto sample = __atomic_load_n(&heap_hook.sample, __ATOMIC_ACQUIRE);
  if (sample == nullptr) {
    record.sample_countdown = 0;  // not settled yet: asked again at the next allocation
    return;
  }
  sample(record, block, requested);
}

void forget_sampled(const void* block) noexcept {
  const auto forget = __atomic_load_n(&heap_hook.forget, __ATOMIC_ACQUIRE);
  if (forget != nullptr) forget(block);
}

void check_frees_of_sampled_blocks() noexcept {
  __atomic_store_n(&frees_checked, uint32_t{1}, __ATOMIC_SEQ_CST);
  for (thread_counters* record = __atomic_load_n(&list_head, __ATOMIC_SEQ_CST); record != nullptr;
       record = record->next)
    store_relaxed(record->check_frees, uint32_t{1});
}

}  // namespace perf::alloc::detail

namespace perf::runtime {

void set_heap_sampling_hook(const heap_sampling_hook& hook) noexcept {
  __atomic_store_n(&alloc::detail::heap_hook.forget, hook.forget, __ATOMIC_RELEASE);
  __atomic_store_n(&alloc::detail::heap_hook.sample, hook.sample, __ATOMIC_RELEASE);
}

// The budgets' stacks are taken inside allocations, where libunwind cannot be loaded.
PERF_RUNTIME_ON_START(prepare_budget_stacks) { prepare_unwinder(); }

}  // namespace perf::runtime
