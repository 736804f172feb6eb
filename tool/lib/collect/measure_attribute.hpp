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

// The errors for misuse, with any spelling.
inline constexpr char not_a_function_error[] = "'perf::measure' applies to functions only";
inline constexpr char bad_label_error[] = "'perf::measure' takes at most one argument, a string literal (the label)";

// Makes Clang accept [[perf::measure]] and [[perf::measure("label")]] on functions
// (and diagnose it elsewhere) in the calling process. Idempotent.
void register_measure_attribute();

// Whether `annotation` is one that any spelling of the attribute became.
bool is_measure_annotation(const clang::AnnotateAttr& annotation);

// Whether an annotation of the attribute carries at most one label, a string
// literal (the annotate spelling's arguments are checked by nothing else).
bool has_well_formed_label(const clang::AnnotateAttr& annotation);

// Whether any declaration of `f` carries the attribute, and its label ("" when it
// has none); nullopt when none does.
std::optional<std::string> measure_label(const clang::FunctionDecl& f);

}  // namespace perf::tool

#endif  // PERF_TOOL_MEASURE_ATTRIBUTE_HPP
