// A memtable modelled on leveldb's (db/skiplist.h, db/memtable.cc): a skip list of
// length-prefixed keys in an arena, ordered by a comparator functor, read through an
// iterator's Seek/Valid/key/Next. memtable.cpp is compiled three times into one
// program: plain, with the comparator's operator() and the iterator's Seek, key and
// Next measured as `perf-instrument --filter` would measure them (PERF_INSTRUMENT),
// and measured so with PERF_INLINE_FAST_PATH.
#ifndef PERF_BENCH_ADAPTIVE_MEMTABLE_HPP
#define PERF_BENCH_ADAPTIVE_MEMTABLE_HPP

#include <cstddef>
#include <cstdint>

namespace bench {

// One round of a memtable's life: insert `count` keys (in the order given) into a fresh
// table, look every key up (Seek, then compare key()), then scan the whole table
// (Next). Returns a checksum of what was read, so nothing is optimised away.
namespace plain_memtable {
uint64_t round(const uint64_t* keys, std::size_t count);
}
namespace measured_memtable {
uint64_t round(const uint64_t* keys, std::size_t count);
}
namespace inlined_memtable {  // measured, with PERF_INLINE_FAST_PATH
uint64_t round(const uint64_t* keys, std::size_t count);
}

}  // namespace bench

#endif  // PERF_BENCH_ADAPTIVE_MEMTABLE_HPP
