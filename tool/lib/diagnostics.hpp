// How the rewriter fails and what it says. Every step that can fail returns an
// llvm::Error or llvm::Expected carrying a message (made by error()); only the
// driver and the launcher, which own the process's output, print one, through
// print_error() and print_warning(), so every message reads the same.
#ifndef PERF_TOOL_DIAGNOSTICS_HPP
#define PERF_TOOL_DIAGNOSTICS_HPP

#include <llvm/ADT/Twine.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/raw_ostream.h>

namespace perf::tool {

// A failure whose message is `message` (no prefix: the printer adds it).
llvm::Error error(const llvm::Twine& message);

// `perf-instrument: error: MESSAGE` (or `warning:`) and a newline on `out`.
void print_error(const llvm::Twine& message, llvm::raw_ostream& out = llvm::errs());
void print_warning(const llvm::Twine& message, llvm::raw_ostream& out = llvm::errs());

}  // namespace perf::tool

#endif  // PERF_TOOL_DIAGNOSTICS_HPP
