// perf-report on hostile input: real reports (corpus/) truncated, bit-flipped and
// mutated by a deterministic mutator. Every mutant is either refused with one line
// (input_error) or read, and then merged, compared and rendered without a crash, another
// exception or undefined behaviour (the ASan+UBSan variant, perf_report_asan.*, checks
// the last); and what merge writes of it, perf-report reads back (or merge refuses it in
// one line). Bounded: PERF_FUZZ_MUTANTS mutants (default 10,000, a few seconds).
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "diff.hpp"
#include "diff_format.hpp"
#include "html.hpp"
#include "merge.hpp"
#include "parsed_report.hpp"

namespace perf::perf_report {
namespace {

// splitmix64: the same mutants on every machine and every run.
class random_source {
 public:
  explicit random_source(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
  }
  size_t below(size_t n) { return n == 0 ? 0 : static_cast<size_t>(next() % n); }

 private:
  uint64_t state_;
};

std::vector<std::string> corpus() {
  std::vector<std::string> texts;
  for (const auto& entry : std::filesystem::directory_iterator(PERF_REPORT_CORPUS)) {
    std::ifstream in(entry.path(), std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    texts.push_back(text.str());
  }
  std::sort(texts.begin(), texts.end());  // directory order is the file system's
  return texts;
}

// Where each number of `text` starts and ends.
std::vector<std::pair<size_t, size_t>> numbers_in(const std::string& text) {
  std::vector<std::pair<size_t, size_t>> spans;
  for (size_t i = 0; i < text.size();) {
    const bool starts =
        (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '-') &&
        (i == 0 || text[i - 1] == ':' || text[i - 1] == ' ' || text[i - 1] == '[' || text[i - 1] == ',');
    if (!starts) {
      ++i;
      continue;
    }
    size_t end = i + 1;
    while (end < text.size() && std::strchr("0123456789.eE+-", text[end]) != nullptr) ++end;
    spans.emplace_back(i, end);
    i = end;
  }
  return spans;
}

// Values at the edges of what perf-report checks and computes with.
constexpr const char* edge_values[] = {"0",
                                       "-1",
                                       "1e308",
                                       "-1e308",
                                       "1e-320",
                                       "9007199254740993",
                                       "18446744073709551615",
                                       "18446744073709551616",
                                       "4294967296",
                                       "3775",
                                       "3776",
                                       "0.5",
                                       "-0.0",
                                       "1e400",
                                       "2",
                                       "\"x\"",
                                       "null",
                                       "[]",
                                       "{}",
                                       "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]"
                                       "]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]"};

std::string mutant(const std::vector<std::string>& texts, random_source& random) {
  std::string text = texts[random.below(texts.size())];
  const size_t rounds = random.below(2) == 0 ? 1 : 1 + random.below(4);
  for (size_t round = 0; round < rounds && !text.empty(); ++round) {
    switch (random.below(7)) {
      case 0:  // truncated
        text.resize(random.below(text.size()));
        break;
      case 1:  // bits flipped
        for (size_t i = 1 + random.below(8); i > 0; --i)
          text[random.below(text.size())] ^= static_cast<char>(1u << random.below(8));
        break;
      case 2:  // a number replaced by an edge value
      case 3: {
        const auto spans = numbers_in(text);
        if (spans.empty()) break;
        const auto [begin, end] = spans[random.below(spans.size())];
        text.replace(begin, end - begin, edge_values[random.below(std::size(edge_values))]);
        break;
      }
      case 4: {  // a slice repeated (duplicate rows, members, entries)
        const size_t begin = random.below(text.size()),
                     length = random.below(std::min<size_t>(400, text.size() - begin));
        text.insert(random.below(text.size()), text.substr(begin, length));
        break;
      }
      case 5: {  // a slice removed
        const size_t begin = random.below(text.size());
        text.erase(begin, random.below(std::min<size_t>(200, text.size() - begin)));
        break;
      }
      case 6: {  // a piece of another report spliced in
        const std::string& other = texts[random.below(texts.size())];
        const size_t from = random.below(other.size());
        text.replace(random.below(text.size()), random.below(300), other.substr(from, random.below(300)));
        break;
      }
    }
  }
  return text;
}

// What `perf-report merge` writes of `reports`, read back: whatever perf-report writes,
// perf-report reads. Empty where merge refused (sums beyond what a report holds), in one line.
std::optional<report> merged_and_read_back(const std::vector<report>& reports, size_t mutant) {
  std::string written;
  try {
    written = to_json(merge_reports(reports)).dump(1) + "\n";  // as run_merge writes it
  } catch (const input_error& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    EXPECT_EQ(message.rfind("the merged report: ", 0), 0u) << message;
    return std::nullopt;
  }
  try {
    return parse_report(written, "written.json");
  } catch (const input_error& e) {
    ADD_FAILURE() << "mutant " << mutant << ": perf-report refuses the merge it wrote: " << e.what();
  }
  return std::nullopt;
}

// Everything perf-report does with a report it read, `m` being the one read.
void use(const report& original, const report& m, size_t mutant) {
  const std::optional<report> merged = merged_and_read_back({original, m}, mutant);
  merged_and_read_back({m}, mutant);
  if (merged) merged_and_read_back({*merged, m}, mutant);
  EXPECT_FALSE(html_report_page(m, "", default_distribution_bytes).empty());
  diff_options options;
  options.rules = {parse_fail_rule("p50>+10%"), parse_fail_rule("mean<-10%")};
  std::vector<diff_result> diffs = {diff_reports({original}, {m}, options),
                                    diff_reports({m, original}, {original, m}, options)};
  if (merged) diffs.push_back(diff_reports({*merged}, {m}, options));
  for (const diff_result& d : diffs) {
    EXPECT_FALSE(format_diff_text(d).empty());
    EXPECT_FALSE(format_diff_markdown(d).empty());
    EXPECT_FALSE(diff_to_json(d).dump().empty());
    EXPECT_FALSE(html_diff_page(d, default_distribution_bytes).empty());
  }
}

TEST(Fuzz, MutatedReportsAreReadOrRefusedInOneLine) {
  const std::vector<std::string> texts = corpus();
  ASSERT_GE(texts.size(), 3u);
  const report original = parse_report(texts.front(), "original.json");
  const char* count = std::getenv("PERF_FUZZ_MUTANTS");
  const size_t mutants = count != nullptr ? std::strtoul(count, nullptr, 10) : 10000;
  random_source random(26);
  size_t read = 0, refused = 0;
  for (size_t i = 0; i < mutants; ++i) {
    const std::string text = mutant(texts, random);
    try {
      const report m = parse_report(text, "mutant.json");
      ++read;
      use(original, m, i);
    } catch (const input_error& e) {
      ++refused;
      const std::string message = e.what();
      EXPECT_EQ(message.find('\n'), std::string::npos) << message;
      EXPECT_EQ(message.rfind("mutant.json: ", 0), 0u) << message;
    } catch (const std::exception& e) {
      ADD_FAILURE() << "mutant " << i << ": " << e.what() << "\n" << text.substr(0, 2000);
    }
  }
  // Both paths were taken: the mutator makes reports that are still reports.
  EXPECT_GT(read, mutants / 50);
  EXPECT_GT(refused, mutants / 2);
  std::cout << read << " mutants read, " << refused << " refused\n";
}

}  // namespace
}  // namespace perf::perf_report
