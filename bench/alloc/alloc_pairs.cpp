// The measured loops of alloc_bench: 32-byte malloc/free and new/delete pairs,
// called the way any program calls them (through the PLT, to whichever definition
// the dynamic linker binds). alloc_bench loads this code twice: bound as usual (to
// perf::alloc, or to heaptrack's interposer when it preloads one), and bound to
// glibc and a static libstdc++ of its own (the pair without any interposer).
#include <stdlib.h>

#include <new>

namespace {

// Keeps the compiler from removing a pair whose block does not escape.
inline void escape(void* block) { asm volatile("" : : "r"(block) : "memory"); }

}  // namespace

extern "C" __attribute__((visibility("default"))) void malloc_free_pairs(long pairs) {
  for (long i = 0; i < pairs; ++i) {
    void* block = malloc(32);
    escape(block);
    free(block);
  }
}

// The delete the compiler emits for `delete p`: sized under GCC, unsized under
// Clang 14 (which enables sized deallocation only on request).
extern "C" __attribute__((visibility("default"))) void new_delete_pairs(long pairs) {
  for (long i = 0; i < pairs; ++i) {
    void* block = ::operator new(32);
    escape(block);
#ifdef __cpp_sized_deallocation
    ::operator delete(block, 32);
#else
    ::operator delete(block);
#endif
  }
}
