// Running sample_probe and reading the summary it prints (its header lists the lines).
#ifndef PERF_TEST_RUNTIME_SAMPLER_SAMPLE_PROBE_SUMMARY_HPP
#define PERF_TEST_RUNTIME_SAMPLER_SAMPLE_PROBE_SUMMARY_HPP

#include <map>
#include <sstream>
#include <string>
#include <utility>

#include "probe_runner.hpp"

namespace perf::testing {

struct probe_summary {
  std::map<std::string, uint64_t> functions;                   // the probe's top functions
  std::map<std::string, std::pair<double, double>> intervals;  // their shares' 95% intervals
  std::map<long, std::pair<uint64_t, std::string>> threads;    // tid -> samples, top function
  uint64_t total = 0;
  uint64_t interrupts = 0;
  std::string source;
  double cpu_ms = 0;       // the process's CPU time before the summary
  double main_cpu_ms = 0;  // the part of it spent in main()
  uint64_t probe = 0;      // samples inside perf's own probes
};

// Parses the probe's "function NAME N", "interval LOW HIGH NAME", "thread TID N NAME",
// "total N", "interrupts N", "source NAME", "cpu_ms N", "main_cpu_ms N" and "probe N" lines.
inline probe_summary parse_summary(const std::string& output) {
  probe_summary summary;
  std::istringstream lines(output);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::string kind;
    words >> kind;
    if (kind == "function") {
      const size_t last_space = line.rfind(' ');
      summary.functions[line.substr(9, last_space - 9)] = std::stoull(line.substr(last_space + 1));
    } else if (kind == "interval") {
      double low = 0, high = 0;
      std::string name;
      words >> low >> high;
      std::getline(words >> std::ws, name);
      summary.intervals[name] = {low, high};
    } else if (kind == "thread") {
      long tid = 0;
      uint64_t samples = 0;
      words >> tid >> samples;
      std::string top;
      std::getline(words >> std::ws, top);
      summary.threads[tid] = {samples, top};
    } else if (kind == "total") {
      words >> summary.total;
    } else if (kind == "interrupts") {
      words >> summary.interrupts;
    } else if (kind == "source") {
      words >> summary.source;
    } else if (kind == "cpu_ms") {
      words >> summary.cpu_ms;
    } else if (kind == "main_cpu_ms") {
      words >> summary.main_cpu_ms;
    } else if (kind == "probe") {
      words >> summary.probe;
    }
  }
  return summary;
}

inline probe_result run_sample_probe(const std::string& environment, const std::string& scenario) {
  return run_probe_program(PERF_SAMPLE_PROBE, "PERF_REPORT=off " + environment, scenario);
}

}  // namespace perf::testing

#endif  // PERF_TEST_RUNTIME_SAMPLER_SAMPLE_PROBE_SUMMARY_HPP
