// A fixture of check_bench_includes.cmake: a bench reaching into a test's header and a
// component's internals, each of which the check names.
#include "../test/runtime/export/client.hpp"
#include "sampler/internal/sampling.hpp"
