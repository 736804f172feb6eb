#include "lib/collect/selection.hpp"

#include "lib/diagnostics.hpp"

namespace perf::tool {

llvm::Error selection::add(std::vector<llvm::Regex>& to, const std::string& expression) {
  const std::string anchored = "^(" + expression + ")$";
  llvm::Regex regex(anchored);
  std::string problem;
  if (!regex.isValid(problem)) return error("invalid regular expression '" + expression + "': " + problem);
  to.push_back(std::move(regex));
  return llvm::Error::success();
}

llvm::Error selection::add_filter(const std::string& expression) {
  if (expression.find_first_of(".[]()*+?{}|^$\\") == std::string::npos) exact_names_.push_back(expression);
  return add(filters_, expression);
}

llvm::Error selection::add_exclude(const std::string& expression) { return add(excludes_, expression); }

llvm::Error selection::add_no_ticks(const std::string& expression) { return add(no_ticks_, expression); }

llvm::Error selection::add_time_all(const std::string& expression) { return add(time_all_, expression); }

bool selection::any_matches(const std::vector<llvm::Regex>& expressions, const std::string& default_label,
                            const std::string& qualified_name) {
  for (const llvm::Regex& regex : expressions)
    if (regex.match(default_label) || regex.match(qualified_name)) return true;
  return false;
}

std::optional<std::string> selection::choose(const std::string& default_label, const std::string& qualified_name,
                                             const std::optional<std::string>& attribute_label) const {
  if (any_matches(excludes_, default_label, qualified_name)) return std::nullopt;
  if (attribute_label) return attribute_label;
  if (any_matches(filters_, default_label, qualified_name)) return std::string();
  return std::nullopt;
}

bool selection::named_exactly(const std::string& default_label, const std::string& qualified_name) const {
  for (const std::string& name : exact_names_)
    if (name == default_label || name == qualified_name) return true;
  return false;
}

bool selection::logs_ticks(const std::string& default_label, const std::string& qualified_name) const {
  return !any_matches(no_ticks_, default_label, qualified_name);
}

bool selection::times_every_call(const std::string& default_label, const std::string& qualified_name) const {
  return any_matches(time_all_, default_label, qualified_name);
}

}  // namespace perf::tool
