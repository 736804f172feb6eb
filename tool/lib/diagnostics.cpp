#include "lib/diagnostics.hpp"

namespace perf::tool {

llvm::Error error(const llvm::Twine& message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

void print_error(const llvm::Twine& message, llvm::raw_ostream& out) {
  out << "perf-instrument: error: " << message << "\n";
}

void print_warning(const llvm::Twine& message, llvm::raw_ostream& out) {
  out << "perf-instrument: warning: " << message << "\n";
}

void print_message(const llvm::Twine& message, llvm::raw_ostream& out) {
  out << "perf-instrument: " << message << "\n";
}

void print_source_warning(llvm::StringRef file, unsigned line, unsigned column, const llvm::Twine& message,
                          llvm::raw_ostream& out) {
  out << file << ":" << line << ":" << column << ": warning: " << message << "\n";
}

void print_compiler_diagnostics(llvm::StringRef text, llvm::raw_ostream& out) { out << text; }

}  // namespace perf::tool
