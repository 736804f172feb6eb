// GoogleTest assertions on performance; each header below stands alone.
#ifndef PERF_GTEST_HPP
#define PERF_GTEST_HPP

#include "perf/gtest_compare.hpp"

#endif  // PERF_GTEST_HPP
