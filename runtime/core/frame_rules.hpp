// How a frame's caller is found from the frame's stack and frame pointers, by the
// address the frame is at: the stack walk's rules (core/stack_unwind.cpp), derived once
// per address from the call-frame information and kept in a fixed table shared by all
// threads.
#ifndef PERF_RUNTIME_CORE_FRAME_RULES_HPP
#define PERF_RUNTIME_CORE_FRAME_RULES_HPP

#include <stdint.h>

namespace perf::runtime {

enum class frame_kind : uint8_t {
  unknown,    // not in the table
  standard,   // the rule below
  outermost,  // the thread's first frame: it has no caller
  other,      // a rule this form cannot hold: the frame is stepped by libunwind
};

// A standard frame: its CFA (the stack pointer before the call that made the frame)
// is the frame pointer plus `cfa_offset` (`cfa_from_fp`) or the stack pointer plus it;
// the return address is the word at CFA + `ra_offset`; the caller's frame pointer is the
// word at CFA + `fp_offset` (`fp_saved`) or this frame's.
struct frame_rule {
  frame_kind kind;
  bool cfa_from_fp;
  bool fp_saved;
  int32_t cfa_offset;
  int16_t ra_offset;  // -2048 to 2047
  int16_t fp_offset;
};

// Whether a standard rule with these offsets fits in the table.
bool rule_fits(int64_t cfa_offset, int64_t ra_offset, int64_t fp_offset) noexcept;

// The rule cached for the frame at `address` (the interrupted instruction, or a return
// address less one); `kind` unknown where none is. Async-signal-safe, lock-free.
frame_rule cached_rule(uintptr_t address) noexcept;

// Caches `rule` for `address`, where the table has room (a fixed 32,768 entries, 512
// KiB: once full, an address not in it is derived again at each walk). Any thread, a
// signal handler too; two that cache one address cache the same rule.
// Async-signal-safe, lock-free.
void cache_rule(uintptr_t address, const frame_rule& rule) noexcept;

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_CORE_FRAME_RULES_HPP
