// Allocation budgets in GoogleTest tests:
//
//   EXPECT_NO_ALLOCATION(route(order));
//   EXPECT_ALLOCATIONS_AT_MOST(256, parse(line));        // bytes
//   EXPECT_ALLOCATION_COUNT_AT_MOST(2, parse(line));     // allocations
//
// and the ASSERT_ forms, which end the test on failure. Only the calling thread's
// allocations count; the check itself allocates nothing while the statement runs.
// Bytes are those the code asked for (`new char[40]`: 40), not the blocks' usable
// sizes of perf/alloc.hpp. A failure describes the first `recorded_allocations` (8)
// allocations: the size asked for (and the usable size where it differs) and the
// stack, from the innermost frame of the program's own code, function and file:line,
// with the frames of libraries and of perf folded into `...`. The stacks are
// unwound only inside the checks, at some microseconds per allocation.
//
// A check fails, and never passes, when allocation counting is inactive (perf::alloc
// not linked, or another allocator before it in symbol order). The compiler may
// remove a new/delete pair whose memory does not escape (C++14 [expr.new]; Clang
// does at -O2), so `delete new int` can pass EXPECT_NO_ALLOCATION: the checks see
// the allocations the program really makes. This header compiles as C++11 and later.
#ifndef PERF_GTEST_ALLOC_HPP
#define PERF_GTEST_ALLOC_HPP

#include <gtest/gtest.h>

#include "perf/alloc.hpp"
#include "perf/detail/allocation_stack.hpp"

namespace perf {
namespace testing {
namespace detail {

enum class limit_kind { bytes, allocations };

// Counts the calling thread's allocations between start() and stop() and describes
// the first ones (sizes and stacks, kept in the probe). Neither allocates.
class allocation_probe {
 public:
  allocation_probe() noexcept : record_(*alloc::detail::attach()) {}
  ~allocation_probe() {
    alloc::detail::store_relaxed(record_.recording, 0u);
    record_.recorded = nullptr;
  }
  allocation_probe(const allocation_probe&) = delete;
  allocation_probe& operator=(const allocation_probe&) = delete;

  void start() noexcept {
    alloc::detail::store_relaxed(record_.sizes_seen, 0u);
    alloc::detail::store_relaxed(record_.requested_bytes, uint64_t{0});
    record_.recorded = recorded_;
    alloc::detail::store_relaxed(record_.recording, 1u);
    counter_ = alloc::scoped_counter();
  }
  void stop() noexcept {
    used_ = counter_.elapsed();
    alloc::detail::store_relaxed(record_.recording, 0u);
    requested_ = alloc::detail::load_relaxed(record_.requested_bytes);
  }

  // Allocations and usable bytes, as perf/alloc.hpp counts them.
  const alloc::counters& used() const noexcept { return used_; }
  // The bytes the statement's allocations asked for.
  uint64_t requested_bytes() const noexcept { return requested_; }

  // Whether what the statement `statement` used stays within `limit` (allocations,
  // or bytes asked for), with the failure message when not.
  ::testing::AssertionResult check(limit_kind kind, uint64_t limit, const char* statement) const {
    if (!alloc::counting_active())
      return ::testing::AssertionFailure()
             << "Allocation counting is inactive, so the allocations of `" << statement
             << "` cannot be checked: link perf::alloc into the test (dynamically, before any other allocator)";
    const uint64_t actual = kind == limit_kind::bytes ? requested_ : used_.allocations;
    if (actual <= limit) return ::testing::AssertionSuccess();
    ::testing::AssertionResult failure = ::testing::AssertionFailure();
    if (kind == limit_kind::allocations && limit == 0) failure << "Expected no allocation in `" << statement << "`";
    else if (kind == limit_kind::allocations)
      failure << "Expected at most " << limit << (limit == 1 ? " allocation" : " allocations") << " in `" << statement
              << "`";
    else failure << "Expected at most " << limit << " bytes allocated in `" << statement << "`";
    failure << ", but it made " << used_.allocations << (used_.allocations == 1 ? " allocation" : " allocations")
            << " of " << requested_ << " bytes";
    if (used_.bytes != requested_) failure << " (usable size " << used_.bytes << " bytes)";
    failure << "; the first ones:";
    const uint32_t seen = alloc::detail::load_relaxed(record_.sizes_seen);
    for (uint32_t i = 0; i < seen && i < alloc::detail::recorded_allocations; ++i) {
      const alloc::detail::recorded_allocation& allocation = recorded_[i];
      failure << "\n  " << allocation.requested << " bytes";
      if (allocation.usable != allocation.requested) failure << " (usable size " << allocation.usable << ")";
      failure << alloc::detail::describe_stack(allocation.frames, allocation.depth);
    }
    if (seen > alloc::detail::recorded_allocations)
      failure << "\n  and " << seen - alloc::detail::recorded_allocations << " more";
    return failure;
  }

 private:
  alloc::detail::thread_counters& record_;
  alloc::scoped_counter counter_;
  alloc::counters used_ = {};
  uint64_t requested_ = 0;
  alloc::detail::recorded_allocation recorded_[alloc::detail::recorded_allocations];
};

}  // namespace detail
}  // namespace testing
}  // namespace perf

#define PERF_DETAIL_CHECK_ALLOCATIONS(kind, limit, statement, on_failure)                             \
  do {                                                                                                \
    ::perf::testing::detail::allocation_probe perf_allocation_probe_;                                 \
    perf_allocation_probe_.start();                                                                   \
    { statement; }                                                                                    \
    perf_allocation_probe_.stop();                                                                    \
    const ::testing::AssertionResult perf_allocation_result_ =                                        \
        perf_allocation_probe_.check(::perf::testing::detail::limit_kind::kind, (limit), #statement); \
    if (!perf_allocation_result_) on_failure() << perf_allocation_result_.message();                  \
  } while (false)

// `statement` makes no heap allocation on the calling thread.
#define EXPECT_NO_ALLOCATION(statement) PERF_DETAIL_CHECK_ALLOCATIONS(allocations, 0, statement, ADD_FAILURE)
#define ASSERT_NO_ALLOCATION(statement) PERF_DETAIL_CHECK_ALLOCATIONS(allocations, 0, statement, FAIL)
// `statement` allocates at most `bytes` bytes on the calling thread.
#define EXPECT_ALLOCATIONS_AT_MOST(max_bytes, statement) \
  PERF_DETAIL_CHECK_ALLOCATIONS(bytes, max_bytes, statement, ADD_FAILURE)
#define ASSERT_ALLOCATIONS_AT_MOST(max_bytes, statement) \
  PERF_DETAIL_CHECK_ALLOCATIONS(bytes, max_bytes, statement, FAIL)
// `statement` makes at most `count` heap allocations on the calling thread.
#define EXPECT_ALLOCATION_COUNT_AT_MOST(max_count, statement) \
  PERF_DETAIL_CHECK_ALLOCATIONS(allocations, max_count, statement, ADD_FAILURE)
#define ASSERT_ALLOCATION_COUNT_AT_MOST(max_count, statement) \
  PERF_DETAIL_CHECK_ALLOCATIONS(allocations, max_count, statement, FAIL)

#endif  // PERF_GTEST_ALLOC_HPP
