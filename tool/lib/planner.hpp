// Whether and where a selected function gets its measuring scope: one rule per
// construct, each in one place (see the table in docs/rewriter.md).
#ifndef PERF_TOOL_PLANNER_HPP
#define PERF_TOOL_PLANNER_HPP

#include <clang/Basic/SourceLocation.h>

#include <string>

#include "instrumentation_text.hpp"

namespace clang {
class ASTContext;
class FunctionDecl;
}  // namespace clang

namespace perf::tool {

struct plan {
  std::string skip_reason;          // non-empty: not instrumented, and why
  clang::SourceLocation insert_at;  // right after the body's '{' (a file location); invalid when there is none
  scope_kind kind = scope_kind::plain;
};

// The plan for a function definition (or a defaulted or deleted declaration) that
// the selection chose. A skipped function keeps `insert_at` where it has a body, so
// that units which disagree about it can be told apart (see edit_set::resolve).
plan plan_function(const clang::FunctionDecl& f, const clang::ASTContext& context);

}  // namespace perf::tool

#endif  // PERF_TOOL_PLANNER_HPP
