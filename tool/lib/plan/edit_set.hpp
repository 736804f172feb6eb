// What every translation unit planned for the selected functions, gathered in one
// place and resolved into one edit per body, whatever the number of units and -j.
#ifndef PERF_TOOL_EDIT_SET_HPP
#define PERF_TOOL_EDIT_SET_HPP

#include <map>
#include <mutex>
#include <set>
#include <string>

#include "lib/plan/file_edits.hpp"
#include "lib/plan/planned_function.hpp"
#include "lib/plan/selected_function.hpp"

namespace perf::tool {

// What the whole run decided: the edits per file and every selected function.
struct resolved_edits {
  std::map<std::string, file_edits> files;  // by real path
  std::set<selected_function> functions;
};

// Thread-safe: translation units parsed in parallel add to one set.
class edit_set {
 public:
  void add(planned_function function);
  // The file gets the prefix even when nothing in it is measured: it spells the
  // attribute (the prefix's header keeps the compilers quiet about it), or it is a
  // unit's main file whose headers are measured inside a declaration (see
  // nested_inclusion.hpp).
  void needs_prefix(const std::string& real_path);
  // A file some unit read, in the project: the -o mirror copies it. `included`: the
  // unit included it (it is not the unit's main file).
  void read(const std::string& real_path, bool included);
  // Any file some unit read, in the project or not: what the plans depend on.
  void depends_on(const std::string& real_path);

  // One decision per body, the same whatever order the units came in: measured when
  // every unit that saw it planned the same statement, or statements that differ only
  // in the label (then the label most units want, the others named in `renamed_by`);
  // otherwise skipped (a constexpr function in a header that C++17 and C++20 units
  // include, say), and a statement an earlier run left there is taken out again.
  resolved_edits resolve() const;
  std::set<std::string> files_read() const;
  std::set<std::string> files_included() const;
  std::set<std::string> inputs() const;

 private:
  mutable std::mutex mutex_;
  std::set<planned_function> plans_;  // a header's functions once per unit including it
  std::set<std::string> prefixed_;
  std::set<std::string> files_read_;
  std::set<std::string> files_included_;
  std::set<std::string> inputs_;
};

}  // namespace perf::tool

#endif  // PERF_TOOL_EDIT_SET_HPP
