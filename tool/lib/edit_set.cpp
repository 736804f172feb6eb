#include "edit_set.hpp"

#include <algorithm>

namespace perf::tool {
namespace {

// Whether two plans are about the same body (or, without one, the same function).
bool same_place(const planned_function& a, const planned_function& b) {
  if (a.body_file.empty() || b.body_file.empty())
    return a.body_file.empty() && b.body_file.empty() && std::tie(a.file, a.line, a.column) == std::tie(b.file, b.line, b.column);
  return std::tie(a.body_file, a.body_offset) == std::tie(b.body_file, b.body_offset);
}

// Why the plans [first, last) for one body, from every unit that saw it, do not
// agree on one statement; empty when they do.
template <class Iterator>
std::string disagreement(Iterator first, Iterator last) {
  std::set<std::string> statements, reasons;
  for (Iterator plan = first; plan != last; ++plan)
    (plan->skip_reason.empty() ? statements : reasons).insert(plan->skip_reason.empty() ? plan->statement : plan->skip_reason);
  if (statements.size() > 1)
    return "its translation units want different scope statements (are they compiled with different options?)";
  if (reasons.empty()) return {};
  return (statements.empty() ? "" : "in some of its translation units: ") + *reasons.begin();
}

}  // namespace

void edit_set::add(planned_function function) {
  std::lock_guard lock(mutex_);
  plans_.insert(std::move(function));
}

void edit_set::needs_prefix(const std::string& real_path) {
  std::lock_guard lock(mutex_);
  prefixed_.insert(real_path);
}

void edit_set::read(const std::string& real_path) {
  std::lock_guard lock(mutex_);
  files_read_.insert(real_path);
}

resolved_edits edit_set::resolve() const {
  std::lock_guard lock(mutex_);
  resolved_edits result;
  for (const std::string& path : prefixed_) result.files[path].prefix = true;
  for (auto first = plans_.begin(); first != plans_.end();) {
    const auto last = std::find_if(first, plans_.end(), [&](const planned_function& p) { return !same_place(*first, p); });
    const planned_function& f = *first;
    const std::string reason = disagreement(first, last);
    result.functions.insert({f.file, f.line, f.column, f.name, reason});
    if (!f.body_file.empty()) {
      const std::string wanted = reason.empty() ? f.statement : "";
      file_edits& edits = result.files[f.body_file];
      if (!wanted.empty()) edits.prefix = true;
      if (wanted != f.existing) edits.replacements[f.body_offset] = {static_cast<unsigned>(f.existing.size()), wanted};
    }
    first = last;
  }
  return result;
}

std::set<std::string> edit_set::files_read() const {
  std::lock_guard lock(mutex_);
  return files_read_;
}

}  // namespace perf::tool
