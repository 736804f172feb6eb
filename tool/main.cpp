// perf-instrument: see docs/rewriter.md.
#include "lib/driver.hpp"

int main(int argc, const char** argv) { return perf::tool::run_command_line(argc, argv); }
