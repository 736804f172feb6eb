#include "lib/plan/instrumentation_text.hpp"

#include "lib/source_chars.hpp"

namespace perf::tool {
namespace {

constexpr std::string_view include_line = "#include <perf/instrumented.hpp> // perf-instrument\n";
constexpr std::string_view include_text = include_line.substr(0, include_line.size() - 1);  // without its newline
constexpr std::string_view include_after_a_line = "\n#include <perf/instrumented.hpp> // perf-instrument\n";
static_assert(include_after_a_line.substr(1) == include_line);
constexpr std::string_view line_directive = "#line 1 \"";
constexpr std::string_view byte_order_mark = "\xEF\xBB\xBF";
// The statement's opening, by scope_kind, tick_events and call_timing.
constexpr std::string_view scope_openings[2][2][2] = {
    {{" PERF_INSTRUMENT(\"", " PERF_INSTRUMENT_TIME_ALL(\""},
     {" PERF_INSTRUMENT_NO_TICKS(\"", " PERF_INSTRUMENT_NO_TICKS_TIME_ALL(\""}},
    {{" PERF_INSTRUMENT_CONSTEXPR(\"", " PERF_INSTRUMENT_CONSTEXPR_TIME_ALL(\""},
     {" PERF_INSTRUMENT_CONSTEXPR_NO_TICKS(\"", " PERF_INSTRUMENT_CONSTEXPR_NO_TICKS_TIME_ALL(\""}}};

// The length of a literal's body and closing `quote` at the start of `text` (for a
// string, what string_literal_body() writes, then '"'), 0 if the literal does not end
// on this line.
std::size_t literal_rest_length(std::string_view text, char quote = '"') {
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n') return 0;
    if (text[i] == quote) return i + 1;
    if (text[i] == '\\') ++i;
  }
  return 0;
}

// A file read line by line as the preprocessor sees it: which lines are empty, hold
// code, or lie inside a comment or a continued line, and the conditionals the
// directives open. Literals are skipped on one line: a raw string spanning lines that
// holds "/*" or a directive's text can fool it (in code past the leading lines, where
// it matters only for an include guard's extent).
class line_scanner {
 public:
  explicit line_scanner(std::string_view text) : text_(text), at_(file_prefix_offset(text)) {}

  // What read() found on a line.
  struct line {
    std::size_t offset = 0;
    bool empty = false;  // no character, outside a comment, not continuing the line before
    bool code = false;   // something besides comments, whitespace and directives
    int depth = 0;       // conditionals open where the line starts
  };

  // Reads the next line that ends in a newline; false at the end.
  bool read(line& out) {
    const std::size_t end = text_.find('\n', at_);
    if (end == std::string_view::npos) return false;
    const std::string_view text = text_.substr(at_, end - at_);
    const continuation from = continuing_;
    out = {at_, text.empty() && !in_comment_ && from == continuation::none, from == continuation::code, depth_};
    at_ = end + 1;
    std::size_t i = 0;
    if (from == continuation::none) {
      i = skip_comments_and_spaces(text, 0);
      if (i < text.size() && text.substr(i, 2) != "//") {
        if (text[i] == '#') directive(text.substr(i + 1));
        out.code = text[i] != '#';
      }
    }
    if (out.code && guard_closed_) guard_holds_ = false;
    const bool in_directive =
        from == continuation::directive || (from == continuation::none && i < text.size() && text[i] == '#');
    bool line_comment = from == continuation::line_comment;
    for (; i < text.size() && !line_comment; ++i) {
      if (in_comment_) {
        const std::size_t close = text.find("*/", i);
        if (close == std::string_view::npos) break;
        in_comment_ = false;
        i = close + 1;
      } else if (text.substr(i, 2) == "//") {
        line_comment = true;
      } else if (text.substr(i, 2) == "/*") {
        in_comment_ = true;
        ++i;
      } else if (text[i] == '"' || text[i] == '\'') {
        const std::size_t rest = literal_rest_length(text.substr(i + 1), text[i]);
        i = rest == 0 ? text.size() : i + rest;  // its closing quote; unclosed: the end of the line
      }
    }
    const bool continued =
        text.size() > 0 &&
        (text.back() == '\\' || (text.size() > 1 && text.back() == '\r' && text[text.size() - 2] == '\\'));
    continuing_ = !continued     ? continuation::none
                  : line_comment ? continuation::line_comment
                  : in_directive ? continuation::directive
                  : out.code     ? continuation::code
                                 : continuation::none;
    return true;
  }

  // Whether every conditional opened so far is closed.
  bool balanced() const { return depth_ == 0; }
  // Whether the file's first two directives are `#ifndef X` and `#define X`.
  bool guarded() const { return guard_defined_; }
  // Whether the include guard's group holds everything read after it began: no #else
  // or #elif at its level, no directive or code after its #endif.
  bool guard_holds_everything() const { return guard_defined_ && guard_holds_; }

 private:
  enum class continuation { none, directive, line_comment, code };

  static std::string_view word_at(std::string_view text, std::size_t i) {
    std::size_t end = i;
    while (end < text.size() && is_identifier_char(text[end])) ++end;
    return text.substr(i, end - i);
  }

