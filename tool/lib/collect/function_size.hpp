// How much a function's body does, as its text tells: what --size-threshold weighs.
// LLVM XRay leaves out functions under an instruction count by default; the rewriter
// sees no instructions, so it counts what the body spells.
#ifndef PERF_TOOL_FUNCTION_SIZE_HPP
#define PERF_TOOL_FUNCTION_SIZE_HPP

#include <clang/Basic/SourceLocation.h>

#include <string>

namespace clang {
class FunctionDecl;
}  // namespace clang

namespace perf::tool {

struct function_size {
  // The statements and expressions written in the body and in a constructor's member
  // initialisers, a proxy for the instructions they compile to. What costs nothing of
  // its own does not count: what the compiler adds implicitly (conversions, `this`,
  // temporaries' bookkeeping), parentheses, braces, literals, enumerators, case labels.
  unsigned nodes = 0;
  // A loop, a `goto` or a call of the function itself: its time is not bounded by its
  // text, so it is never left out, whatever its size.
  bool unbounded = false;
};

// The size of `f`'s body (f has one), leaving out the statements that begin in
// `ignored` (a scope statement an earlier run inserted, so that a second run weighs
// the body as the first did).
function_size size_of(const clang::FunctionDecl& f, clang::SourceRange ignored);

// The skip reason of a function --filter selected whose body is smaller than
// `threshold` nodes, and whether a reason is that one (such functions are counted,
// not warned about one by one).
std::string below_threshold_reason(unsigned nodes, unsigned threshold);
bool is_below_threshold(const std::string& skip_reason);

}  // namespace perf::tool

#endif  // PERF_TOOL_FUNCTION_SIZE_HPP
