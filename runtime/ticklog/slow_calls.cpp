#include "ticklog/slow_calls.hpp"

#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <ctime>

#include "core/sites.hpp"
#include "perf/detail/atomic.hpp"

namespace perf::detail {

uint64_t capture_limits[runtime::max_sites];

}  // namespace perf::detail

namespace perf::runtime {
namespace {

using detail::load_relaxed;
using detail::store_relaxed;

uint64_t limited = 0;  // atomic: the capture_sites bits of the sites limited

// A place in the room for a call handed over: free, being written by the thread that
// claimed it, or holding a call for the writer.
enum : uint32_t { free_place, writing, holding };
struct room_place {
  uint32_t state;  // atomic
  unsigned site;
  uint64_t duration, enter, exit;
};
room_place room[slow_room];
uint64_t claims = 0;   // atomic: places claimed so far, the next one at claims % slow_room
uint64_t dropped = 0;  // atomic: calls that found their place taken since the writer last looked
uint32_t handed = 0;   // atomic: slow_calls_signal(), a futex word
uint32_t asleep = 0;   // atomic: 1 while the taker may be asleep on `handed`

// The handovers each site may still make, plus one; 0 for a site without a budget (atomic).
uint32_t handovers_left[max_sites];

// Takes one of `site`'s handovers; false when its budget is spent.
bool take_handover(unsigned site) noexcept {
  uint32_t left = __atomic_load_n(&handovers_left[site], __ATOMIC_RELAXED);
  do {
    if (left == 0) return true;   // no budget
    if (left == 1) return false;  // spent
  } while (
      !__atomic_compare_exchange_n(&handovers_left[site], &left, left - 1, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
  return true;
}

void wake_taker() noexcept {
  const int saved = errno;  // a signal handler's call must leave the program's errno be
  syscall(SYS_futex, &handed, FUTEX_WAKE_PRIVATE, 1, nullptr, nullptr, 0);
  errno = saved;
}

// Bumps the signal and wakes the taker if it may be asleep: sequentially consistent,
// as wait_for_slow_calls' store and load, so that either the taker sees the bump before
// it sleeps or this sees it asleep (and the kernel's compare of the futex word keeps it
// from sleeping through the wake).
void bump_signal() noexcept {
  __atomic_fetch_add(&handed, 1u, __ATOMIC_SEQ_CST);
  if (__atomic_exchange_n(&asleep, 0u, __ATOMIC_SEQ_CST) != 0) wake_taker();
}

}  // namespace

void limit_site(unsigned site, uint64_t ticks) {
  __atomic_store_n(&detail::capture_limits[site], ticks + 1, __ATOMIC_RELAXED);
  const uint64_t bit = uint64_t{1} << (site & 63);
  // Both this and limited_sites() modify `limited` (acquire-release): whichever comes
  // second sees the other's, so a ring made meanwhile is either in the list walked
  // below or made with the bit.
  __atomic_fetch_or(&limited, bit, __ATOMIC_ACQ_REL);
  for (ring_record* record = newest_ring(); record != nullptr; record = record->next)
    __atomic_fetch_or(&record->ring.capture_sites, bit, __ATOMIC_RELEASE);
}

void allow_handovers(unsigned site, uint32_t calls) {
  __atomic_store_n(&handovers_left[site], calls + 1, __ATOMIC_RELAXED);
}

uint64_t limited_sites() noexcept { return __atomic_fetch_or(&limited, uint64_t{0}, __ATOMIC_ACQ_REL); }

uint64_t take_slow_calls(std::vector<slow_call>& calls) {
  const size_t first = calls.size();
  for (room_place& place : room) {
    if (__atomic_load_n(&place.state, __ATOMIC_ACQUIRE) != holding) continue;
    calls.push_back(
        {load_relaxed(place.site), load_relaxed(place.duration), load_relaxed(place.enter), load_relaxed(place.exit)});
    __atomic_store_n(&place.state, uint32_t{free_place}, __ATOMIC_RELEASE);
  }
  std::sort(calls.begin() + static_cast<ptrdiff_t>(first), calls.end(),
            [](const slow_call& a, const slow_call& b) { return a.exit < b.exit; });
  return __atomic_exchange_n(&dropped, uint64_t{0}, __ATOMIC_RELAXED);
}

uint32_t slow_calls_signal() noexcept { return __atomic_load_n(&handed, __ATOMIC_SEQ_CST); }

void wait_for_slow_calls(uint32_t seen, unsigned timeout_ms) {
  __atomic_store_n(&asleep, 1u, __ATOMIC_SEQ_CST);
  if (__atomic_load_n(&handed, __ATOMIC_SEQ_CST) == seen) {
    const timespec timeout{static_cast<time_t>(timeout_ms / 1000), static_cast<long>(timeout_ms % 1000) * 1000000};
    syscall(SYS_futex, &handed, FUTEX_WAIT_PRIVATE, seen, &timeout, nullptr, 0);
  }
  __atomic_store_n(&asleep, 0u, __ATOMIC_RELAXED);
}

void wake_slow_call_taker() {
  __atomic_fetch_add(&handed, 1u, __ATOMIC_SEQ_CST);
  wake_taker();
}

void unlimit_sites() noexcept {
  __atomic_store_n(&limited, uint64_t{0}, __ATOMIC_RELAXED);
  for (ring_record* record = newest_ring(); record != nullptr; record = record->next)
    __atomic_store_n(&record->ring.capture_sites, uint64_t{0}, __ATOMIC_RELAXED);
}

}  // namespace perf::runtime

// The place claimed is the next in turn; one that still holds a call, or that another
// thread (or a signal handler on this one) is writing, drops this call.
void perf::detail::hand_slow_call(unsigned site, uint64_t duration, uint64_t enter, uint64_t exit) noexcept {
  using namespace perf::runtime;
  if (!take_handover(site)) return;
  room_place& place = room[__atomic_fetch_add(&claims, 1, __ATOMIC_RELAXED) % slow_room];
  uint32_t expected = free_place;
  if (!__atomic_compare_exchange_n(&place.state, &expected, uint32_t{writing}, false, __ATOMIC_ACQUIRE,
                                   __ATOMIC_RELAXED)) {
    __atomic_fetch_add(&dropped, 1, __ATOMIC_RELAXED);
    return;
  }
  store_relaxed(place.site, site);
  store_relaxed(place.duration, duration);
  store_relaxed(place.enter, enter);
  store_relaxed(place.exit, exit);
  __atomic_store_n(&place.state, uint32_t{holding}, __ATOMIC_RELEASE);
  bump_signal();
}
