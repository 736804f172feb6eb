// The insertions of a run, gathered from every translation unit, and the list of
// functions the run selected.
#ifndef PERF_TOOL_EDIT_SET_HPP
#define PERF_TOOL_EDIT_SET_HPP

#include <map>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <tuple>

namespace perf::tool {

// A selected function: instrumented, or skipped with a reason.
struct selected_function {
  std::string file;  // real path
  unsigned line = 0;
  unsigned column = 0;
  std::string name;
  std::string skip_reason;  // empty when instrumented

  auto key() const { return std::tie(file, line, column, name, skip_reason); }
  bool operator<(const selected_function& other) const { return key() < other.key(); }
};

// Thread-safe: translation units parsed in parallel add to one set. A header seen by
// many units yields the same insertion many times; it is kept once, keyed by
// (real path, offset), so the result does not depend on how many units saw it.
class edit_set {
 public:
  void insert(const std::string& real_path, unsigned offset, std::string text);
  // The file gets the instrumentation prefix even without insertions: it spells the
  // attribute, which the prefix's header keeps the compilers quiet about.
  void prefix(const std::string& real_path);
  void select(selected_function function);
  // A file some unit read, in the project: the -o mirror copies it.
  void read(const std::string& real_path);

  // Insertions per file, by offset.
  std::map<std::string, std::map<unsigned, std::string>> insertions() const;
  std::set<selected_function> selected() const;
  std::set<std::string> files_read() const;

 private:
  mutable std::mutex mutex_;
  std::map<std::string, std::map<unsigned, std::string>> insertions_;
  std::set<selected_function> selected_;
  std::set<std::string> files_read_;
};

// `original` with `insertions` (offset -> text) applied and `prefix` put in front.
std::string apply_insertions(std::string_view original, const std::map<unsigned, std::string>& insertions,
                             std::string_view prefix);

}  // namespace perf::tool

#endif  // PERF_TOOL_EDIT_SET_HPP
