#include "core/frame_rules.hpp"

namespace perf::runtime {
namespace {

// An entry: the address (0: free), then its rule packed in a word (0: being written).
// An address is claimed before its rule is written: a reader that finds the rule 0
// derives it itself, as for an address not cached.
struct entry {
  uintptr_t address;
  uint64_t packed;
};
constexpr unsigned table_bits = 15;
constexpr unsigned probes = 16;  // linear probing: a full run means no room
entry table[1u << table_bits];

// Packed: bits 0-1 the kind, 2 cfa_from_fp, 3 fp_saved, 4-15 ra_offset, 16-31
// fp_offset, 32-63 cfa_offset.
uint64_t pack(const frame_rule& rule) noexcept {
  return static_cast<uint64_t>(rule.kind) | uint64_t{rule.cfa_from_fp} << 2 | uint64_t{rule.fp_saved} << 3 |
         (static_cast<uint64_t>(static_cast<uint16_t>(rule.ra_offset)) & 0xfff) << 4 |
         static_cast<uint64_t>(static_cast<uint16_t>(rule.fp_offset)) << 16 |
         static_cast<uint64_t>(static_cast<uint32_t>(rule.cfa_offset)) << 32;
}

frame_rule unpack(uint64_t packed) noexcept {
  frame_rule rule{};
  rule.kind = static_cast<frame_kind>(packed & 3);
  rule.cfa_from_fp = (packed >> 2 & 1) != 0;
  rule.fp_saved = (packed >> 3 & 1) != 0;
  const auto ra = static_cast<uint16_t>(packed >> 4 & 0xfff);
  rule.ra_offset = static_cast<int16_t>(ra >= 0x800 ? ra - 0x1000 : ra);
  rule.fp_offset = static_cast<int16_t>(static_cast<uint16_t>(packed >> 16));
  rule.cfa_offset = static_cast<int32_t>(static_cast<uint32_t>(packed >> 32));
  return rule;
}

unsigned first_slot(uintptr_t address) noexcept {
  return static_cast<unsigned>((address * 0x9e3779b97f4a7c15ull) >> (64 - table_bits));
}

}  // namespace

bool rule_fits(int64_t cfa_offset, int64_t ra_offset, int64_t fp_offset) noexcept {
  return cfa_offset >= INT32_MIN && cfa_offset <= INT32_MAX && ra_offset >= -2048 && ra_offset <= 2047 &&
         fp_offset >= INT16_MIN && fp_offset <= INT16_MAX;
}

frame_rule cached_rule(uintptr_t address) noexcept {
  unsigned slot = first_slot(address);
  for (unsigned i = 0; i < probes; ++i, slot = (slot + 1) & ((1u << table_bits) - 1)) {
    const uintptr_t held = __atomic_load_n(&table[slot].address, __ATOMIC_ACQUIRE);
    if (held == address) return unpack(__atomic_load_n(&table[slot].packed, __ATOMIC_ACQUIRE));
    if (held == 0) break;
  }
  return {};
}

void cache_rule(uintptr_t address, const frame_rule& rule) noexcept {
  unsigned slot = first_slot(address);
  for (unsigned i = 0; i < probes; ++i, slot = (slot + 1) & ((1u << table_bits) - 1)) {
    uintptr_t held = 0;
    if (__atomic_compare_exchange_n(&table[slot].address, &held, address, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE) ||
        held == address) {
      __atomic_store_n(&table[slot].packed, pack(rule), __ATOMIC_RELEASE);
      return;
    }
  }
}

}  // namespace perf::runtime
