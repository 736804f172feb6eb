// What every translation unit planned for the selected functions, gathered in one
// place and resolved into one edit per body, whatever the number of units and -j.
#ifndef PERF_TOOL_EDIT_SET_HPP
#define PERF_TOOL_EDIT_SET_HPP

#include <map>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

namespace perf::tool {

// A selected function as one translation unit planned it.
struct planned_function {
  std::string file;  // real path of the file its name is spelled in
  unsigned line = 0, column = 0;
  std::string name;         // the report's name
  std::string skip_reason;  // non-empty: this unit would not measure it, and why
  // Where its scope statement goes: right after the body's '{'. Empty `body_file`
  // when there is no such place (a defaulted function, say).
  std::string body_file;
  unsigned body_offset = 0;
  std::string existing;   // the scope statement an earlier run left there, if any
  std::string statement;  // the scope statement this unit wants there

  auto key() const {
    return std::tie(body_file, body_offset, file, line, column, name, skip_reason, existing, statement);
  }
  bool operator<(const planned_function& other) const { return key() < other.key(); }
};

// A selected function as the whole run decided it: measured, or skipped and why.
struct selected_function {
  std::string file;
  unsigned line = 0, column = 0;
  std::string name;
  std::string skip_reason;  // empty when measured

  auto key() const { return std::tie(file, line, column, name, skip_reason); }
  bool operator<(const selected_function& other) const { return key() < other.key(); }
  bool operator==(const selected_function& other) const { return key() == other.key(); }
};

// `length` bytes at some offset of a file replaced by `text` (length 0: an insertion).
struct replacement {
  unsigned length = 0;
  std::string text;
  bool operator==(const replacement& other) const { return length == other.length && text == other.text; }
};

struct file_edits {
  bool prefix = false;                           // the file needs file_prefix(), unless it has it
  std::map<unsigned, replacement> replacements;  // by offset in the file as it is
};

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
  // A file some unit read, in the project: the -o mirror copies it.
  void read(const std::string& real_path);

  // One decision per body, the same whatever order the units came in: measured when
  // every unit that saw it planned the same statement; otherwise skipped (a constexpr
  // function in a header that C++17 and C++20 units include, say), and a statement an
  // earlier run left there is taken out again.
  resolved_edits resolve() const;
  std::set<std::string> files_read() const;

 private:
  mutable std::mutex mutex_;
  std::set<planned_function> plans_;  // a header's functions come once from all the units including it
  std::set<std::string> prefixed_;
  std::set<std::string> files_read_;
};

// `original` (the file at `path`) with `edits` applied.
std::string apply_edits(std::string_view original, std::string_view path, const file_edits& edits);

}  // namespace perf::tool

#endif  // PERF_TOOL_EDIT_SET_HPP
