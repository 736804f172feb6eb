// Whether and where a selected function gets its measuring scope: every skip rule,
// each in one place (see the table in docs/rewriter.md).
#ifndef PERF_TOOL_PLANNER_HPP
#define PERF_TOOL_PLANNER_HPP

#include <clang/Basic/SourceLocation.h>

#include <optional>
#include <string>

#include "lib/collect/nested_inclusion.hpp"
#include "lib/plan/instrumentation_text.hpp"
#include "lib/project.hpp"

namespace clang {
class ASTContext;
class FunctionDecl;
}  // namespace clang

namespace perf::tool {

struct plan {
  std::string skip_reason;          // non-empty: not instrumented, and why
  clang::SourceLocation insert_at;  // right after the body's '{' (a file location); invalid when there is none
  std::string body_file;            // the real path of the file `insert_at` is in
  scope_kind kind = scope_kind::plain;
  std::string also_prefixed;  // a file that needs the prefix for the scope to compile (see prefixed_for)
};

// The planner of one translation unit.
class planner {
 public:
  planner(const clang::ASTContext& context, const project& editable)
      : context_(context), editable_(editable), nesting_(context) {}

  // The plan for a function definition (or a defaulted or deleted declaration) that
  // the selection chose. A skipped function keeps `insert_at` where it has a body, so
  // that units which disagree about it can be told apart (see edit_set::resolve).
  // A body smaller than `size_threshold` (function_size.hpp; 0: no threshold) is
  // skipped unless it is unbounded.
  plan plan_function(const clang::FunctionDecl& f, unsigned size_threshold = 0);

  // For code at `location` to see the runtime header, the file that must carry the
  // prefix besides its own: none (""), or the unit's main file when `location`'s
  // file is included inside a declaration (the header's include guard then makes its
  // own #include empty). nullopt when that cannot be: the main file is not the project's.
  std::optional<std::string> prefixed_for(clang::SourceLocation location);

 private:
  const clang::ASTContext& context_;
  const project& editable_;
  nested_inclusion nesting_;
};

}  // namespace perf::tool

#endif  // PERF_TOOL_PLANNER_HPP
