#include "lib/plan/edit_set.hpp"

#include <algorithm>
#include <map>
#include <string_view>

namespace perf::tool {
namespace {

// Whether two plans are about the same body (or, without one, the same function).
bool same_place(const planned_function& a, const planned_function& b) {
  if (a.body_file.empty() || b.body_file.empty())
    return a.body_file.empty() && b.body_file.empty() &&
           std::tie(a.file, a.line, a.column) == std::tie(b.file, b.line, b.column);
  return std::tie(a.body_file, a.body_offset) == std::tie(b.body_file, b.body_offset);
}

// The scope statement's macro: what must be the same in every unit for the text to compile in all.
std::string_view opening(std::string_view statement) {
  statement.remove_prefix(std::min(statement.size(), statement.find_first_not_of(' ')));
  return statement.substr(0, statement.find('"'));
}

// The plan to follow among [first, last): the measured one that most units want
// (the first of those on a tie), else the first.
template <class Iterator>
Iterator most_wanted(Iterator first, Iterator last) {
  std::map<std::string, int> votes;
  for (Iterator plan = first; plan != last; ++plan)
    if (plan->skip_reason.empty()) ++votes[plan->statement];
  Iterator best = first;
  for (Iterator plan = first; plan != last; ++plan)
    if (plan->skip_reason.empty() && (!best->skip_reason.empty() || votes[plan->statement] > votes[best->statement]))
      best = plan;
  return best;
}

// The units among [first, last) that measure the body under another name than `chosen`.
template <class Iterator>
std::string renamings(Iterator first, Iterator last, const planned_function& chosen) {
  std::string out;
  for (Iterator plan = first; plan != last; ++plan)
    if (plan->skip_reason.empty() && plan->statement != chosen.statement)
      out += (out.empty() ? "" : "; ") + plan->unit + " names it " + plan->name;
  return out;
}

// Why the plans [first, last) for one body, from every unit that saw it, do not
// agree on one statement; empty when they do. Statements that differ only in their
// label compile in every unit: `chosen`'s is written.
template <class Iterator>
std::string disagreement(Iterator first, Iterator last, const planned_function& chosen) {
  std::set<std::string> statements, reasons;
  for (Iterator plan = first; plan != last; ++plan)
    (plan->skip_reason.empty() ? statements : reasons)
        .insert(plan->skip_reason.empty() ? plan->statement : plan->skip_reason);
  for (Iterator plan = first; plan != last; ++plan)
    if (plan->skip_reason.empty() && opening(plan->statement) != opening(chosen.statement))
      return "its translation units want different scope statements: " + chosen.unit + " wants " +
             std::string(opening(chosen.statement)) + "\"...\"), " + plan->unit + " wants " +
             std::string(opening(plan->statement)) + "\"...\")";
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

void edit_set::read(const std::string& real_path, bool included) {
  std::lock_guard lock(mutex_);
  files_read_.insert(real_path);
  if (included) files_included_.insert(real_path);
}

void edit_set::depends_on(const std::string& real_path) {
  std::lock_guard lock(mutex_);
  inputs_.insert(real_path);
}

resolved_edits edit_set::resolve() const {
  std::lock_guard lock(mutex_);
  resolved_edits result;
  for (const std::string& path : prefixed_) result.files[path].prefix = true;
  for (auto first = plans_.begin(); first != plans_.end();) {
    const auto last =
        std::find_if(first, plans_.end(), [&](const planned_function& p) { return !same_place(*first, p); });
    const planned_function& f = *most_wanted(first, last);
    const std::string reason = disagreement(first, last, f);
    const bool marked = std::any_of(first, last, [](const planned_function& p) { return p.marked; });
    result.functions.insert(
        {f.file, f.line, f.column, f.name, reason, reason.empty() ? renamings(first, last, f) : "", marked});
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

std::set<std::string> edit_set::files_included() const {
  std::lock_guard lock(mutex_);
  return files_included_;
}

std::set<std::string> edit_set::inputs() const {
  std::lock_guard lock(mutex_);
  return inputs_;
}

}  // namespace perf::tool
