// The header perf-instrument puts at the top of every file it instruments.
//
// Besides PERF_INSTRUMENT, it silences the compilers' warnings about the
// [[perf::measure]] attributes the rewriter has already acted on (GCC and Clang do
// not know them), so instrumented code builds as cleanly as the original. It is
// not meant for hand-written code: include <perf/perf.hpp> there.
#ifndef PERF_INSTRUMENTED_HPP
#define PERF_INSTRUMENTED_HPP

#include "perf/measure.hpp"

#if defined(__clang__)
#pragma clang diagnostic ignored "-Wunknown-warning-option"
#pragma clang diagnostic ignored "-Wunknown-attributes"
#pragma clang diagnostic ignored "-Wc++2b-extensions"  // attributes on a lambda, before C++23
#pragma clang diagnostic ignored "-Wc++23-extensions"
#elif defined(__GNUC__)
#pragma GCC diagnostic ignored "-Wattributes"
#endif

#endif  // PERF_INSTRUMENTED_HPP
