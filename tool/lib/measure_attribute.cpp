#include "measure_attribute.hpp"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/Decl.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/Expr.h>
#include <clang/Sema/ParsedAttr.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Sema/Sema.h>

#include <string_view>

namespace perf::tool {
namespace {

using namespace clang;

// [[perf::measure("label")]] becomes the annotation "perf::measure=label".
constexpr char labelled_separator = '=';

// [[perf::measure]] and [[perf::measure("label")]], turned into the annotation that
// [[clang::annotate("perf::measure", "label")]] gives, so both read back the same way.
class measure_attribute_info : public ParsedAttrInfo {
 public:
  measure_attribute_info() {
    OptArgs = 1;
    static constexpr Spelling spellings[] = {{ParsedAttr::AS_CXX11, "perf::measure"}};
    Spellings = spellings;
  }

  bool diagAppertainsToDecl(Sema& sema, const ParsedAttr& attribute, const Decl* decl) const override {
    if (isa<FunctionDecl>(decl)) return true;
    const unsigned id = sema.getDiagnostics().getCustomDiagID(
        DiagnosticsEngine::Error, "'perf::measure' applies to functions only");
    sema.Diag(attribute.getLoc(), id);
    return false;
  }

  AttrHandling handleDeclAttribute(Sema& sema, Decl* decl, const ParsedAttr& attribute) const override {
    const std::optional<std::string> label = written_label(sema, attribute);
    if (!label) {
      const unsigned id = sema.getDiagnostics().getCustomDiagID(
          DiagnosticsEngine::Error, "'perf::measure' takes at most one argument, a string literal (the label)");
      sema.Diag(attribute.getLoc(), id);
      return AttributeNotApplied;
    }
    const std::string annotation = label->empty() ? std::string(measure_annotation)
                                                  : std::string(measure_annotation) + labelled_separator + *label;
    decl->addAttr(AnnotateAttr::Create(sema.Context, annotation, nullptr, 0, attribute));
    return AttributeApplied;
  }

 private:
  // The label in `perf::measure("label")`: "" without parentheses, nullopt when what
  // stands in them is not one string literal. Read from the source, since Clang
  // before 17 does not parse the arguments of a plugin's C++11 attribute.
  static std::optional<std::string> written_label(Sema& sema, const ParsedAttr& attribute) {
    const SourceManager& sources = sema.getSourceManager();
    std::string_view text = sources.getCharacterData(sources.getSpellingLoc(attribute.getLoc()));
    // The attribute's location is its scope, `perf`, or its name, `measure`, depending on the Clang version.
    const size_t name = text.find("measure");
    if (name == std::string_view::npos) return std::string();
    text.remove_prefix(name + std::string_view("measure").size());
    const size_t open = text.find_first_not_of(" \t\r\n");
    if (open == std::string_view::npos || text[open] != '(') return std::string();
    text.remove_prefix(open + 1);
    text.remove_prefix(std::min(text.size(), text.find_first_not_of(" \t\r\n")));
    if (text.empty() || text.front() != '"') return std::nullopt;
    std::string label;
    size_t i = 1;
    for (; i < text.size() && text[i] != '"'; ++i) {
      if (text[i] == '\\' && i + 1 < text.size()) ++i;
      if (text[i] == '\n') return std::nullopt;
      label += text[i];
    }
    if (i == text.size()) return std::nullopt;
    text.remove_prefix(i + 1);
    const size_t close = text.find_first_not_of(" \t\r\n");
    if (close == std::string_view::npos || text[close] != ')') return std::nullopt;
    return label;
  }
};

}  // namespace

void register_measure_attribute() {
  static ParsedAttrInfoRegistry::Add<measure_attribute_info> registration("perf-measure", "[[perf::measure]]");
}

bool is_measure_annotation(const AnnotateAttr& annotation) {
  const std::string_view text(annotation.getAnnotation().data(), annotation.getAnnotation().size());
  return text == measure_annotation ||
         text.substr(0, std::string_view(measure_annotation).size() + 1) ==
             std::string(measure_annotation) + labelled_separator;
}

std::optional<std::string> measure_label(const FunctionDecl& f) {
  // An explicit specialisation also inherits its template's annotation: a label
  // written anywhere wins over an annotation without one.
  std::optional<std::string> label;
  for (const FunctionDecl* declaration : f.redecls()) {
    for (const auto* annotation : declaration->specific_attrs<AnnotateAttr>()) {
      if (!is_measure_annotation(*annotation)) continue;
      std::string written;
      const llvm::StringRef text = annotation->getAnnotation();
      if (text != measure_annotation)
        written = text.drop_front(std::string_view(measure_annotation).size() + 1).str();
      else if (annotation->args_size() != 0)
        if (const auto* literal = dyn_cast<StringLiteral>((*annotation->args_begin())->IgnoreParenCasts()))
          written = literal->getString().str();
      if (!label || label->empty()) label = written;
    }
  }
  return label;
}

}  // namespace perf::tool
