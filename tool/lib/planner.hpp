// Whether and where a selected function gets its measuring scope: one rule per
// construct, each in one place.
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
  std::string skip_reason;        // non-empty: not instrumented, and why
  bool already_instrumented = false;
  clang::SourceLocation after;    // insert right after this character (the body's '{'), a file location
  scope_kind kind = scope_kind::plain;
};

// The plan for a function definition that the selection chose.
plan plan_function(const clang::FunctionDecl& f, clang::ASTContext& context);

// The name the report shows for `f` when its attribute gives no label: the qualified
// name, with lambdas named after where they stand.
std::string default_label(const clang::FunctionDecl& f, const clang::ASTContext& context);

}  // namespace perf::tool

#endif  // PERF_TOOL_PLANNER_HPP
