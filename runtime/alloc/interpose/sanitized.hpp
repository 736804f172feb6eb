// PERF_ALLOC_SANITIZED: 1 when this unit is compiled with AddressSanitizer or
// ThreadSanitizer, which own malloc: then perf::alloc counts through their hooks
// and defines no allocation function of its own (but for ThreadSanitizer's gaps:
// thread_sanitizer_gaps.cpp). PERF_ALLOC_THREAD_SANITIZER: 1 under ThreadSanitizer.
#ifndef PERF_RUNTIME_ALLOC_INTERPOSE_SANITIZED_HPP
#define PERF_RUNTIME_ALLOC_INTERPOSE_SANITIZED_HPP

#if defined(__SANITIZE_THREAD__)
#define PERF_ALLOC_THREAD_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define PERF_ALLOC_THREAD_SANITIZER 1
#endif
#endif
#ifndef PERF_ALLOC_THREAD_SANITIZER
#define PERF_ALLOC_THREAD_SANITIZER 0
#endif

#if defined(__SANITIZE_ADDRESS__) || PERF_ALLOC_THREAD_SANITIZER
#define PERF_ALLOC_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PERF_ALLOC_SANITIZED 1
#endif
#endif
#ifndef PERF_ALLOC_SANITIZED
#define PERF_ALLOC_SANITIZED 0
#endif

#endif  // PERF_RUNTIME_ALLOC_INTERPOSE_SANITIZED_HPP
