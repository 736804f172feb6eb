#include "lib/collect/function_size.hpp"

#include <clang/AST/Decl.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/AST/StmtCXX.h>
#include <clang/Basic/SourceManager.h>

namespace perf::tool {
namespace {

using namespace clang;

constexpr const char* below_threshold = "below the size threshold";

class size_counter : public RecursiveASTVisitor<size_counter> {
 public:
  size_counter(const FunctionDecl& f, SourceRange ignored, const SourceManager& sources)
      : function_(f.getCanonicalDecl()), ignored_(ignored), sources_(sources) {}

  bool TraverseStmt(Stmt* statement) {  // hides the queued form: every statement comes through here
    if (statement != nullptr && ignored_.isValid()) {
      const SourceLocation at = sources_.getFileLoc(statement->getBeginLoc());
      if (!sources_.isBeforeInTranslationUnit(at, ignored_.getBegin()) &&
          sources_.isBeforeInTranslationUnit(at, ignored_.getEnd()))
        return true;
    }
    return RecursiveASTVisitor::TraverseStmt(statement);
  }

  bool VisitStmt(Stmt* statement) {
    if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt, GotoStmt, IndirectGotoStmt>(statement)) size_.unbounded = true;
    if (const auto* call = dyn_cast<CallExpr>(statement); call != nullptr && call->getDirectCallee() != nullptr &&
                                                          call->getDirectCallee()->getCanonicalDecl() == function_)
      size_.unbounded = true;
    if (!is_free(*statement)) ++size_.nodes;
    return true;
  }

  function_size size() const { return size_; }

 private:
  // What costs nothing at run time of its own: what the compiler adds implicitly,
  // literals and enumerators (immediate operands), a switch's labels (the switch counts).
  static bool is_free(const Stmt& statement) {
    if (const auto* self = dyn_cast<CXXThisExpr>(&statement)) return self->isImplicit();
    if (const auto* reference = dyn_cast<DeclRefExpr>(&statement)) return isa<EnumConstantDecl>(reference->getDecl());
    return isa<CompoundStmt, NullStmt, ImplicitCastExpr, ParenExpr, ExprWithCleanups, MaterializeTemporaryExpr,
               CXXBindTemporaryExpr, CXXDefaultArgExpr, CXXDefaultInitExpr, IntegerLiteral, FloatingLiteral,
               CharacterLiteral, StringLiteral, CXXBoolLiteralExpr, CXXNullPtrLiteralExpr, CaseStmt, DefaultStmt>(
        statement);
  }

  const FunctionDecl* function_;
  SourceRange ignored_;
  const SourceManager& sources_;
  function_size size_;
};

}  // namespace

function_size size_of(const FunctionDecl& f, SourceRange ignored) {
  size_counter counter(f, ignored, f.getASTContext().getSourceManager());
  if (const auto* constructor = dyn_cast<CXXConstructorDecl>(&f))
    for (const CXXCtorInitializer* initializer : constructor->inits())
      if (initializer->isWritten()) counter.TraverseStmt(initializer->getInit());
  counter.TraverseStmt(f.getBody());
  return counter.size();
}

std::string below_threshold_reason(unsigned nodes, unsigned threshold) {
  return std::string(below_threshold) + ": size " + std::to_string(nodes) + ", threshold " + std::to_string(threshold);
}

bool is_below_threshold(const std::string& skip_reason) { return skip_reason.starts_with(below_threshold); }

}  // namespace perf::tool
