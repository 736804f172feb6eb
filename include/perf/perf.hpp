// perf-instrument: everything public in one include.
//
//   #include <perf/perf.hpp>
//
//   void handle(const request& r) {
//     PERF_MEASURE("handle");   // counted and timed; reported when the program exits
//     ...
//   }
#ifndef PERF_PERF_HPP
#define PERF_PERF_HPP

#include "perf/measure.hpp"
#include "perf/report.hpp"
#include "perf/sampler.hpp"
#include "perf/tick.hpp"

#endif  // PERF_PERF_HPP
