#include "function_report.hpp"

#include <llvm/Support/raw_ostream.h>

#include "instrumentation_text.hpp"

namespace perf::tool {

void warn_skipped(const selected_function& f) {
  llvm::errs() << f.file << ":" << f.line << ":" << f.column << ": warning: " << string_literal_body(f.name)
               << " is not measured: " << f.skip_reason << "\n";
}

void list_function(const selected_function& f) {
  llvm::outs() << f.file << ":" << f.line << ": " << string_literal_body(f.name)
               << (f.skip_reason.empty() ? "" : " (skipped: " + f.skip_reason + ")") << "\n";
}

}  // namespace perf::tool
