#include "lib/collect/nested_inclusion.hpp"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/Basic/SourceManager.h>

namespace perf::tool {

bool nested_inclusion::inside_declaration(clang::FileID file) {
  const auto known = known_.find(file);
  if (known != known_.end()) return known->second;
  const clang::SourceManager& sources = context_.getSourceManager();
  const clang::SourceLocation include = sources.getIncludeLoc(file);
  bool inside = false;
  if (include.isValid() && !sources.isWrittenInMainFile(include))
    inside = inside_declaration(sources.getFileID(include));
  if (include.isValid() && !inside) {
    // A top-level declaration around the #include holds it, however deep inside.
    for (const clang::Decl* declaration : context_.getTranslationUnitDecl()->decls()) {
      const clang::SourceRange range = sources.getExpansionRange(declaration->getSourceRange()).getAsRange();
      if (range.isInvalid() || declaration->isImplicit()) continue;
      if (sources.isBeforeInTranslationUnit(include, range.getBegin())) break;  // in order: none further holds it
      if (sources.isBeforeInTranslationUnit(include, range.getEnd())) {
        inside = true;
        break;
      }
    }
  }
  known_[file] = inside;
  return inside;
}

}  // namespace perf::tool
