// The lifecycle of a thread's block: created on the thread's first measured call or
// tick, handed to the registry when the thread exits, cleared in a forked child.
// The thread's tick ring outlives the block.
#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>

#include "registry.hpp"
#include "startup.hpp"

namespace perf::detail {

PERF_DETAIL_TLS thread_state* current_thread = nullptr;

}  // namespace perf::detail

namespace perf::runtime {
namespace {

// Histogram blocks a thread may hold: 64 MiB of address space, touched as used.
constexpr uint32_t arena_blocks = 1u << 17;
constexpr size_t arena_bytes = size_t{arena_blocks} * detail::histogram_block_size * sizeof(uint64_t);
constexpr size_t slots_bytes = size_t{registry::max_sites} * sizeof(detail::slot);

// Address space only: the kernel supplies zeroed pages on first touch, so a
// thread pays for the sites it calls, not for the limit.
void* reserve(size_t bytes) {
  void* memory = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (memory == MAP_FAILED) {
    warn("cannot reserve memory for a measured thread; aborting");
    std::abort();
  }
  return memory;
}

void on_thread_exit(void* record) {
  auto* thread = static_cast<thread_record*>(record);
  detail::drain_pending(thread->state);
  remove_signal_stack(thread->signal_stack);
  registry::instance().retire_thread(thread);
  destroy_thread_record(thread);
  detail::current_thread = nullptr;
}

void before_fork() { registry::instance().lock_for_fork(); }
void after_fork_in_parent() { registry::instance().unlock_after_fork(); }
void after_fork_in_child() {
  registry::instance().reset_in_child(reinterpret_cast<thread_record*>(detail::current_thread));
}

pthread_key_t exit_key() {
  static const pthread_key_t key = [] {
    pthread_key_t made;
    pthread_key_create(&made, on_thread_exit);
    pthread_atfork(before_fork, after_fork_in_parent, after_fork_in_child);
    return made;
  }();
  return key;
}

}  // namespace

void clear_thread_statistics(thread_record& thread, unsigned site_count) {
  for (unsigned id = 1; id < site_count; ++id) {
    detail::slot& s = thread.state.slots[id];
    const uint32_t active = s.active;
    std::memset(&s, 0, sizeof s);
    s.active = active;
  }
  madvise(thread.state.arena, arena_bytes, MADV_DONTNEED);  // zero pages again
  thread.state.arena_used = 1;
  thread.state.pending_count = 0;
}

void destroy_thread_record(thread_record* thread) {
  munmap(thread->state.slots, slots_bytes);
  munmap(thread->state.arena, arena_bytes);
  delete thread;
}

}  // namespace perf::runtime

namespace perf::detail {

thread_state* attach_thread() noexcept {
  using namespace runtime;
  const pthread_key_t key = exit_key();
  auto* thread = new thread_record{};
  thread->state.slots = static_cast<slot*>(reserve(slots_bytes));
  thread->state.arena = static_cast<uint64_t*>(reserve(arena_bytes));
  thread->state.arena_used = 1;
  thread->state.arena_capacity = arena_blocks;
  const settings& chosen = current_settings();
  thread->state.clock = chosen.clock;
  thread->tid = static_cast<long>(gettid());
  if (chosen.environment.ticks) {
    thread->state.ring = &registry::instance().ring_for_new_thread(chosen.environment.ring_events, thread->tid)->ring;
    thread->signal_stack = add_signal_stack();
  }
  thread->handle = pthread_self();
  registry::instance().add_thread(thread);
  pthread_setspecific(key, thread);
  current_thread = &thread->state;
  return current_thread;
}

unsigned register_site(site& s) noexcept { return runtime::registry::instance().register_site(s); }

void drain_pending(thread_state& thread) noexcept {
  for (uint32_t i = 0; i < thread.pending_count; ++i) {
    const uint64_t entry = thread.pending[i];
    slot& target = thread.slots[entry >> pending_duration_bits];
    const unsigned bucket = bucket_index(entry & pending_duration_mask);
    const unsigned block = bucket / histogram_block_size;
    if (target.blocks[block] == 0) {
      if (thread.arena_used == thread.arena_capacity) continue;  // full: the histogram misses it
      publish(target.blocks[block], thread.arena_used++);
    }
    uint64_t& counter = thread.arena[uint64_t{target.blocks[block]} * histogram_block_size + bucket % histogram_block_size];
    publish(counter, counter + 1);
  }
  __atomic_store_n(&thread.pending_count, 0u, __ATOMIC_RELEASE);
}

}  // namespace perf::detail
