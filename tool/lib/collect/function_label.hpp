// The name the report shows for a measured function whose attribute gives no label.
//
//   ns::f                        functions, with their namespaces and classes
//   (anonymous namespace)::f     functions in anonymous namespaces
//   box<T>::get, larger<T, N>    templates: the pattern, whose row merges every instantiation
//   larger<const char *>         explicit specialisations, with their arguments
//   box<T *>::get                members of partial specialisations
//   cls::operator+, cls::operator bool, cls::~cls
//   f::(lambda at line 12)       lambdas, named after where they stand
#ifndef PERF_TOOL_FUNCTION_LABEL_HPP
#define PERF_TOOL_FUNCTION_LABEL_HPP

#include <string>

namespace clang {
class FunctionDecl;
}  // namespace clang

namespace perf::tool {

std::string default_label(const clang::FunctionDecl& f);

}  // namespace perf::tool

#endif  // PERF_TOOL_FUNCTION_LABEL_HPP
