// A fixture of test/format/check_includes.cmake: each include breaks the convention.
#include <perf/measure.hpp>

#include "../probe_runner.hpp"
#include "beside.hpp"
