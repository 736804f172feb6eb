// What a run says about the functions it selected. A name is escaped as in a
// string literal, so that each stays on its line.
#ifndef PERF_TOOL_FUNCTION_REPORT_HPP
#define PERF_TOOL_FUNCTION_REPORT_HPP

#include <llvm/Support/raw_ostream.h>

#include <cstddef>
#include <set>
#include <string>
#include <string_view>

#include "lib/plan/selected_function.hpp"

namespace perf::tool {

// On stderr, for a function not measured: `file:line:col: warning: NAME is not measured: REASON`.
void warn_skipped(const selected_function& f);

// On stderr, what became of the functions not measured among `functions`: a marked
// one gets warn_skipped(); those only a --filter selected, one line per reason (its
// first clause, as in functions_summary()) with their count, each
// `perf-instrument: [WHERE: ]N functions selected by --filter not measured: REASON (--list shows them)`,
// WHERE being, if not empty, what they were found in (the launcher's unit).
void report_skipped(const std::set<selected_function>& functions, const std::string& where = "");

// On stderr, for a function measured under one name though some units name it
// otherwise (a macro renames its namespace there, say):
// `file:line:col: warning: NAME is measured under this name; UNIT names it OTHER`.
void warn_renamed(const selected_function& f);

// On `out` (stdout for --list): `file:line: NAME`, with ` (skipped: REASON)` for one not measured.
void list_function(const selected_function& f, llvm::raw_ostream& out = llvm::outs());

// On stderr, when the size threshold left `count` functions out (of `where`: a unit,
// or "the selection"): `perf-instrument: WHERE: N functions selected by --filter left
// out below the size threshold T`.
void report_left_out(std::size_t count, unsigned threshold, const std::string& where);

// `count` and `noun`, plural unless the count is 1: "1 file", "2 files".
std::string count_of(std::size_t count, std::string_view noun);

// What became of the selected functions: `M functions measured, K skipped (N REASON, ...)`,
// each reason without its last clause, the why (the warnings give it).
std::string functions_summary(const std::set<selected_function>& functions);

}  // namespace perf::tool

#endif  // PERF_TOOL_FUNCTION_REPORT_HPP
