// public_api.cpp with every scope taking adaptive timing's fast path inline
// (PERF_INLINE_FAST_PATH, include/perf/measure.hpp).
#define PERF_INLINE_FAST_PATH 1
#include "public_api.cpp"
