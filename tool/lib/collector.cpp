#include "collector.hpp"

#include <clang/AST/ASTConsumer.h>
#include <clang/AST/Attr.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendAction.h>

#include "instrumentation_text.hpp"
#include "measure_attribute.hpp"
#include "planner.hpp"

namespace perf::tool {
namespace {

using namespace clang;

// The file entry behind the source manager's key: a pointer up to LLVM 17, a reference after.
[[maybe_unused]] const FileEntry& entry_of(const FileEntry* file) { return *file; }
[[maybe_unused]] const FileEntry& entry_of(FileEntryRef file) { return file.getFileEntry(); }

class function_visitor : public RecursiveASTVisitor<function_visitor> {
 public:
  function_visitor(ASTContext& context, const selection& chosen, const project& where, edit_set& edits)
      : context_(context), sources_(context.getSourceManager()), chosen_(chosen), where_(where), edits_(edits) {}

  bool VisitFunctionDecl(FunctionDecl* f) {
    consider(*f);
    return true;
  }
  bool VisitLambdaExpr(LambdaExpr* lambda) {
    consider(*lambda->getCallOperator());
    return true;
  }

 private:
  // The real path of the file `location` is spelled in, if it is the project's.
  std::optional<std::string> project_file(SourceLocation location) const {
    if (location.isInvalid() || sources_.isInSystemHeader(location)) return std::nullopt;
    const FileEntry* file = sources_.getFileEntryForID(sources_.getFileID(sources_.getFileLoc(location)));
    if (file == nullptr) return std::nullopt;
    std::string path = file->tryGetRealPathName().str();
    if (path.empty() || !where_.contains(path)) return std::nullopt;
    return path;
  }

  void consider(const FunctionDecl& f) {
    for (const auto* annotation : f.specific_attrs<AnnotateAttr>())
      if (is_measure_annotation(*annotation))
        if (const std::optional<std::string> file = project_file(annotation->getLocation())) edits_.prefix(*file);
    // Defaulted and deleted functions have no body but are still reported when selected.
    if (f.isImplicit() || !(f.doesThisDeclarationHaveABody() || f.isExplicitlyDefaulted() || f.isDeletedAsWritten()))
      return;
    const std::optional<std::string> file = project_file(f.getLocation());
    if (!file) return;
    const std::optional<std::string> label = chosen_.choose(f.getQualifiedNameAsString(), measure_label(f));
    if (!label) return;

    const std::string name = label->empty() ? default_label(f, context_) : *label;
    const PresumedLoc where = sources_.getPresumedLoc(sources_.getFileLoc(f.getLocation()));
    const plan p = plan_function(f, context_);
    edits_.select({*file, where.getLine(), where.getColumn(), name, p.skip_reason});
    if (!p.skip_reason.empty() || p.already_instrumented) return;
    const std::optional<std::string> body_file = project_file(p.after);
    if (!body_file) return;
    edits_.insert(*body_file, sources_.getFileOffset(p.after) + 1, scope_statement(name, p.kind));
  }

  ASTContext& context_;
  const SourceManager& sources_;
  const selection& chosen_;
  const project& where_;
  edit_set& edits_;
};

// What every unit of a run shares: the selection, the project and the edit set.
struct collection {
  const selection& chosen;
  const project& where;
  edit_set& edits;
};

class collector_consumer : public ASTConsumer {
 public:
  explicit collector_consumer(const collection& run) : run_(run) {}

  void HandleTranslationUnit(ASTContext& context) override {
    if (context.getDiagnostics().hasErrorOccurred()) return;
    function_visitor(context, run_.chosen, run_.where, run_.edits).TraverseDecl(context.getTranslationUnitDecl());
    const SourceManager& sources = context.getSourceManager();
    for (auto file = sources.fileinfo_begin(); file != sources.fileinfo_end(); ++file) {
      const std::string path = entry_of(file->getFirst()).tryGetRealPathName().str();
      if (!path.empty() && run_.where.contains(path)) run_.edits.read(path);
    }
  }

 private:
  const collection& run_;
};

class collector_action : public ASTFrontendAction {
 public:
  explicit collector_action(const collection& run) : run_(run) {}

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance&, StringRef) override {
    return std::make_unique<collector_consumer>(run_);
  }

 private:
  const collection& run_;
};

class collector_factory : public tooling::FrontendActionFactory {
 public:
  collector_factory(const selection& chosen, const project& where, edit_set& edits) : run_{chosen, where, edits} {}

  std::unique_ptr<FrontendAction> create() override { return std::make_unique<collector_action>(run_); }

 private:
  const collection run_;
};

}  // namespace

bool project::contains(const std::string& real_path) const {
  return real_path.size() > root.size() && real_path.compare(0, root.size(), root) == 0 &&
         real_path[root.size()] == '/';
}

std::unique_ptr<tooling::FrontendActionFactory> make_collector(const selection& chosen, const project& where,
                                                               edit_set& edits) {
  register_measure_attribute();
  return std::make_unique<collector_factory>(chosen, where, edits);
}

}  // namespace perf::tool
