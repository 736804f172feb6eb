#include "lib/collect/planner.hpp"

#include <clang/AST/ASTContext.h>
#include <clang/AST/ASTLambda.h>
#include <clang/AST/Decl.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/StmtCXX.h>
#include <clang/AST/TypeLoc.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>
#include <llvm/ADT/STLExtras.h>
#include <llvm/ADT/StringRef.h>

#include "lib/collect/function_size.hpp"
#include "lib/collect/source_file.hpp"
#include "lib/plan/instrumentation_text.hpp"

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

// Where the text of the brace at `brace` is written, if it can be edited: in the
// file, or in a macro argument written in the file (then each expansion of the
// argument is the function, and the edit is made once, in the argument). Invalid
// when the brace comes from a macro's definition, where an edit would reach every
// expansion of the macro, or — through another macro — none.
SourceLocation written_brace(SourceLocation brace, const SourceManager& sources) {
  while (brace.isMacroID()) {
    if (!sources.isMacroArgExpansion(brace)) return {};
    brace = sources.getImmediateSpellingLoc(brace);
  }
  return brace;
}

// Whether a lambda's call operator says `constexpr` itself (between its parameter
// list and its body), rather than being constexpr implicitly (C++17).
bool spells_constexpr(const FunctionDecl& call_operator, SourceLocation body_brace, const SourceManager& sources,
                      const LangOptions& language) {
  const TypeSourceInfo* type = call_operator.getTypeSourceInfo();
  const FunctionTypeLoc function = type ? type->getTypeLoc().getAsAdjusted<FunctionTypeLoc>() : FunctionTypeLoc();
  if (!function || function.getRParenLoc().isInvalid()) return false;  // `[] { }`: no room for the keyword
  const SourceLocation from = sources.getSpellingLoc(function.getRParenLoc());
  if (sources.getFileID(from) != sources.getFileID(body_brace)) return true;  // cannot tell: assume it does
  const llvm::StringRef buffer = sources.getBufferData(sources.getFileID(from));
  Lexer lexer(sources.getLocForStartOfFile(sources.getFileID(from)), language, buffer.begin(),
              sources.getCharacterData(from), buffer.end());
  Token token;
  for (lexer.LexFromRawLexer(token); !token.is(tok::eof) && token.getLocation() < body_brace;
       lexer.LexFromRawLexer(token))
    if (token.is(tok::raw_identifier) && token.getRawIdentifier() == "constexpr") return true;
  return false;
}

// Whether `f` replaces a function the runtime itself allocates or frees through (it
// attaches a thread, adds a site): a global operator new or delete, any form, or a
// function of the C library's malloc family (the ones libperfalloc interposes). A
// probe there would enter itself. A class's own operator new is not one.
bool replaces_allocation_function(const FunctionDecl& f) {
  switch (f.getOverloadedOperator()) {
    case OO_New:
    case OO_Array_New:
    case OO_Delete:
    case OO_Array_Delete: return !isa<CXXMethodDecl>(f);
    default: break;
  }
  static constexpr llvm::StringLiteral c_library[] = {"malloc",         "calloc",        "realloc",  "reallocarray",
                                                      "free",           "aligned_alloc", "memalign", "valloc",
                                                      "posix_memalign", "pvalloc"};
  return f.isExternC() && f.getIdentifier() != nullptr && llvm::is_contained(c_library, f.getName());
}

plan skip(std::string reason, SourceLocation insert_at = {}) {
  return plan{std::move(reason), insert_at, {}, scope_kind::plain, {}};
}

// The rules of the construct itself, wherever it is written.
plan construct_plan(const FunctionDecl& f, const ASTContext& context) {
  const SourceManager& sources = context.getSourceManager();
  const LangOptions& language = context.getLangOpts();
  if (f.isDefaulted()) return skip("defaulted: it has no body to measure");
  if (f.isDeleted()) return skip("deleted: it has no body to measure");
  if (isa_and_nonnull<CoroutineBodyStmt>(f.getBody()))
    return skip("coroutine: a scope cannot follow it across suspensions");
  const CompoundStmt* block = measured_block(f);
  if (block == nullptr) return skip("no body to measure");
  const SourceLocation brace = written_brace(block->getLBracLoc(), sources);
  if (brace.isInvalid())
    return skip("body spelled inside a macro definition: an edit there would reach every expansion of the macro");
  const SourceLocation insert_at = Lexer::getLocForEndOfToken(brace, 0, sources, language);

  if (!language.CPlusPlus) return skip("C: the measuring scope needs C++", insert_at);
  if (f.isConsteval()) return skip("consteval: it runs only during compilation", insert_at);
  if (replaces_allocation_function(f))
    return skip("replacement allocation function: the runtime allocates through it", insert_at);
  plan result{{}, insert_at, {}, scope_kind::plain, {}};
  if (!f.isConstexpr()) return result;
  if (language.CPlusPlus20) {
    result.kind = scope_kind::constexpr_function;
    return result;
  }
  // A lambda that is constexpr only implicitly (C++17) keeps a plain scope and loses
  // only that: one used in a constant expression must be excluded.
  if (isLambdaCallOperator(&f) && !spells_constexpr(f, brace, sources, language)) return result;
  return skip("constexpr before C++20: the scope would stop it being a constant expression", insert_at);
}

}  // namespace

plan planner::plan_function(const FunctionDecl& f, unsigned size_threshold) {
  const SourceManager& sources = context_.getSourceManager();
  if (!editable_.contains(file_of(f.getLocation(), sources).real_path))
    return skip("outside the project " + editable_.root);
  plan result = construct_plan(f, context_);
  const source_file body = file_of(result.insert_at, sources);
  if (result.insert_at.isValid() && !editable_.edits(body.real_path, body.system)) {
    result.skip_reason = "its body is outside the project " + editable_.root;
    result.insert_at = {};
  }
  if (result.insert_at.isInvalid()) return result;
  result.body_file = body.real_path;
  if (!result.skip_reason.empty()) return result;
  if (size_threshold > 0) {
    // A statement an earlier run inserted is not the function's own.
    const unsigned inserted = scope_statement_length(sources.getCharacterData(result.insert_at));
    const function_size size = size_of(f, SourceRange(result.insert_at, result.insert_at.getLocWithOffset(inserted)));
    if (!size.unbounded && size.nodes < size_threshold) {
      result.skip_reason = below_threshold_reason(size.nodes, size_threshold);
      return result;
    }
  }
  if (std::optional<std::string> prefixed = prefixed_for(result.insert_at)) result.also_prefixed = *prefixed;
  else result.skip_reason = "its file is included inside a declaration by a unit outside the project";
  return result;
}

std::optional<std::string> planner::prefixed_for(SourceLocation location) {
  const SourceManager& sources = context_.getSourceManager();
  if (!nesting_.inside_declaration(sources.getFileID(sources.getFileLoc(location)))) return std::string();
  const std::string main_file = file_of(sources.getLocForStartOfFile(sources.getMainFileID()), sources).real_path;
  if (!editable_.contains(main_file)) return std::nullopt;
  return main_file;
}

}  // namespace perf::tool
