#include "lib/resolve/function_report.hpp"

#include <llvm/Support/raw_ostream.h>

#include <map>

#include "lib/collect/function_size.hpp"
#include "lib/diagnostics.hpp"
#include "lib/plan/instrumentation_text.hpp"

namespace perf::tool {
namespace {

// A skip reason without its last clause, the why: "constexpr before C++20".
std::string reason_heading(const std::string& reason) { return reason.substr(0, reason.rfind(": ")); }

}  // namespace

void warn_skipped(const selected_function& f) {
  print_source_warning(f.file, f.line, f.column, string_literal_body(f.name) + " is not measured: " + f.skip_reason);
}

void report_skipped(const std::set<selected_function>& functions, const std::string& where) {
  std::map<std::string, std::size_t> filtered;  // reason_heading -> how many
  for (const selected_function& f : functions) {
    if (f.skip_reason.empty() || is_below_threshold(f.skip_reason)) continue;  // report_left_out counts those
    if (f.marked) warn_skipped(f);
    else ++filtered[reason_heading(f.skip_reason)];
  }
  for (const auto& [reason, count] : filtered)
    print_message((where.empty() ? "" : where + ": ") + count_of(count, "function") +
                  " selected by --filter not measured: " + reason + " (--list shows them)");
}

void warn_renamed(const selected_function& f) {
  print_source_warning(f.file, f.line, f.column,
                       string_literal_body(f.name) + " is measured under this name; " + f.renamed_by);
}

void list_function(const selected_function& f, llvm::raw_ostream& out) {
  out << f.file << ":" << f.line << ": " << string_literal_body(f.name)
      << (f.skip_reason.empty() ? "" : " (skipped: " + f.skip_reason + ")") << "\n";
}

void report_left_out(std::size_t count, unsigned threshold, const std::string& where) {
  if (count == 0) return;
  print_message(where + ": " + count_of(count, "function") +
                " selected by --filter left out below the size threshold " + std::to_string(threshold));
}

std::string count_of(std::size_t count, std::string_view noun) {
  return std::to_string(count) + " " + std::string(noun) + (count == 1 ? "" : "s");
}

std::string functions_summary(const std::set<selected_function>& functions) {
  std::size_t measured = 0;
  std::map<std::string, std::size_t> skipped;  // first clause of the reason -> how many
  for (const selected_function& f : functions) {
    if (f.skip_reason.empty()) ++measured;
    else ++skipped[reason_heading(f.skip_reason)];
  }
  std::string out = count_of(measured, "function") + " measured";
  if (skipped.empty()) return out;
  std::size_t skipped_count = 0;
  std::string reasons;
  for (const auto& [reason, count] : skipped) {
    skipped_count += count;
    reasons += (reasons.empty() ? "" : ", ") + std::to_string(count) + " " + reason;
  }
  return out + ", " + std::to_string(skipped_count) + " skipped (" + reasons + ")";
}

}  // namespace perf::tool