  // The index past the whitespace and block comments of `text` from `i` on (at a
  // line comment's "//"); a block comment left open at the end of the line leaves
  // in_comment_ set.
  std::size_t skip_comments_and_spaces(std::string_view text, std::size_t i) {
    while (i < text.size()) {
      if (in_comment_) {
        const std::size_t close = text.find("*/", i);
        if (close == std::string_view::npos) return text.size();
        in_comment_ = false;
        i = close + 2;
      } else if (is_space(text[i])) {
        ++i;
      } else if (text.substr(i, 2) == "/*") {
        in_comment_ = true;
        i += 2;
      } else {
        return i;
      }
    }
    return i;
  }

  // A directive's effect on the conditionals; `text` follows its '#'. (Comments
  // between the words are skipped here and read again by read(): the same state.)
  void directive(std::string_view text) {
    const bool comment_before = in_comment_;
    const std::size_t name_at = skip_comments_and_spaces(text, 0);
    const std::string_view name = word_at(text, name_at);
    const std::string_view operand = word_at(text, skip_comments_and_spaces(text, name_at + name.size()));
    in_comment_ = comment_before;
    ++directives_;
    if (guard_closed_) guard_holds_ = false;
    if (name == "if" || name == "ifdef" || name == "ifndef") {
      if (directives_ == 1 && name == "ifndef") guard_ = operand;
      ++depth_;
    } else if (name == "define" && directives_ == 2 && !guard_.empty() && operand == guard_) {
      guard_defined_ = true;
    } else if (name == "endif") {
      if (--depth_ == 0 && guard_defined_) guard_closed_ = true;
    } else if ((name == "else" || name.substr(0, 4) == "elif") && depth_ == 1) {
      guard_holds_ = false;
    }
  }

  std::string_view text_;
  std::size_t at_;
  bool in_comment_ = false;
  continuation continuing_ = continuation::none;
  int depth_ = 0;
  int directives_ = 0;
  std::string_view guard_;
  bool guard_defined_ = false;
  bool guard_closed_ = false;
  bool guard_holds_ = true;
};

// The offset of header_include_line() standing on a line of its own within
// header_search_bytes (the in-place form), if `text` has it. Only for a text
// without file_prefix(), whose first line is that same include.
std::optional<std::size_t> header_line_offset(std::string_view text) {
  const std::size_t start = file_prefix_offset(text);
  const std::string_view searched = text.substr(0, header_search_bytes);
  if (searched.substr(start, include_line.size()) == include_line) return start;
  const std::size_t found = searched.find(include_after_a_line);
  if (found == std::string_view::npos) return std::nullopt;
  return found + 1;
}

}  // namespace

std::string_view header_include_line() { return include_text; }

std::optional<std::size_t> empty_line_for_header(std::string_view text) {
  line_scanner scanner(text);
  line_scanner::line line;
  bool leading = true;
  std::optional<std::size_t> under_guard;
  while (scanner.read(line)) {
    const bool fits = line.offset + include_line.size() <= header_search_bytes;
    if (leading && line.empty && fits) {
      if (line.depth == 0) return line.offset;
      if (line.depth == 1 && scanner.guarded() && !under_guard) under_guard = line.offset;
    }
    leading = leading && !line.code;
  }
  if (under_guard && scanner.balanced() && scanner.guard_holds_everything()) return under_guard;
  return std::nullopt;
}

bool has_runtime_header(std::string_view text) {
  return file_prefix_length(text) != 0 || header_line_offset(text).has_value();
}

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
  return text.starts_with(byte_order_mark) ? byte_order_mark.size() : 0;
}

std::size_t file_prefix_length(std::string_view text) {
  text.remove_prefix(file_prefix_offset(text));
  if (!text.starts_with(include_line)) return 0;
  const std::string_view line = text.substr(include_line.size());
  if (!line.starts_with(line_directive)) return 0;
  const std::size_t path = literal_rest_length(line.substr(line_directive.size()));
  if (path == 0 || line.substr(line_directive.size() + path, 1) != "\n") return 0;
  return include_line.size() + line_directive.size() + path + 1;
}

std::string scope_statement(std::string_view label, scope_kind kind, tick_events events, call_timing timing) {
  const std::string_view opening = scope_openings[kind == scope_kind::constexpr_function][events == tick_events::off]
                                                 [timing == call_timing::every_call];
  return std::string(opening) + string_literal_body(label) + "\");";
}

std::size_t scope_statement_length(std::string_view body_text) {
  for (const auto& by_events : scope_openings)
    for (const auto& by_timing : by_events)
      for (const std::string_view opening : by_timing) {
        if (!body_text.starts_with(opening)) continue;
        const std::size_t literal = literal_rest_length(body_text.substr(opening.size()));
        if (literal == 0 || body_text.substr(opening.size() + literal, 2) != ");") return 0;
        return opening.size() + literal + 2;
      }
  return 0;
}

std::string remove_instrumentation(std::string_view text) {
  std::string out;
  if (const std::size_t prefix = file_prefix_length(text); prefix != 0) {
    out = text.substr(0, file_prefix_offset(text));
    text.remove_prefix(out.size() + prefix);
  } else if (const std::optional<std::size_t> line = header_line_offset(text)) {
    out = text.substr(0, *line);  // the line it took was empty
    text.remove_prefix(*line + include_text.size());
  }
  for (std::size_t brace = text.find('{'); brace != std::string_view::npos; brace = text.find('{')) {
    out.append(text.substr(0, brace + 1));
    text.remove_prefix(brace + 1);
    text.remove_prefix(scope_statement_length(text));
  }
  out.append(text);
  return out;
}

}  // namespace perf::tool
