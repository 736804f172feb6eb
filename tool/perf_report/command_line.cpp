#include "command_line.hpp"

#include <fmt/format.h>

#include "ab.hpp"
#include "ab_format.hpp"
#include "diff.hpp"
#include "diff_format.hpp"
#include "html.hpp"
#include "merge.hpp"
#include "parsed_report.hpp"
#include "shell_words.hpp"
#include "version_info.hpp"

namespace perf::perf_report {
namespace {

constexpr const char* usage =
    "usage: perf-report merge REPORT.json... -o MERGED.json\n"
    "       perf-report diff BASE.json... --new NEW.json... [--format text|markdown|json|html] [-o FILE]\n"
    "                   [--fail-if 'FIGURE>+N%']... [--min-calls N (default 100)] [--noise-floor N%]\n"
    "                   [--normalize FUNCTION] [--noise-from FLOOR.json] [--distribution-kb N]\n"
    "       perf-report diff BASE.json NEW.json [options as above]\n"
    "       perf-report ab --base 'CMD ARGS' --new 'CMD ARGS' [--runs N (default 20)] [--time-budget S]\n"
    "                   [--fail-if 'FIGURE>+N%']... [--min-calls N] [--noise-floor N% (default 1%)]\n"
    "                   [--format text|markdown|json|junit] [-o FILE] [--save-noise FLOOR.json]\n"
    "       perf-report html REPORT.json [-o report.html] [--folded STACKS.txt] [--distribution-kb N]\n"
    "       (--distribution-kb: the most histogram data an HTML page embeds, default 3000)\n"
    "       every command: [--max-input-mb N]: the largest input file read, default 256\n"
    "       perf-report --version: the version and the git revision it was built from\n";

class usage_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct parsed {
  std::vector<std::string> files;      // base side for diff
  std::vector<std::string> new_files;  // after --new
  bool saw_new = false;
  std::string output;
  std::string format = "text";
  std::string folded;
  size_t distribution_bytes = default_distribution_bytes;
  size_t max_input_bytes = default_max_input_bytes;
  diff_options diff;
  bool noise_floor_given = false;
  std::string save_noise;  // ab: where to write the between-process floor
  std::string noise_from;  // diff: where to read it
  ab_options ab;
};

uint64_t parse_count(const std::string& option, const std::string& value) {
  size_t used = 0;
  try {
    const unsigned long long n = std::stoull(value, &used);
    if (used == value.size() && value[0] != '-') return n;
  } catch (const std::exception&) {}
  throw usage_error(fmt::format("{} {}: not a count", option, value));
}

parsed parse(const std::vector<std::string>& args, const std::string& command) {
  parsed p;
  for (size_t i = 1; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&]() -> const std::string& {
      if (i + 1 >= args.size()) throw usage_error(fmt::format("{} needs a value", a));
      return args[++i];
    };
    if (a == "-o") {
      p.output = value();
    } else if (a == "--new" && command == "diff") {
      p.saw_new = true;
    } else if ((a == "--base" || a == "--new") && command == "ab") {
      const std::string& line = value();
      try {
        (a == "--base" ? p.ab.base_command : p.ab.new_command) = split_shell_words(line);
      } catch (const input_error& e) { throw input_error(fmt::format("{}: {}", a, e.what())); }
    } else if (a == "--runs" && command == "ab") {
      p.ab.runs = parse_count(a, value());
      if (p.ab.runs < 2) throw usage_error(fmt::format("--runs {}: at least 2 processes per side", p.ab.runs));
    } else if (a == "--time-budget" && command == "ab") {
      p.ab.time_budget_s = static_cast<double>(parse_count(a, value()));
    } else if (a == "--format" && (command == "diff" || command == "ab")) {
      p.format = value();
      const char* expected = command == "diff" ? "text, markdown, json or html" : "text, markdown, json or junit";
      if (p.format != "text" && p.format != "markdown" && p.format != "json" &&
          p.format != (command == "diff" ? "html" : "junit"))
        throw usage_error(fmt::format("--format {}: expected {}", p.format, expected));
    } else if (a == "--fail-if" && (command == "diff" || command == "ab")) {
      p.diff.rules.push_back(parse_fail_rule(value()));
    } else if (a == "--min-calls" && (command == "diff" || command == "ab")) {
      p.diff.min_calls = parse_count(a, value());
    } else if (a == "--noise-floor" && (command == "diff" || command == "ab")) {
      const std::string& v = value();
      std::string digits = v.substr(0, v.find('%'));
      p.diff.noise_floor = static_cast<double>(parse_count(a, digits)) / 100;
      p.noise_floor_given = true;
    } else if (a == "--save-noise" && command == "ab") {
      p.save_noise = value();
    } else if (a == "--noise-from" && command == "diff") {
      p.noise_from = value();
    } else if (a == "--normalize" && command == "diff") {
      p.diff.normalize = value();
    } else if (a == "--distribution-kb" && command != "merge") {
      p.distribution_bytes = parse_count(a, value()) * 1000;
    } else if (a == "--max-input-mb") {
      const uint64_t megabytes = parse_count(a, value());
      if (megabytes == 0 || megabytes > SIZE_MAX / 2'000'000)
        throw usage_error(fmt::format("{} {}: out of range", a, megabytes));
      p.max_input_bytes = megabytes * 1'000'000;
    } else if (a == "--folded" && command == "html") {
      p.folded = value();
    } else if (a.size() > 1 && a[0] == '-') {
      throw usage_error(fmt::format("unknown option {} for {}", a, command));
    } else {
      (p.saw_new ? p.new_files : p.files).push_back(a);
    }
  }
  return p;
}

std::vector<report> read_all(const std::vector<std::string>& paths, size_t max_bytes) {
  std::vector<report> reports;
  for (const std::string& path : paths) reports.push_back(read_report(path, max_bytes));
  return reports;
}

void emit(const parsed& p, const std::string& text, std::ostream& out) {
  if (p.output.empty()) out << text;
  else write_file_atomically(p.output, text);
}

int run_merge(const parsed& p, std::ostream& out) {
  if (p.files.empty()) throw usage_error("merge needs at least one report");
  if (p.output.empty()) throw usage_error("merge needs -o MERGED.json");
  emit(p, to_json(merge_reports(read_all(p.files, p.max_input_bytes))).dump(1) + "\n", out);
  return 0;
}

int run_diff(parsed p, std::ostream& out, std::ostream& err) {
  if (!p.saw_new) {
    if (p.files.size() != 2)
      throw usage_error("diff needs BASE.json NEW.json, or several of each side separated by --new");
    p.new_files.push_back(p.files.back());
    p.files.pop_back();
  }
  if (p.files.empty() || p.new_files.empty()) throw usage_error("diff needs at least one report on each side of --new");
  if (!p.noise_from.empty()) p.diff.between_process = read_process_floor(p.noise_from, p.max_input_bytes);
  if (p.files.size() < 2 || p.new_files.size() < 2)
    for (const fail_rule& rule : p.diff.rules)
      if (rule.figure == metric::p99)
        err << "perf-report: warning: --fail-if '" << rule.text
            << "' never fires with one report on a side: one run cannot tell the tail's change from noise "
               "(give several reports per side)\n";
  const diff_result result =
      diff_reports(read_all(p.files, p.max_input_bytes), read_all(p.new_files, p.max_input_bytes), p.diff);
  std::string text;
  if (p.format == "markdown") text = format_diff_markdown(result);
  else if (p.format == "json") text = diff_to_json(result).dump(1) + "\n";
  else if (p.format == "html") text = html_diff_page(result, p.distribution_bytes);
  else text = format_diff_text(result);
  emit(p, text, out);
  // The verdict goes to stdout whatever the format, as the last line (CI logs show it).
  if (!p.output.empty() || p.format == "html" || p.format == "json") out << result.verdict << '\n';
  return result.broken.empty() ? 0 : 1;
}

int run_ab_command(parsed p, std::ostream& out) {
  if (!p.files.empty())
    throw usage_error(fmt::format("ab takes no report files ({}): it runs --base and --new", p.files.front()));
  if (p.ab.base_command.empty() || p.ab.new_command.empty())
    throw usage_error("ab needs --base 'CMD ARGS' and --new 'CMD ARGS'");
  if (!p.noise_floor_given) p.diff.noise_floor = p.ab.diff.noise_floor;
  p.ab.diff = p.diff;
  p.ab.max_input_bytes = p.max_input_bytes;
  const ab_result result = run_ab(p.ab);
  if (!p.save_noise.empty()) write_file_atomically(p.save_noise, to_json(result.between_process).dump(1) + "\n");
  std::string text;
  if (p.format == "markdown") text = format_ab_markdown(result);
  else if (p.format == "json") text = ab_to_json(result).dump(1) + "\n";
  else if (p.format == "junit") text = format_ab_junit(result, p.diff.rules);
  else text = format_ab_text(result);
  emit(p, text, out);
  if (!p.output.empty() || p.format == "json" || p.format == "junit") out << result.diff.verdict << '\n';
  return result.diff.broken.empty() ? 0 : 1;
}

int run_html(const parsed& p, std::ostream& out) {
  if (p.files.size() != 1) throw usage_error("html needs exactly one REPORT.json");
  const report r = read_report(p.files.front(), p.max_input_bytes);
  const std::string folded = p.folded.empty() ? std::string() : read_whole_file(p.folded, p.max_input_bytes);
  emit(p, html_report_page(r, folded, p.distribution_bytes), out);
  return 0;
}

}  // namespace

int run_command_line(const std::vector<std::string>& arguments, std::ostream& out, std::ostream& err) {
  try {
    if (arguments.empty()) throw usage_error("no command");
    const std::string& command = arguments.front();
    if (command == "--help" || command == "-h") {
      out << usage;
      return 0;
    }
    if (command == "--version") {
      out << "perf-report " << version_info::version << " (git " << version_info::revision << ")\n";
      return 0;
    }
    if (command != "merge" && command != "diff" && command != "html" && command != "ab")
      throw usage_error(fmt::format("unknown command {}", command));
    const parsed p = parse(arguments, command);
    if (command == "merge") return run_merge(p, out);
    if (command == "diff") return run_diff(p, out, err);
    if (command == "ab") return run_ab_command(p, out);
    return run_html(p, out);
  } catch (const usage_error& e) { err << "perf-report: " << e.what() << '\n' << usage; } catch (const input_error& e) {
    err << "perf-report: " << e.what() << '\n';
  }
  return 2;
}

}  // namespace perf::perf_report
