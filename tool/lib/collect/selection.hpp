// Which functions the rewriter measures (the attribute, --filter and --exclude),
// which of them keep out of the tick log (--no-ticks), and which have every call
// timed (--time-all).
#ifndef PERF_TOOL_SELECTION_HPP
#define PERF_TOOL_SELECTION_HPP

#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/Regex.h>

#include <optional>
#include <string>
#include <vector>

namespace perf::tool {

class selection {
 public:
  // Regular expressions (POSIX extended) that must match a whole name: the one the
  // report shows by default (box<T>::get, see function_label.hpp), or the plain
  // qualified name (box::get). An error names a bad expression.
  llvm::Error add_filter(const std::string& expression);
  llvm::Error add_exclude(const std::string& expression);
  llvm::Error add_no_ticks(const std::string& expression);
  llvm::Error add_time_all(const std::string& expression);

  bool has_filters() const { return !filters_.empty(); }

  // Functions that only a --filter selected are left out when their body is smaller
  // than this (function_size.hpp); marked ones never are, nor those a --filter names
  // exactly (see named_exactly). 0: none left out.
  void set_size_threshold(unsigned nodes) { size_threshold_ = nodes; }
  unsigned size_threshold() const { return size_threshold_; }

  // Whether a function is selected: nullopt if not, else its label ("" for the
  // default name). `attribute_label` is what its [[perf::measure]] says (nullopt:
  // no attribute).
  std::optional<std::string> choose(const std::string& default_label, const std::string& qualified_name,
                                    const std::optional<std::string>& attribute_label) const;

  // Whether a --filter without a regular expression's special characters (a name, as
  // `app::DB::Put`) is one of the function's names: the user asked for it by name.
  bool named_exactly(const std::string& default_label, const std::string& qualified_name) const;

  // Whether a selected function's calls are logged in the tick log: yes, unless a
  // --no-ticks expression matches one of its names.
  bool logs_ticks(const std::string& default_label, const std::string& qualified_name) const;

  // Whether a selected function has every call timed, whatever PERF_TIMING says: only
  // when a --time-all expression matches one of its names (else the runtime may time
  // a sample of a cheap function's calls).
  bool times_every_call(const std::string& default_label, const std::string& qualified_name) const;

 private:
  static llvm::Error add(std::vector<llvm::Regex>& to, const std::string& expression);
  static bool any_matches(const std::vector<llvm::Regex>& expressions, const std::string& default_label,
                          const std::string& qualified_name);

  std::vector<llvm::Regex> filters_;
  std::vector<std::string> exact_names_;  // the filters that are plain names
  std::vector<llvm::Regex> excludes_;
  std::vector<llvm::Regex> no_ticks_;
  std::vector<llvm::Regex> time_all_;
  unsigned size_threshold_ = 0;
};

}  // namespace perf::tool

#endif  // PERF_TOOL_SELECTION_HPP
