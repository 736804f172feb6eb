// The exact text the rewriter inserts, and how it is recognised and removed again.
#ifndef PERF_TOOL_INSTRUMENTATION_TEXT_HPP
#define PERF_TOOL_INSTRUMENTATION_TEXT_HPP

#include <string>
#include <string_view>

namespace perf::tool {

// The lines put before the first line of an instrumented file: the runtime header,
// then `#line 1 "<original_path>"` so every later line keeps its number and name.
std::string file_prefix(std::string_view original_path);

// Whether `text` (a file's contents) starts with a prefix from file_prefix().
bool has_file_prefix(std::string_view text);

enum class scope_kind { plain, constexpr_function };

// What goes right after the opening brace of a measured body:
// ` PERF_INSTRUMENT("label");` (or PERF_INSTRUMENT_CONSTEXPR).
std::string scope_statement(std::string_view label, scope_kind kind);

// Whether `body_text`, the text right after a body's opening brace, starts with a
// statement from scope_statement().
bool starts_with_scope_statement(std::string_view body_text);

// `text` without anything file_prefix() and scope_statement() put in it: the file
// as it was before the rewriter ran, byte for byte.
std::string remove_instrumentation(std::string_view text);

}  // namespace perf::tool

#endif  // PERF_TOOL_INSTRUMENTATION_TEXT_HPP
