// A definition of a function of the malloc family (C linkage: it replaces the C
// library's) is never measured, even when marked: the runtime's allocations reach it.
// A function of another name, or of the same name in a namespace, is measured.
// RUN: %rewrite-test %s 17 %t
// RUN: sed 's|%t/||' %t/stderr | %FileCheck %s --check-prefix=WARN --match-full-lines

#include <cstddef>

extern "C" {
[[perf::measure]] void* malloc(std::size_t) { return nullptr; }
// CHECK: {{^}}{{\[\[}}perf::measure]] void* malloc(std::size_t) { return nullptr; }
[[perf::measure]] void* calloc(std::size_t, std::size_t) { return nullptr; }
[[perf::measure]] void* realloc(void*, std::size_t) { return nullptr; }
[[perf::measure]] void free(void*) {}
[[perf::measure]] void* aligned_alloc(std::size_t, std::size_t) { return nullptr; }
[[perf::measure]] int posix_memalign(void**, std::size_t, std::size_t) { return 0; }
[[perf::measure]] void* memalign(std::size_t, std::size_t) { return nullptr; }
[[perf::measure]] void* valloc(std::size_t) { return nullptr; }
[[perf::measure]] void* pvalloc(std::size_t) { return nullptr; }
[[perf::measure]] void* reallocarray(void*, std::size_t, std::size_t) { return nullptr; }
// CHECK: {{^}}{{\[\[}}perf::measure]] void* reallocarray(void*, std::size_t, std::size_t) { return nullptr; }
[[perf::measure]] void* arena_malloc(std::size_t) { return nullptr; }
// CHECK: {{^}}{{\[\[}}perf::measure]] void* arena_malloc(std::size_t) { PERF_INSTRUMENT("arena_malloc"); return nullptr; }
}

namespace pool {
[[perf::measure]] void free(void*) {}
// CHECK: {{^}}{{\[\[}}perf::measure]] void free(void*) { PERF_INSTRUMENT("pool::free");}
}  // namespace pool

// WARN:      replacement_malloc.cpp:10:25: warning: malloc is not measured: replacement allocation function: the runtime allocates through it
// WARN-NEXT: replacement_malloc.cpp:12:25: warning: calloc is not measured: replacement allocation function: the runtime allocates through it
// WARN-NEXT: replacement_malloc.cpp:13:25: warning: realloc is not measured: replacement allocation function: the runtime allocates through it
// WARN-NEXT: replacement_malloc.cpp:14:24: warning: free is not measured: replacement allocation function: the runtime allocates through it
// WARN-NEXT: replacement_malloc.cpp:15:25: warning: aligned_alloc is not measured: replacement allocation function: the runtime allocates through it
// WARN-NEXT: replacement_malloc.cpp:16:23: warning: posix_memalign is not measured: replacement allocation function: the runtime allocates through it
// WARN-NEXT: replacement_malloc.cpp:17:25: warning: memalign is not measured: replacement allocation function: the runtime allocates through it
// WARN-NEXT: replacement_malloc.cpp:18:25: warning: valloc is not measured: replacement allocation function: the runtime allocates through it
// WARN-NEXT: replacement_malloc.cpp:19:25: warning: pvalloc is not measured: replacement allocation function: the runtime allocates through it
// WARN-NEXT: replacement_malloc.cpp:20:25: warning: reallocarray is not measured: replacement allocation function: the runtime allocates through it
// WARN-NEXT: perf-instrument: changed 1 file under {{.*}}: 2 functions measured, 10 skipped (10 replacement allocation function)
