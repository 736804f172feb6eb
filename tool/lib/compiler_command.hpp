// A compiler command read once: which words are options with their values, which
// are input files, and the real paths they name. The launcher and the mirror ask it
// instead of picking the words apart themselves.
#ifndef PERF_TOOL_COMPILER_COMMAND_HPP
#define PERF_TOOL_COMPILER_COMMAND_HPP

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace clang::tooling {
struct CompileCommand;
}  // namespace clang::tooling

namespace perf::tool {

// One argument of a command: an option with its value, or a single word.
struct command_argument {
  std::vector<std::string> words;  // as written: "-Idir", or "-I" "dir", or "-c", or "a.cpp"
  std::string option;              // for an option with a value (-I, -include, -o, -MF...): its name
  std::string value;               // that option's value; for anything else, the word
  std::string real_path;           // for a path-valued option or an input file: the real path it names
  bool is_input() const { return option.empty() && !value.empty() && value[0] != '-'; }
};

class compiler_command {
 public:
  // `words`: the compiler, then its arguments; relative paths are relative to
  // `directory`. `file`: the unit the command compiles; "" for the one C++ source
  // among its arguments, if there is exactly one.
  compiler_command(std::string directory, const std::vector<std::string>& words, const std::string& file = "");
  explicit compiler_command(const clang::tooling::CompileCommand& command);

  const std::string& directory() const { return directory_; }
  const std::vector<command_argument>& arguments() const { return arguments_; }  // the compiler first
  std::vector<std::string> words() const;

  // The arguments that name C++ source files (by extension), as written.
  std::vector<std::string> sources() const;
  // The unit it compiles: its name as written and its real path; empty without one.
  const std::string& unit() const { return unit_; }
  const std::string& unit_path() const { return unit_path_; }
  // Whether one of its arguments is the word `flag` (-c, say).
  bool has(std::string_view flag) const;
  // The value of `option` (joined or separate), nullopt without it.
  std::optional<std::string> value_of(std::string_view option) const;
  // The dependency file the compiler writes: -MF's, else -MD's default beside -o's
  // output; nullopt for none.
  std::optional<std::string> depfile() const;
  // `path` as the compiler writes it where `map_option` ("-fmacro-prefix-map=" for
  // __FILE__, "-fdebug-prefix-map=" for debug information) applies: rewritten by the
  // last of those and -ffile-prefix-map= whose old prefix starts it (GCC's rule,
  // and Clang's for a single map).
  std::string prefix_mapped(const std::string& path, std::string_view map_option) const;

 private:
  std::string directory_;
  std::vector<command_argument> arguments_;
  std::string unit_, unit_path_;
};

}  // namespace perf::tool

#endif  // PERF_TOOL_COMPILER_COMMAND_HPP
