// perf-instrument's GoogleTest assertions, all in one include:
//
//   #include <perf/gtest.hpp>
//
// Allocation budgets: perf/gtest_alloc.hpp (link perf::alloc).
// Ratios of interleaved comparisons: perf/gtest_compare.hpp (link perf::compare).
// Each header stands alone.
#ifndef PERF_GTEST_HPP
#define PERF_GTEST_HPP

#include "perf/gtest_alloc.hpp"
#include "perf/gtest_compare.hpp"

#endif  // PERF_GTEST_HPP
