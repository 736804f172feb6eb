// A small log pipeline, measured by perf-instrument through its [[perf::measure]]
// attributes: it generates N log lines, parses them on four worker threads, weighs
// and counts them per path, merges the workers' counts and prints the five heaviest
// paths. The exit report shows where the time went. Usage: log_pipeline [LINES]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "aggregate.hpp"
#include "parse.hpp"

namespace {

constexpr int workers = 4;

// Deterministic input: every 50th line is malformed, every 7th an error.
[[perf::measure]] std::vector<std::string> generate_lines(int count) {
  static const char* const paths[] = {"/", "/login", "/api/items", "/api/items/42", "/static/app.js", "/health"};
  std::vector<std::string> lines;
  for (int i = 0; i < count; ++i) {
    const std::string time = std::to_string(1'700'000'000 + i);
    const std::string path = paths[(i * 7 + i / 3) % 6];
    if (i % 50 == 49)
      lines.push_back(time + "x GET " + path);
    else if (i % 7 == 3)
      lines.push_back(time + " ERR " + path);
    else
      lines.push_back(time + " GET " + path + " " + (i % 11 == 0 ? "503" : "200"));
  }
  return lines;
}

[[perf::measure("process_chunk (one worker's share)")]] logs::counter<std::string> process_chunk(const std::vector<std::string>& lines, size_t first, size_t last,
                                         long& malformed) {
  logs::counter<std::string> counts;
  for (size_t i = first; i < last; ++i) {
    try {
      const auto parsed = logs::parse_line(lines[i]);
      counts.add(parsed->path(), parsed->weight());
    } catch (const logs::parse_error&) {
      ++malformed;
    }
  }
  return counts;
}

[[perf::measure]] void print_top(const logs::counter<std::string>& total, long malformed) {
  std::vector<std::pair<std::string, long>> rows(total.counts().begin(), total.counts().end());
  const size_t shown = std::min<size_t>(rows.size(), 5);
  std::partial_sort(rows.begin(), rows.begin() + static_cast<long>(shown), rows.end(),
                    [](const auto& a, const auto& b) { return a.second > b.second; });
  const auto print_row = [] [[perf::measure]] (const std::pair<std::string, long>& row) {
    std::printf("%8ld  %s\n", row.second, row.first.c_str());
  };
  for (size_t i = 0; i < shown; ++i) print_row(rows[i]);
  std::printf("%8ld  malformed lines\n", malformed);
}

}  // namespace

int main(int argc, char** argv) {
  const int count = argc > 1 ? std::atoi(argv[1]) : 20000;
  const std::vector<std::string> lines = generate_lines(count);

  std::vector<logs::counter<std::string>> parts(workers);
  std::vector<long> malformed(workers);
  std::vector<std::thread> threads;
  for (int w = 0; w < workers; ++w)
    threads.emplace_back([&, w] {
      const size_t first = lines.size() * static_cast<size_t>(w) / workers;
      const size_t last = lines.size() * static_cast<size_t>(w + 1) / workers;
      parts[static_cast<size_t>(w)] = process_chunk(lines, first, last, malformed[static_cast<size_t>(w)]);
    });
  for (std::thread& t : threads) t.join();

  long total_malformed = 0;
  for (const long m : malformed) total_malformed += m;
  print_top(logs::merge_range(parts, 0, parts.size()), total_malformed);
  return 0;
}
