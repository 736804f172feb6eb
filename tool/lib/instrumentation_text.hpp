// The exact text the rewriter inserts, and how it is recognised and removed again.
#ifndef PERF_TOOL_INSTRUMENTATION_TEXT_HPP
#define PERF_TOOL_INSTRUMENTATION_TEXT_HPP

#include <cstddef>
#include <string>
#include <string_view>

namespace perf::tool {

// The body of a C string literal whose value is `text`: quotes, backslashes and
// control characters escaped, so the literal never spans lines (line numbers stay
// put) and means the same under every standard and compiler.
std::string string_literal_body(std::string_view text);

// The lines put before the first line of an instrumented file: the runtime header,
// then `#line 1 "<original_path>"` so every later line keeps its number and name.
std::string file_prefix(std::string_view original_path);

// Where file_prefix() goes in `text`: at the start, or after a UTF-8 byte order mark
// (which must stay the file's first bytes).
std::size_t file_prefix_offset(std::string_view text);

// The length of the prefix `text` carries at file_prefix_offset(), 0 if none.
std::size_t file_prefix_length(std::string_view text);

enum class scope_kind { plain, constexpr_function };

// Whether a scope logs its calls' enter and exit events in the tick log.
enum class tick_events { logged, off };

// What goes right after the opening brace of a measured body:
// ` PERF_INSTRUMENT("label");` (or PERF_INSTRUMENT_CONSTEXPR, and either with
// _NO_TICKS).
std::string scope_statement(std::string_view label, scope_kind kind, tick_events events);

// The length of the statement scope_statement() writes, if `body_text` (the text
// right after a body's opening brace) starts with one; else 0.
std::size_t scope_statement_length(std::string_view body_text);

// `text` without anything file_prefix() and scope_statement() put in it: the file
// as it was before the rewriter ran, byte for byte.
std::string remove_instrumentation(std::string_view text);

}  // namespace perf::tool

#endif  // PERF_TOOL_INSTRUMENTATION_TEXT_HPP
