#include "planner.hpp"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/StmtCXX.h>
#include <clang/Basic/SourceManager.h>

namespace perf::tool {
namespace {

using namespace clang;

// The block the scope goes in: the body, or the try block of a function-try-block
// (the handlers of a function-try-block are not measured).
const CompoundStmt* measured_block(const FunctionDecl& f) {
  const Stmt* body = f.getBody();
  if (const auto* try_block = dyn_cast_or_null<CXXTryStmt>(body)) return try_block->getTryBlock();
  return dyn_cast_or_null<CompoundStmt>(body);
}

bool is_lambda(const FunctionDecl& f) {
  const auto* method = dyn_cast<CXXMethodDecl>(&f);
  return method != nullptr && method->getParent()->isLambda();
}

plan skip(std::string reason) { return plan{std::move(reason), false, {}, scope_kind::plain}; }

}  // namespace

plan plan_function(const FunctionDecl& f, ASTContext& context) {
  const SourceManager& sources = context.getSourceManager();
  if (f.isConsteval()) return skip("consteval: it runs only during compilation");
  if (f.isDefaulted()) return skip("defaulted: it has no body to measure");
  if (f.isDeleted()) return skip("deleted: it has no body to measure");
  if (isa_and_nonnull<CoroutineBodyStmt>(f.getBody())) return skip("coroutine: a scope cannot follow it across suspensions");
  const CompoundStmt* block = measured_block(f);
  if (block == nullptr) return skip("no body");

  SourceLocation brace = block->getLBracLoc();
  if (brace.isMacroID()) {
    // A body passed as a macro argument is spelled in the file; one in a macro's
    // definition would be instrumented in every expansion, or in none.
    if (!sources.isMacroArgExpansion(brace)) return skip("body spelled inside a macro definition");
    brace = sources.getSpellingLoc(brace);
  }

  plan result;
  result.after = brace;
  if (f.isConstexpr()) {
    // Lambdas are constexpr by default from C++17; before C++20 they keep a plain
    // scope and lose only that (a lambda used in a constant expression must then be
    // excluded).
    if (!context.getLangOpts().CPlusPlus20 && is_lambda(f)) return result;
    if (!context.getLangOpts().CPlusPlus20)
      return skip("constexpr before C++20: the scope would stop it being a constant expression");
    result.kind = scope_kind::constexpr_function;
  }
  const char* text = sources.getCharacterData(brace);
  result.already_instrumented = starts_with_scope_statement(text + 1);
  return result;
}

std::string default_label(const FunctionDecl& f, const ASTContext& context) {
  if (is_lambda(f)) {
    const CXXRecordDecl* closure = cast<CXXMethodDecl>(f).getParent();
    const PresumedLoc where = context.getSourceManager().getPresumedLoc(closure->getLocation());
    std::string enclosing;
    if (const auto* outer = dyn_cast<FunctionDecl>(closure->getDeclContext()))
      enclosing = default_label(*outer, context) + "::";
    return enclosing + "(lambda at line " + std::to_string(where.getLine()) + ")";
  }
  return f.getQualifiedNameAsString();
}

}  // namespace perf::tool
