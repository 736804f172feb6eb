#include "ticklog/slow_calls.hpp"

#include <algorithm>

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
  uint64_t enter, exit;
};
room_place room[slow_room];
uint64_t claims = 0;   // atomic: places claimed so far, the next one at claims % slow_room
uint64_t dropped = 0;  // atomic: calls that found their place taken since the writer last looked

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

uint64_t limited_sites() noexcept { return __atomic_fetch_or(&limited, uint64_t{0}, __ATOMIC_ACQ_REL); }

uint64_t take_slow_calls(std::vector<slow_call>& calls) {
  const size_t first = calls.size();
  for (room_place& place : room) {
    if (__atomic_load_n(&place.state, __ATOMIC_ACQUIRE) != holding) continue;
    calls.push_back({load_relaxed(place.site), load_relaxed(place.enter), load_relaxed(place.exit)});
    __atomic_store_n(&place.state, uint32_t{free_place}, __ATOMIC_RELEASE);
  }
  std::sort(calls.begin() + static_cast<ptrdiff_t>(first), calls.end(),
            [](const slow_call& a, const slow_call& b) { return a.exit < b.exit; });
  return __atomic_exchange_n(&dropped, uint64_t{0}, __ATOMIC_RELAXED);
}

void unlimit_sites() noexcept {
  __atomic_store_n(&limited, uint64_t{0}, __ATOMIC_RELAXED);
  for (ring_record* record = newest_ring(); record != nullptr; record = record->next)
    __atomic_store_n(&record->ring.capture_sites, uint64_t{0}, __ATOMIC_RELAXED);
}

}  // namespace perf::runtime

// The place claimed is the next in turn; one that still holds a call, or that another
// thread (or a signal handler on this one) is writing, drops this call.
void perf::detail::hand_slow_call(unsigned site, uint64_t enter, uint64_t exit) noexcept {
  using namespace perf::runtime;
  room_place& place = room[__atomic_fetch_add(&claims, 1, __ATOMIC_RELAXED) % slow_room];
  uint32_t expected = free_place;
  if (!__atomic_compare_exchange_n(&place.state, &expected, uint32_t{writing}, false, __ATOMIC_ACQUIRE,
                                   __ATOMIC_RELAXED)) {
    __atomic_fetch_add(&dropped, 1, __ATOMIC_RELAXED);
    return;
  }
  store_relaxed(place.site, site);
  store_relaxed(place.enter, enter);
  store_relaxed(place.exit, exit);
  __atomic_store_n(&place.state, uint32_t{holding}, __ATOMIC_RELEASE);
}
