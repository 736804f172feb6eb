// Compiler portability helpers for the inline hot path. Not part of the public API.
#ifndef PERF_DETAIL_COMPILER_HPP
#define PERF_DETAIL_COMPILER_HPP

#if defined(__GNUC__) || defined(__clang__)
#define PERF_DETAIL_LIKELY(x) __builtin_expect(!!(x), 1)
#define PERF_DETAIL_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define PERF_DETAIL_NOINLINE __attribute__((noinline))
#define PERF_DETAIL_ALWAYS_INLINE inline __attribute__((always_inline))
// Called, never inlined, and hidden: each module calls its own copy directly, never
// through the PLT.
#define PERF_DETAIL_OUT_OF_LINE inline __attribute__((noinline, visibility("hidden")))
// Initial-exec TLS: one %fs-relative load, no __tls_get_addr call. The runtime is
// linked at program start (never only dlopen'ed), which is what this model needs.
#define PERF_DETAIL_TLS __thread __attribute__((tls_model("initial-exec")))
#define PERF_DETAIL_EXPORT __attribute__((visibility("default")))
#else
#error "perf-instrument supports GCC and Clang"
#endif

#define PERF_DETAIL_CONCAT_(a, b) a##b
#define PERF_DETAIL_CONCAT(a, b) PERF_DETAIL_CONCAT_(a, b)

#endif  // PERF_DETAIL_COMPILER_HPP
