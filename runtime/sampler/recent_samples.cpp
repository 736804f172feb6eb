#include "sampler/recent_samples.hpp"

#include <fmt/format.h>
#include <pthread.h>

#include <algorithm>
#include <string>
#include <thread>

#include "core/runtime_thread.hpp"
#include "core/stack_unwind.hpp"
#include "perf/detail/atomic.hpp"
#include "sampler/profile.hpp"
#include "sampler/sampler.hpp"

namespace perf::runtime {
namespace {

struct slot {
  uint64_t sequence;  // 0: never written; odd: being written; else 2 * (its sample's number + 1)
  uint64_t time;
  uint32_t tid;
  uint32_t depth;
  uintptr_t frames[recent_sample_depth];
};

slot slots[recent_sample_slots];  // zero until sampled: resident as samples fill it
uint64_t taken = 0;               // atomic: samples kept so far

}  // namespace

void keep_recent_sample(uint64_t time, uint32_t tid, const uintptr_t* frames, unsigned depth) noexcept {
  const uint64_t number = __atomic_fetch_add(&taken, 1, __ATOMIC_RELAXED);
  slot& s = slots[number % recent_sample_slots];
  __atomic_store_n(&s.sequence, 2 * number + 1, __ATOMIC_RELAXED);
  detail::store_store_barrier();  // the odd number before any field
  if (depth > recent_sample_depth) depth = recent_sample_depth;
  detail::store_relaxed(s.time, time);
  detail::store_relaxed(s.tid, tid);
  detail::store_relaxed(s.depth, depth);
  for (unsigned i = 0; i < depth; ++i) detail::store_relaxed(s.frames[i], frames[i]);
  __atomic_store_n(&s.sequence, 2 * number + 2, __ATOMIC_RELEASE);
}

std::vector<timed_sample> recent_samples_between(uint64_t from, uint64_t to) {
  std::vector<timed_sample> found;
  std::vector<std::vector<uintptr_t>> stacks;
  for (const slot& s : slots) {
    const uint64_t before = __atomic_load_n(&s.sequence, __ATOMIC_ACQUIRE);
    if (before == 0 || before % 2 != 0) continue;
    timed_sample sample;
    sample.time = detail::load_relaxed(s.time);
    sample.tid = detail::load_relaxed(s.tid);
    std::vector<uintptr_t> frames(std::min(detail::load_relaxed(s.depth), recent_sample_depth));
    for (size_t i = 0; i < frames.size(); ++i) frames[i] = detail::load_relaxed(s.frames[i]);
    detail::load_load_barrier();  // the fields before the number is read again
    if (__atomic_load_n(&s.sequence, __ATOMIC_RELAXED) != before || sample.time < from || sample.time > to) continue;
    found.push_back(std::move(sample));
    stacks.push_back(std::move(frames));
  }
  if (symbolizer_ready()) {
    std::vector<std::vector<std::string>> functions = sampled_stack_functions(stacks);
    for (size_t i = 0; i < found.size(); ++i) found[i].functions = std::move(functions[i]);
  } else {
    for (size_t i = 0; i < found.size(); ++i)
      for (const uintptr_t frame : stacks[i])
        if (frame != truncated_frame) found[i].functions.push_back(fmt::format("{:#x}", frame));
  }
  std::stable_sort(found.begin(), found.end(),
                   [](const timed_sample& a, const timed_sample& b) { return a.time < b.time; });
  return found;
}

void prepare_symbols_in_background() {
  std::thread([] {
    pthread_setname_np(pthread_self(), "perf-symbols");
    block_asynchronous_signals();
    const sampling_pause runtime_work;
    symbolize_return_address(reinterpret_cast<uintptr_t>(&prepare_symbols_in_background));
  }).detach();
}

}  // namespace perf::runtime
