#include "lib/collect/function_label.hpp"

#include <clang/AST/ASTContext.h>
#include <clang/AST/ASTLambda.h>
#include <clang/AST/Decl.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/Basic/SourceManager.h>
#include <llvm/ADT/Twine.h>
#include <llvm/Support/raw_ostream.h>

namespace perf::tool {
namespace {

using namespace clang;

// `<T, N>` for a template's parameter list: as written, `auto` for the invented
// parameters of abbreviated templates, `...` after packs.
std::string parameters(const TemplateParameterList& list, const PrintingPolicy& policy) {
  std::string out = "<";
  for (const NamedDecl* parameter : list) {
    if (out.size() > 1) out += ", ";
    std::string name = parameter->isImplicit() ? "auto" : parameter->getNameAsString();
    if (name.empty()) {
      if (const auto* value = dyn_cast<NonTypeTemplateParmDecl>(parameter)) name = value->getType().getAsString(policy);
      else name = isa<TemplateTemplateParmDecl>(parameter) ? "template" : "class";
    }
    out += name;
    if (parameter->isTemplateParameterPack()) out += "...";
  }
  return out + ">";
}

std::string qualified(const std::string& scope, const std::string& name) {
  return scope.empty() ? name : (Twine(scope) + "::" + name).str();
}

std::string context_name(const DeclContext* context, const PrintingPolicy& policy);

std::string lambda_name(const CXXRecordDecl& closure, const PrintingPolicy& policy) {
  const ASTContext& ast = closure.getASTContext();
  const PresumedLoc where = ast.getSourceManager().getPresumedLoc(closure.getLocation());
  return qualified(context_name(closure.getDeclContext(), policy),
                   (Twine("(lambda at line ") + Twine(where.isValid() ? where.getLine() : 0) + ")").str());
}

std::string record_name(const RecordDecl& record, const PrintingPolicy& policy) {
  if (const auto* closure = dyn_cast<CXXRecordDecl>(&record); closure && closure->isLambda())
    return lambda_name(*closure, policy);
  std::string name = record.getNameAsString();
  if (name.empty()) name = (Twine("(anonymous ") + record.getKindName() + ")").str();
  std::string arguments;
  llvm::raw_string_ostream stream(arguments);
  if (const auto* partial = dyn_cast<ClassTemplatePartialSpecializationDecl>(&record))
    printTemplateArgumentList(stream, partial->getTemplateArgsAsWritten()->arguments(), policy);
  else if (const auto* specialization = dyn_cast<ClassTemplateSpecializationDecl>(&record))
    printTemplateArgumentList(stream, specialization->getTemplateArgs().asArray(), policy);
  else if (const auto* pattern = dyn_cast<CXXRecordDecl>(&record); pattern && pattern->getDescribedClassTemplate())
    stream << parameters(*pattern->getDescribedClassTemplate()->getTemplateParameters(), policy);
  return qualified(context_name(record.getDeclContext(), policy), name + stream.str());
}

// The scope a declaration in `context` is named in: namespaces, classes, and for
// local classes and lambdas the function they stand in.
std::string context_name(const DeclContext* context, const PrintingPolicy& policy) {
  if (const auto* ns = dyn_cast<NamespaceDecl>(context))
    return qualified(context_name(ns->getDeclContext(), policy),
                     ns->isAnonymousNamespace() ? "(anonymous namespace)" : ns->getNameAsString());
  if (const auto* record = dyn_cast<RecordDecl>(context)) return record_name(*record, policy);
  if (const auto* function = dyn_cast<FunctionDecl>(context)) return default_label(*function);
  if (context->getParent() != nullptr) return context_name(context->getParent(), policy);  // extern "C" { }, ...
  return {};
}

// The function's own name: operators and conversions as spelled, then its template
// parameters (a pattern; not for a conversion template, whose type shows them) or
// arguments (an explicit specialisation).
std::string own_name(const FunctionDecl& f, const PrintingPolicy& policy) {
  std::string name;
  if (isa<CXXConversionDecl>(f)) name = (Twine("operator ") + f.getReturnType().getAsString(policy)).str();
  else if (const auto* destructor = dyn_cast<CXXDestructorDecl>(&f))
    name = (Twine("~") + destructor->getParent()->getNameAsString()).str();
  else if (isa<CXXConstructorDecl>(f)) name = cast<CXXConstructorDecl>(f).getParent()->getNameAsString();
  else name = f.getNameAsString();
  if (const FunctionTemplateDecl* pattern = f.getDescribedFunctionTemplate()) {
    if (!isa<CXXConversionDecl>(f)) name += parameters(*pattern->getTemplateParameters(), policy);
  } else if (const TemplateArgumentList* arguments = f.getTemplateSpecializationArgs()) {
    llvm::raw_string_ostream stream(name);
    printTemplateArgumentList(stream, arguments->asArray(), policy);
  }
  return name;
}

}  // namespace

std::string default_label(const FunctionDecl& f) {
  PrintingPolicy policy = f.getASTContext().getPrintingPolicy();
  policy.SuppressTagKeyword = true;
  if (isLambdaCallOperator(&f)) return lambda_name(*cast<CXXMethodDecl>(f).getParent(), policy);
  return qualified(context_name(f.getDeclContext(), policy), own_name(f, policy));
}

}  // namespace perf::tool
