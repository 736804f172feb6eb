#include "instrumentation_text.hpp"

#include <regex>

namespace perf::tool {
namespace {

constexpr std::string_view include_line = "#include <perf/instrumented.hpp> // perf-instrument\n";

// A C string literal's body for `text`.
std::string escaped(std::string_view text) {
  std::string out;
  for (const char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

// The scope statement scope_statement() writes, anchored right after a '{'.
const std::regex& scope_statement_pattern() {
  static const std::regex pattern(R"re(\{ PERF_INSTRUMENT(_CONSTEXPR)?\("(?:[^"\\]|\\.)*"\);)re");
  return pattern;
}

}  // namespace

std::string file_prefix(std::string_view original_path) {
  return std::string(include_line) + "#line 1 \"" + escaped(original_path) + "\"\n";
}

bool has_file_prefix(std::string_view text) { return text.substr(0, include_line.size()) == include_line; }

std::string scope_statement(std::string_view label, scope_kind kind) {
  return std::string(kind == scope_kind::plain ? " PERF_INSTRUMENT(\"" : " PERF_INSTRUMENT_CONSTEXPR(\"") +
         escaped(label) + "\");";
}

bool starts_with_scope_statement(std::string_view body_text) {
  return body_text.substr(0, 17) == " PERF_INSTRUMENT(" || body_text.substr(0, 27) == " PERF_INSTRUMENT_CONSTEXPR(";
}

std::string remove_instrumentation(std::string_view text) {
  std::string_view rest = text;
  if (has_file_prefix(rest)) {
    rest.remove_prefix(include_line.size());
    rest.remove_prefix(rest.find('\n') + 1);  // the #line directive
  }
  const std::string body(rest);
  return std::regex_replace(body, scope_statement_pattern(), "{");
}

}  // namespace perf::tool
