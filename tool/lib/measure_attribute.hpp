// The [[perf::measure]] attribute: its registration with Clang and how the rewriter
// reads it back.
#ifndef PERF_TOOL_MEASURE_ATTRIBUTE_HPP
#define PERF_TOOL_MEASURE_ATTRIBUTE_HPP

#include <optional>
#include <string>

namespace clang {
class AnnotateAttr;
class FunctionDecl;
}  // namespace clang

namespace perf::tool {

// The annotation every spelling becomes: [[perf::measure]], [[perf::measure("label")]]
// and [[clang::annotate("perf::measure")]] (with an optional label argument).
inline constexpr const char* measure_annotation = "perf::measure";

// Makes Clang accept [[perf::measure]] and [[perf::measure("label")]] on functions
// (and diagnose it elsewhere) in the calling process. Idempotent.
void register_measure_attribute();

// Whether `annotation` is one that any spelling of the attribute became.
bool is_measure_annotation(const clang::AnnotateAttr& annotation);

// Whether any declaration of `f` carries the attribute, and its label ("" when it
// has none); nullopt when none does.
std::optional<std::string> measure_label(const clang::FunctionDecl& f);

}  // namespace perf::tool

#endif  // PERF_TOOL_MEASURE_ATTRIBUTE_HPP
