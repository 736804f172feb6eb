// perf-instrument's GoogleTest assertions, all in one include:
//
//   #include <perf/gtest.hpp>
//
// Allocation budgets: perf/gtest_alloc.hpp.
#ifndef PERF_GTEST_HPP
#define PERF_GTEST_HPP

#include "perf/gtest_alloc.hpp"

#endif  // PERF_GTEST_HPP
