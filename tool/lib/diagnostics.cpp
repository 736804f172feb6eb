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

}  // namespace perf::tool
