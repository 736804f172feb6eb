#include "collector.hpp"

#include <clang/AST/ASTConsumer.h>
#include <clang/AST/Attr.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendAction.h>

#include "function_label.hpp"
#include "instrumentation_text.hpp"
#include "measure_attribute.hpp"
#include "nested_inclusion.hpp"
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
      : context_(context),
        sources_(context.getSourceManager()),
        chosen_(chosen),
        where_(where),
        edits_(edits),
        nesting_(context) {}

  bool VisitDecl(Decl* declaration) {
    if (declaration->hasAttrs()) check_annotations(*declaration);
    return true;
  }
  bool VisitFunctionDecl(FunctionDecl* f) {
    consider(*f);
    return true;
  }
  bool VisitLambdaExpr(LambdaExpr* lambda) {
    // The call operator is not visited as a declaration.
    check_annotations(*lambda->getCallOperator());
    consider(*lambda->getCallOperator());
    return true;
  }

 private:
  // The real path of the file `location` is written in ("" for none), and whether
  // that is a system header.
  std::pair<std::string, bool> file_of(SourceLocation location) const {
    if (location.isInvalid()) return {};
    const SourceLocation written = sources_.getFileLoc(location);
    const FileEntry* file = sources_.getFileEntryForID(sources_.getFileID(written));
    if (file == nullptr) return {};
    std::string path = file->tryGetRealPathName().str();
    const bool system = sources_.isInSystemHeader(written) || where_.in_system_directory(path);
    return {std::move(path), system};
  }

  // Makes sure the runtime header comes before the prefix of the file `location` is
  // in: a file included inside a declaration has the unit's main file prefixed too
  // (the header's include guard then makes its own #include empty). False when that
  // cannot be: the main file is not the project's.
  bool runtime_header_reachable(SourceLocation location) {
    if (!nesting_.inside_declaration(sources_.getFileID(sources_.getFileLoc(location)))) return true;
    const std::string main_file = file_of(sources_.getLocForStartOfFile(sources_.getMainFileID())).first;
    if (!where_.contains(main_file)) return false;
    edits_.needs_prefix(main_file);
    return true;
  }

  // The attribute's spellings end up as annotations; the annotate spelling is
  // Clang's own, so its misuse is diagnosed here.
  void check_annotations(const Decl& declaration) {
    for (const auto* annotation : declaration.specific_attrs<AnnotateAttr>()) {
      if (!is_measure_annotation(*annotation)) continue;
      if (const auto [path, system] = file_of(annotation->getLocation());
          !system && where_.contains(path) && runtime_header_reachable(annotation->getLocation()))
        edits_.needs_prefix(path);
      const char* problem = !isa<FunctionDecl>(declaration)       ? not_a_function_error
                            : !has_well_formed_label(*annotation) ? bad_label_error
                                                                  : nullptr;
      if (problem != nullptr) {
        DiagnosticsEngine& diagnostics = context_.getDiagnostics();
        diagnostics.Report(annotation->getLocation(), diagnostics.getCustomDiagID(DiagnosticsEngine::Error, "%0"))
            << problem;
      }
    }
  }

  void consider(const FunctionDecl& f) {
    // Instantiations are seen in their pattern; defaulted and deleted functions have
    // no body but are still reported when selected.
    if (f.isImplicit() || f.isTemplateInstantiation() ||
        !(f.doesThisDeclarationHaveABody() || f.isExplicitlyDefaulted() || f.isDeletedAsWritten()))
      return;
    const std::optional<std::string> attribute_label = measure_label(f);
    if (!attribute_label && !chosen_.has_filters()) return;
    // A filter match without a body (`= default`, `= delete`, often spelled by a
    // macro such as gtest's TEST) is nothing to measure and nobody asked for it.
    if (!attribute_label && (f.isDefaulted() || f.isDeleted())) return;
    const auto [file, system] = file_of(f.getLocation());
    if (file.empty() || system) return;
    const std::string name = default_label(f);
    const std::string qualified_name = f.getQualifiedNameAsString();
    const std::optional<std::string> label = chosen_.choose(name, qualified_name, attribute_label);
    if (!label) return;

    planned_function planned;
    planned.file = file;
    const PresumedLoc where = sources_.getPresumedLoc(sources_.getFileLoc(f.getLocation()));
    planned.line = where.getLine();
    planned.column = where.getColumn();
    planned.name = label->empty() ? name : *label;
    planned.unit = file_of(sources_.getLocForStartOfFile(sources_.getMainFileID())).first;
    if (!where_.contains(file)) {
      // Marked code elsewhere (a --filter match there is not worth a word).
      if (!attribute_label) return;
      planned.skip_reason = "outside the project " + where_.root;
      edits_.add(std::move(planned));
      return;
    }
    plan p = plan_function(f, context_);
    const auto [body_file, body_in_system_header] = file_of(p.insert_at);
    if (p.insert_at.isValid() && (body_in_system_header || !where_.contains(body_file))) {
      p.skip_reason = "its body is outside the project " + where_.root;
      p.insert_at = {};
    }
    if (p.skip_reason.empty() && p.insert_at.isValid() && !runtime_header_reachable(p.insert_at))
      p.skip_reason = "its file is included inside a declaration by a unit outside the project";
    planned.skip_reason = p.skip_reason;
    if (p.insert_at.isValid()) {
      planned.body_file = body_file;
      planned.body_offset = sources_.getFileOffset(p.insert_at);
      const char* after_brace = sources_.getCharacterData(p.insert_at);
      planned.existing.assign(after_brace, scope_statement_length(after_brace));
      if (p.skip_reason.empty())
        planned.statement = scope_statement(planned.name, p.kind,
                                            chosen_.logs_ticks(name, qualified_name) ? tick_events::logged
                                                                                     : tick_events::off);
    }
    edits_.add(std::move(planned));
  }

  ASTContext& context_;
  const SourceManager& sources_;
  const selection& chosen_;
  const project& where_;
  edit_set& edits_;
  nested_inclusion nesting_;
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
      if (run_.where.contains(path)) run_.edits.read(path);
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

std::unique_ptr<tooling::FrontendActionFactory> make_collector(const selection& chosen, const project& where,
                                                               edit_set& edits) {
  register_measure_attribute();
  return std::make_unique<collector_factory>(chosen, where, edits);
}

}  // namespace perf::tool
