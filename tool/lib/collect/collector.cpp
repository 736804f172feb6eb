#include "lib/collect/collector.hpp"

#include <clang/AST/ASTConsumer.h>
#include <clang/AST/Attr.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendAction.h>

#include <unordered_map>

#include "lib/collect/function_label.hpp"
#include "lib/collect/measure_attribute.hpp"
#include "lib/collect/planner.hpp"
#include "lib/collect/source_file.hpp"
#include "lib/plan/instrumentation_text.hpp"

namespace perf::tool {
namespace {

using namespace clang;

class function_visitor : public RecursiveASTVisitor<function_visitor> {
 public:
  function_visitor(ASTContext& context, const selection& chosen, const project& editable, edit_set& edits)
      : context_(context),
        sources_(context.getSourceManager()),
        chosen_(chosen),
        editable_(editable),
        edits_(edits),
        planner_(context, editable) {}

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
  // Whether the runtime header can be made to come before code at `location`
  // (prefixing the file that needs it besides the code's own).
  bool runtime_header_reachable(SourceLocation location) {
    const std::optional<std::string> prefixed = planner_.prefixed_for(location);
    if (prefixed && !prefixed->empty()) edits_.needs_prefix(*prefixed);
    return prefixed.has_value();
  }

  // The attribute's spellings end up as annotations; the annotate spelling is
  // Clang's own, so its misuse is diagnosed here.
  void check_annotations(const Decl& declaration) {
    for (const auto* annotation : declaration.specific_attrs<AnnotateAttr>()) {
      if (!is_measure_annotation(*annotation)) continue;
      if (const source_file file = file_of(annotation->getLocation(), sources_);
          editable_.edits(file.real_path, file.system) && runtime_header_reachable(annotation->getLocation()))
        edits_.needs_prefix(file.real_path);
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
    const source_file file = file_of(f.getLocation(), sources_);
    if (file.real_path.empty() || file.system || editable_.in_system_directory(file.real_path)) return;
    // Marked code elsewhere is reported as skipped; a --filter match there is not worth a word.
    if (!attribute_label && !editable_.edits(file.real_path)) return;
    const std::string name = default_label(f);
    const std::string qualified_name = f.getQualifiedNameAsString();
    const std::optional<std::string> label = chosen_.choose(name, qualified_name, attribute_label);
    if (!label) return;

    planned_function planned;
    planned.file = file.real_path;
    const PresumedLoc position = sources_.getPresumedLoc(sources_.getFileLoc(f.getLocation()));
    planned.line = position.getLine();
    planned.column = position.getColumn();
    planned.name = label->empty() ? name : *label;
    planned.unit = file_of(sources_.getLocForStartOfFile(sources_.getMainFileID()), sources_).real_path;
    planned.marked = attribute_label.has_value();
    const bool asked_by_name = attribute_label.has_value() || chosen_.named_exactly(name, qualified_name);
    const plan p = planner_.plan_function(f, asked_by_name ? 0 : chosen_.size_threshold());
    if (!p.also_prefixed.empty()) edits_.needs_prefix(p.also_prefixed);
    planned.skip_reason = p.skip_reason;
    if (p.insert_at.isValid()) {
      planned.body_file = p.body_file;
      planned.body_offset = sources_.getFileOffset(p.insert_at);
      const char* after_brace = sources_.getCharacterData(p.insert_at);
      planned.existing.assign(after_brace, scope_statement_length(after_brace));
      if (p.skip_reason.empty())
        planned.statement = scope_statement(
            planned.name, p.kind, chosen_.logs_ticks(name, qualified_name) ? tick_events::logged : tick_events::off,
            chosen_.times_every_call(name, qualified_name) ? call_timing::every_call : call_timing::runtime_chooses);
    }
    edits_.add(std::move(planned));
  }

  ASTContext& context_;
  const SourceManager& sources_;
  const selection& chosen_;
  const project& editable_;
  edit_set& edits_;
  planner planner_;
};

// What every unit of a run shares: the selection, the project and the edit set.
struct collection {
  const selection& chosen;
  const project& editable;
  edit_set& edits;
};

class collector_consumer : public ASTConsumer {
 public:
  explicit collector_consumer(const collection& run) : run_(run) {}

  void Initialize(ASTContext& context) override { sources_ = &context.getSourceManager(); }

  // With SkipFunctionBodies on (see collector_action), Clang asks before it parses a
  // body: those it is told to skip are neither parsed nor instantiated. The rewriter
  // never edits a body outside the project, so those go, unless marked: a marked
  // function there still gets its warning.
  bool shouldSkipFunctionBody(Decl* declaration) override {
    const FunctionDecl* f = declaration->getAsFunction();
    if (f == nullptr || measure_label(*f)) return false;
    const SourceLocation location = sources_->getFileLoc(declaration->getLocation());
    const auto [known, added] = outside_project_.try_emplace(sources_->getFileID(location).getHashValue(), false);
    if (added) {
      const source_file file = file_of(location, *sources_);
      known->second = !file.real_path.empty() && !run_.editable.edits(file.real_path, file.system);
    }
    return known->second;
  }

  void HandleTranslationUnit(ASTContext& context) override {
    if (context.getDiagnostics().hasErrorOccurred()) return;
    function_visitor(context, run_.chosen, run_.editable, run_.edits).TraverseDecl(context.getTranslationUnitDecl());
    const SourceManager& sources = context.getSourceManager();
    const std::string main_file = file_of(sources.getLocForStartOfFile(sources.getMainFileID()), sources).real_path;
    for (auto file = sources.fileinfo_begin(); file != sources.fileinfo_end(); ++file) {
      const std::string path = real_path_of(file->getFirst());
      run_.edits.depends_on(path);
      if (run_.editable.contains(path)) run_.edits.read(path, path != main_file);
    }
  }

 private:
  const collection& run_;
  const SourceManager* sources_ = nullptr;
  std::unordered_map<unsigned, bool> outside_project_;  // by FileID
};

class collector_action : public ASTFrontendAction {
 public:
  explicit collector_action(const collection& run) : run_(run) {}

  // As when Clang builds a precompiled prefix: the implicit instantiations pending at
  // the end of the unit are not made. The collector visits patterns, never instantiations.
  TranslationUnitKind getTranslationUnitKind() override { return TU_Prefix; }

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance& compiler, StringRef) override {
    compiler.getFrontendOpts().SkipFunctionBodies = true;  // those collector_consumer chooses
    return std::make_unique<collector_consumer>(run_);
  }

 private:
  const collection& run_;
};

class collector_factory : public tooling::FrontendActionFactory {
 public:
  collector_factory(const selection& chosen, const project& editable, edit_set& edits)
      : run_{chosen, editable, edits} {}

  std::unique_ptr<FrontendAction> create() override { return std::make_unique<collector_action>(run_); }

 private:
  const collection run_;
};

}  // namespace

std::unique_ptr<tooling::FrontendActionFactory> make_collector(const selection& chosen, const project& editable,
                                                               edit_set& edits) {
  register_measure_attribute();
  return std::make_unique<collector_factory>(chosen, editable, edits);
}

}  // namespace perf::tool
