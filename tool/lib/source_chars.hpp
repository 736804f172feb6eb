// The characters the rewriter's text scans tell apart, as C++ source spells them.
#ifndef PERF_TOOL_SOURCE_CHARS_HPP
#define PERF_TOOL_SOURCE_CHARS_HPP

namespace perf::tool {

// Whitespace between tokens: space, tab, the line ends, form feed, vertical tab.
inline bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

// A character of an identifier (ASCII letters, digits, '_'), whatever the locale.
inline bool is_identifier_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

}  // namespace perf::tool

#endif  // PERF_TOOL_SOURCE_CHARS_HPP
