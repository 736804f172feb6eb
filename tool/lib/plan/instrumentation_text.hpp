// The exact text the rewriter inserts, and how it is recognised and removed again.
#ifndef PERF_TOOL_INSTRUMENTATION_TEXT_HPP
#define PERF_TOOL_INSTRUMENTATION_TEXT_HPP

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace perf::tool {

// The body of a C string literal whose value is `text`: quotes, backslashes and
// control characters escaped, so the literal never spans lines (line numbers stay
// put) and means the same under every standard and compiler.
std::string string_literal_body(std::string_view text);

// How far into a file the rewriter puts and looks for the runtime header.
constexpr std::size_t header_search_bytes = 16384;

// The lines put before the first line of an instrumented file: the runtime header,
// then `#line 1 "<original_path>"` so every later line keeps its number and name.
// For a copy under another name (a mirror), and for a file edited in place that has
// no empty_line_for_header().
std::string file_prefix(std::string_view original_path);

// The line, without its newline, that includes the runtime header.
std::string_view header_include_line();

// Where a file edited in place takes header_include_line() so that no line moves and
// no `#line` is needed (GCC quotes a diagnostic's source line from the file by the
// number `#line` gives, two lines off in a prefixed file): the offset of an empty line
// among the file's leading comments, blank lines and directives, within
// header_search_bytes, outside every conditional but an include guard that holds the
// whole file. None when the file has no such line.
std::optional<std::size_t> empty_line_for_header(std::string_view text);

// Whether `text` includes the runtime header as the rewriter puts it: file_prefix()
// at file_prefix_offset(), or header_include_line() on a line of its own within
// header_search_bytes.
bool has_runtime_header(std::string_view text);

// Where file_prefix() goes in `text`: at the start, or after a UTF-8 byte order mark
// (which must stay the file's first bytes).
std::size_t file_prefix_offset(std::string_view text);

// The length of the prefix `text` carries at file_prefix_offset(), 0 if none.
std::size_t file_prefix_length(std::string_view text);

enum class scope_kind { plain, constexpr_function };

// Whether a scope logs its calls' enter and exit events in the tick log.
enum class tick_events { logged, off };

// Whether a scope times every call (--time-all), or lets the runtime time a sample of
// a cheap function's calls (PERF_TIMING).
enum class call_timing { runtime_chooses, every_call };

// What goes right after the opening brace of a measured body:
// ` PERF_INSTRUMENT("label");` (or PERF_INSTRUMENT_CONSTEXPR, either with _NO_TICKS,
// and any of those with _TIME_ALL: PERF_INSTRUMENT_CONSTEXPR_NO_TICKS_TIME_ALL).
std::string scope_statement(std::string_view label, scope_kind kind, tick_events events,
                            call_timing timing = call_timing::runtime_chooses);

// The length of the statement scope_statement() writes, if `body_text` (the text
// right after a body's opening brace) starts with one; else 0.
std::size_t scope_statement_length(std::string_view body_text);

// `text` without anything file_prefix(), header_include_line() (on the empty line it
// took) and scope_statement() put in it: the file as it was before the rewriter ran,
// byte for byte.
std::string remove_instrumentation(std::string_view text);

}  // namespace perf::tool

#endif  // PERF_TOOL_INSTRUMENTATION_TEXT_HPP
