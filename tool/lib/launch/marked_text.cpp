#include "lib/launch/marked_text.hpp"

#include <filesystem>
#include <set>
#include <vector>

#include "lib/files.hpp"
#include "lib/source_chars.hpp"

namespace perf::tool {
namespace {

namespace fs = std::filesystem;

std::size_t skip_spaces(std::string_view text, std::size_t at) {
  while (at < text.size() && is_space(text[at])) ++at;
  return at;
}

// An #include line's target: the name and whether it was written in quotes.
struct inclusion {
  std::string name;
  bool quoted = false;
  bool resolvable = true;  // false: `#include MACRO`
};

// Every #include, #include_next and #import of `text`, as written.
std::vector<inclusion> inclusions_of(std::string_view text) {
  std::vector<inclusion> found;
  for (std::size_t line = 0; line < text.size();) {
    const std::size_t end = std::min(text.find('\n', line), text.size());
    std::size_t at = skip_spaces(text.substr(0, end), line);
    if (at < end && text[at] == '#') {
      at = skip_spaces(text.substr(0, end), at + 1);
      const std::string_view directive = text.substr(at, end - at);
      for (const std::string_view keyword : {"include_next", "include", "import"}) {
        if (directive.substr(0, keyword.size()) != keyword) continue;
        at = skip_spaces(text.substr(0, end), at + keyword.size());
        const char open = at < end ? text[at] : '\0';
        const char close = open == '"' ? '"' : open == '<' ? '>' : '\0';
        const std::size_t closing = close != '\0' ? text.find(close, at + 1) : std::string_view::npos;
        if (closing != std::string_view::npos && closing < end)
          found.push_back({std::string(text.substr(at + 1, closing - at - 1)), open == '"', true});
        else found.push_back({{}, false, false});
        break;
      }
    }
    line = end + 1;
  }
  return found;
}

class project_reader {
 public:
  project_reader(const compiler_command& command, const project& editable) : editable_(editable) {
    for (const command_argument& argument : command.arguments()) {
      if (argument.option == "-iquote") quoted_.push_back(argument.real_path);
      if (argument.option == "-I") searched_.push_back(argument.real_path);
      if (argument.option == "-isystem" || argument.option == "-idirafter") system_.push_back(argument.real_path);
    }
  }

  // Whether `real_path`, if a project file, or a project file it includes spells the attribute.
  bool spells_measure_from(const std::string& real_path) {
    if (!editable_.edits(real_path) || !visited_.insert(real_path).second) return false;
    const std::optional<std::string> text = read_file(real_path);
    if (!text) return false;  // the compiler will say
    if (spells_measure(*text)) return true;
    for (const inclusion& included : inclusions_of(*text)) {
      if (!included.resolvable) return true;
      const std::optional<std::string> found = resolve(included, fs::path(real_path).parent_path().string());
      if (found && spells_measure_from(*found)) return true;
    }
    return false;
  }

 private:
  std::optional<std::string> resolve(const inclusion& included, const std::string& includer_dir) const {
    if (fs::path(included.name).is_absolute()) return found_in("", included.name);
    if (included.quoted) {
      if (auto found = found_in(includer_dir, included.name)) return found;
      for (const std::string& dir : quoted_)
        if (auto found = found_in(dir, included.name)) return found;
    }
    for (const std::vector<std::string>* dirs : {&searched_, &system_})
      for (const std::string& dir : *dirs)
        if (auto found = found_in(dir, included.name)) return found;
    return std::nullopt;
  }

  static std::optional<std::string> found_in(const std::string& dir, const std::string& name) {
    const fs::path candidate = dir.empty() ? fs::path(name) : fs::path(dir) / name;
    std::error_code ignored;
    if (!fs::is_regular_file(candidate, ignored)) return std::nullopt;
    return real_path(candidate.string());
  }

  const project& editable_;
  std::vector<std::string> quoted_, searched_, system_;
  std::set<std::string> visited_;
};

}  // namespace

bool spells_measure(std::string_view text) {
  if (text.find("PERF_INSTRUMENT") != std::string_view::npos) return true;
  for (std::size_t at = text.find("perf"); at != std::string_view::npos; at = text.find("perf", at + 1)) {
    std::size_t next = skip_spaces(text, at + 4);
    if (next >= text.size() || text[next] != ':') continue;
    while (next < text.size() && text[next] == ':') ++next;
    next = skip_spaces(text, next);
    const std::size_t end = next + 7;
    if (text.substr(next, 7) == "measure" && (end == text.size() || !is_identifier_char(text[end]))) return true;
  }
  return false;
}

bool may_mark_functions(const compiler_command& command, const project& editable) {
  project_reader reader(command, editable);
  for (const command_argument& argument : command.arguments()) {
    for (const std::string& word : argument.words)
      if (spells_measure(word)) return true;
    if ((argument.option == "-include" || argument.option == "-imacros") &&
        reader.spells_measure_from(argument.real_path))
      return true;
  }
  return reader.spells_measure_from(command.unit_path());
}

}  // namespace perf::tool
