#include "lib/collect/measure_attribute.hpp"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/Decl.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/Expr.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>
#include <clang/Lex/LiteralSupport.h>
#include <clang/Lex/Preprocessor.h>
#include <clang/Sema/ParsedAttr.h>
#include <clang/Sema/Sema.h>

#include <string_view>
#include <vector>

namespace perf::tool {
namespace {

using namespace clang;

// [[perf::measure("label")]] becomes the annotation "perf::measure=label".
constexpr char labelled_separator = '=';

// [[perf::measure]] and [[perf::measure("label")]], turned into an annotation that
// reaches every redeclaration and that measure_label() reads back.
class measure_attribute_info : public ParsedAttrInfo {
 public:
  measure_attribute_info() {
    OptArgs = 1;
    static constexpr Spelling spellings[] = {{ParsedAttr::AS_CXX11, "perf::measure"}};
    Spellings = spellings;
  }

  bool diagAppertainsToDecl(Sema& sema, const ParsedAttr& attribute, const Decl* decl) const override {
    if (isa<FunctionDecl>(decl)) return true;
    const unsigned id = sema.getDiagnostics().getCustomDiagID(DiagnosticsEngine::Error, not_a_function_error);
    sema.Diag(attribute.getLoc(), id);
    return false;
  }

  AttrHandling handleDeclAttribute(Sema& sema, Decl* decl, const ParsedAttr& attribute) const override {
    const std::optional<std::string> label = written_label(sema, attribute);
    if (!label) {
      const unsigned id = sema.getDiagnostics().getCustomDiagID(DiagnosticsEngine::Error, bad_label_error);
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
  // stands in them is not one string literal (or adjacent ones). Lexed from the
  // source, since Clang before 17 does not parse the arguments of a plugin's C++11
  // attribute; a label passed in as a macro argument is therefore not understood.
  static std::optional<std::string> written_label(Sema& sema, const ParsedAttr& attribute) {
    const SourceManager& sources = sema.getSourceManager();
    const auto [file, offset] = sources.getDecomposedLoc(sources.getSpellingLoc(attribute.getLoc()));
    bool invalid = false;
    const llvm::StringRef buffer = sources.getBufferData(file, &invalid);
    if (invalid) return std::nullopt;
    Lexer lexer(sources.getLocForStartOfFile(file), sema.getLangOpts(), buffer.begin(), buffer.begin() + offset,
                buffer.end());
    Token token;
    // The attribute's location is its scope, `perf`, or its name, `measure`, depending on the Clang version.
    for (int i = 0; i < 3; ++i) {
      lexer.LexFromRawLexer(token);
      if (token.is(tok::raw_identifier) && token.getRawIdentifier() == "measure") break;
    }
    lexer.LexFromRawLexer(token);
    if (!token.is(tok::l_paren)) return std::string();
    std::vector<Token> literal;
    for (lexer.LexFromRawLexer(token); token.isOneOf(tok::string_literal, tok::utf8_string_literal);
         lexer.LexFromRawLexer(token))
      literal.push_back(token);
    if (literal.empty() || !token.is(tok::r_paren)) return std::nullopt;
    const StringLiteralParser parsed(literal, sema.getPreprocessor());
    if (parsed.hadError) return std::nullopt;
    return parsed.GetString().str();
  }
};

}  // namespace

void register_measure_attribute() {
  static ParsedAttrInfoRegistry::Add<measure_attribute_info> registration("perf-measure", "[[perf::measure]]");
}

bool is_measure_annotation(const AnnotateAttr& annotation) {
  const std::string_view text(annotation.getAnnotation().data(), annotation.getAnnotation().size());
  return text == measure_annotation || text.substr(0, std::string_view(measure_annotation).size() + 1) ==
                                           std::string(measure_annotation) + labelled_separator;
}

bool has_well_formed_label(const AnnotateAttr& annotation) {
  return annotation.args_size() == 0 ||
         (annotation.args_size() == 1 && isa<StringLiteral>((*annotation.args_begin())->IgnoreParenCasts()));
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
      if (text != measure_annotation) written = text.drop_front(std::string_view(measure_annotation).size() + 1).str();
      else if (annotation->args_size() == 1)
        if (const auto* literal = dyn_cast<StringLiteral>((*annotation->args_begin())->IgnoreParenCasts()))
          written = literal->getString().str();
      if (!label || label->empty()) label = written;
    }
  }
  return label;
}

}  // namespace perf::tool
