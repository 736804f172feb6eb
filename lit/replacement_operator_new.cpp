// A replacement of a global allocation or deallocation function is never measured, even
// when marked: the runtime allocates through ::operator new (attaching a thread, adding a
// site), so a probe there would enter itself. Every form is left as it is, with a warning;
// a class's own operator new, which the runtime never calls, is measured.
// RUN: %rewrite-test %s 17 %t
// RUN: sed 's|%t/||' %t/stderr | %FileCheck %s --check-prefix=WARN --match-full-lines

#include <cstddef>
#include <cstdlib>
#include <new>

[[perf::measure]] void* operator new(std::size_t size) { return std::malloc(size); }
// CHECK: {{^}}{{\[\[}}perf::measure]] void* operator new(std::size_t size) { return std::malloc(size); }
[[perf::measure]] void* operator new[](std::size_t size) { return std::malloc(size); }
[[perf::measure]] void* operator new(std::size_t size, const std::nothrow_t&) noexcept { return std::malloc(size); }
[[perf::measure]] void* operator new[](std::size_t size, const std::nothrow_t&) noexcept { return std::malloc(size); }
[[perf::measure]] void* operator new(std::size_t size, std::align_val_t) { return std::malloc(size); }
[[perf::measure]] void* operator new[](std::size_t size, std::align_val_t) { return std::malloc(size); }
[[perf::measure]] void operator delete(void* block) noexcept { std::free(block); }
[[perf::measure]] void operator delete[](void* block) noexcept { std::free(block); }
[[perf::measure]] void operator delete(void* block, std::size_t) noexcept { std::free(block); }
[[perf::measure]] void operator delete[](void* block, std::size_t) noexcept { std::free(block); }
[[perf::measure]] void operator delete(void* block, std::align_val_t) noexcept { std::free(block); }
[[perf::measure]] void operator delete(void* block, const std::nothrow_t&) noexcept { std::free(block); }
// CHECK: {{^}}{{\[\[}}perf::measure]] void operator delete(void* block, const std::nothrow_t&) noexcept { std::free(block); }

struct pooled {
  [[perf::measure]] static void* operator new(std::size_t size) { return ::operator new(size); }
  // CHECK: {{^}}  {{\[\[}}perf::measure]] static void* operator new(std::size_t size) { PERF_INSTRUMENT("pooled::operator new"); return ::operator new(size); }
  static void operator delete(void* block) { ::operator delete(block); }
};

// CHECK-NOT: {{^[^/]*}}PERF_INSTRUMENT("operator

// WARN:      replacement_operator_new.cpp:12:25: warning: operator new is not measured: replacement allocation function: the runtime allocates through it
// WARN-NEXT: replacement_operator_new.cpp:14:25: warning: operator new[] is not measured: replacement allocation function: the runtime allocates through it
// WARN-NEXT: replacement_operator_new.cpp:15:25: warning: operator new is not measured: replacement allocation function: the runtime allocates through it
// WARN-NEXT: replacement_operator_new.cpp:16:25: warning: operator new[] is not measured: replacement allocation function: the runtime allocates through it
// WARN-NEXT: replacement_operator_new.cpp:17:25: warning: operator new is not measured: replacement allocation function: the runtime allocates through it
// WARN-NEXT: replacement_operator_new.cpp:18:25: warning: operator new[] is not measured: replacement allocation function: the runtime allocates through it
// WARN-NEXT: replacement_operator_new.cpp:19:24: warning: operator delete is not measured: replacement allocation function: the runtime allocates through it
// WARN-NEXT: replacement_operator_new.cpp:20:24: warning: operator delete[] is not measured: replacement allocation function: the runtime allocates through it
// WARN-NEXT: replacement_operator_new.cpp:21:24: warning: operator delete is not measured: replacement allocation function: the runtime allocates through it
// WARN-NEXT: replacement_operator_new.cpp:22:24: warning: operator delete[] is not measured: replacement allocation function: the runtime allocates through it
// WARN-NEXT: replacement_operator_new.cpp:23:24: warning: operator delete is not measured: replacement allocation function: the runtime allocates through it
// WARN-NEXT: replacement_operator_new.cpp:24:24: warning: operator delete is not measured: replacement allocation function: the runtime allocates through it
// WARN-NEXT: perf-instrument: changed 1 file under {{.*}}: 1 function measured, 12 skipped (12 replacement allocation function)
