// perf-report: see docs/perf-report.md.
#include <iostream>

#include "command_line.hpp"

int main(int argc, char** argv) {
  return perf::perf_report::run_command_line(std::vector<std::string>(argv + 1, argv + argc), std::cout, std::cerr);
}
