// Files included from inside a declaration (`namespace n { #include "x.inc" }`,
// `extern "C" { ... }`, a class body), where the prefix's #include of the runtime
// header would land inside the declaration too and break it.
#ifndef PERF_TOOL_NESTED_INCLUSION_HPP
#define PERF_TOOL_NESTED_INCLUSION_HPP

#include <clang/Basic/SourceLocation.h>
#include <llvm/ADT/DenseMap.h>

namespace clang {
class ASTContext;
}  // namespace clang

namespace perf::tool {

// For one translation unit; answers are remembered per file.
class nested_inclusion {
 public:
  explicit nested_inclusion(const clang::ASTContext& context) : context_(context) {}

  // Whether `file`, or a file that includes it, is included inside a declaration of
  // the unit rather than at file scope.
  bool inside_declaration(clang::FileID file);

 private:
  const clang::ASTContext& context_;
  llvm::DenseMap<clang::FileID, bool> known_;
};

}  // namespace perf::tool

#endif  // PERF_TOOL_NESTED_INCLUSION_HPP
