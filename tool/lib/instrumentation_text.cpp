#include "instrumentation_text.hpp"

namespace perf::tool {
namespace {

constexpr std::string_view include_line = "#include <perf/instrumented.hpp> // perf-instrument\n";
constexpr std::string_view line_directive = "#line 1 \"";
constexpr std::string_view byte_order_mark = "\xEF\xBB\xBF";
// The statement's opening, by scope_kind and tick_events.
constexpr std::string_view scope_openings[2][2] = {
    {" PERF_INSTRUMENT(\"", " PERF_INSTRUMENT_NO_TICKS(\""},
    {" PERF_INSTRUMENT_CONSTEXPR(\"", " PERF_INSTRUMENT_CONSTEXPR_NO_TICKS(\""}};

bool starts_with(std::string_view text, std::string_view start) { return text.substr(0, start.size()) == start; }

// The length of a string literal's body and closing quote at the start of `text`
// (what string_literal_body() writes, then '"'), 0 if the literal does not end on
// this line.
std::size_t literal_rest_length(std::string_view text) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n') return 0;
    if (text[i] == '"') return i + 1;
    if (text[i] == '\\') ++i;
  }
  return 0;
}

}  // namespace

std::string string_literal_body(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c == 0x7f) {
      // Three octal digits: a following digit cannot extend the escape.
      out += '\\';
      out += static_cast<char>('0' + (c >> 6));
      out += static_cast<char>('0' + ((c >> 3) & 7));
      out += static_cast<char>('0' + (c & 7));
    } else if (c == '?' && i > 0 && text[i - 1] == '?') {
      out += "\\?";  // no trigraph (GCC reads them in its strict -std=c++11 and c++14 modes)
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

std::string file_prefix(std::string_view original_path) {
  return std::string(include_line) + std::string(line_directive) + string_literal_body(original_path) + "\"\n";
}

std::size_t file_prefix_offset(std::string_view text) {
  return starts_with(text, byte_order_mark) ? byte_order_mark.size() : 0;
}

std::size_t file_prefix_length(std::string_view text) {
  text.remove_prefix(file_prefix_offset(text));
  if (!starts_with(text, include_line)) return 0;
  const std::string_view line = text.substr(include_line.size());
  if (!starts_with(line, line_directive)) return 0;
  const std::size_t path = literal_rest_length(line.substr(line_directive.size()));
  if (path == 0 || line.substr(line_directive.size() + path, 1) != "\n") return 0;
  return include_line.size() + line_directive.size() + path + 1;
}

std::string scope_statement(std::string_view label, scope_kind kind, tick_events events) {
  const std::string_view opening = scope_openings[kind == scope_kind::constexpr_function][events == tick_events::off];
  return std::string(opening) + string_literal_body(label) + "\");";
}

std::size_t scope_statement_length(std::string_view body_text) {
  for (const auto& openings : scope_openings)
    for (const std::string_view opening : openings) {
      if (!starts_with(body_text, opening)) continue;
      const std::size_t literal = literal_rest_length(body_text.substr(opening.size()));
      if (literal == 0 || body_text.substr(opening.size() + literal, 2) != ");") return 0;
      return opening.size() + literal + 2;
    }
  return 0;
}

std::string remove_instrumentation(std::string_view text) {
  std::string out(text.substr(0, file_prefix_offset(text)));
  text.remove_prefix(out.size() + file_prefix_length(text));
  for (std::size_t brace = text.find('{'); brace != std::string_view::npos; brace = text.find('{')) {
    out.append(text.substr(0, brace + 1));
    text.remove_prefix(brace + 1);
    text.remove_prefix(scope_statement_length(text));
  }
  out.append(text);
  return out;
}

}  // namespace perf::tool
