// How the rewriter fails and what it says. Every step that can fail returns an
// llvm::Error or llvm::Expected carrying a message (made by error()); only the
// driver and the launcher, which own the process's output, print one, through
// print_error() and print_warning(), so every message reads the same. Everything
// else the tool writes on stderr goes through this header too: its statements
// (print_message()), warnings about a place in the sources (print_source_warning())
// and the compiler's own diagnostics, passed through (print_compiler_diagnostics()).
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

// `perf-instrument: MESSAGE` and a newline on `out`: what a run did (a summary, a
// --verbose line), neither an error nor a warning.
void print_message(const llvm::Twine& message, llvm::raw_ostream& out = llvm::errs());

// `FILE:LINE:COLUMN: warning: MESSAGE` and a newline on `out`, the form compilers give
// a place in the sources (editors and build logs link it).
void print_source_warning(llvm::StringRef file, unsigned line, unsigned column, const llvm::Twine& message,
                          llvm::raw_ostream& out = llvm::errs());

// The compiler's (or the parser's) diagnostics, `text`, on `out` as they are.
void print_compiler_diagnostics(llvm::StringRef text, llvm::raw_ostream& out = llvm::errs());

}  // namespace perf::tool

#endif  // PERF_TOOL_DIAGNOSTICS_HPP
