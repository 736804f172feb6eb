// A test fixture: the collector run over one file of a temporary project, and what
// it planned, resolved as a run would.
#ifndef PERF_TEST_TOOL_COLLECTING_HPP
#define PERF_TEST_TOOL_COLLECTING_HPP

#include <gtest/gtest.h>

#include <clang/Tooling/CompilationDatabase.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "lib/collect/collector.hpp"

namespace perf::tool {

struct collected {
  bool parsed = false;
  std::string code;
  file_edits edits;                   // in the input file
  std::vector<std::string> selected;  // "line name" or "line name: reason", in line order

  // The code with the edits, without the prefix, for readable expectations.
  std::string rewritten() const {
    return apply_edits(code, "", file_edits{false, edits.replacements}, destination::same_file);
  }
};

class Collecting : public ::testing::Test {
 protected:
  std::filesystem::path project_dir =
      std::filesystem::temp_directory_path() / ("perf-collector-" + std::to_string(::getpid()));
  std::filesystem::path outside_dir =
      std::filesystem::temp_directory_path() / ("perf-outside-" + std::to_string(::getpid()));

  void SetUp() override {
    std::filesystem::create_directories(project_dir);
    std::filesystem::create_directories(outside_dir);
  }
  void TearDown() override {
    std::filesystem::remove_all(project_dir);
    std::filesystem::remove_all(outside_dir);
  }

  static void write(const std::filesystem::path& path, const std::string& text) { std::ofstream(path) << text; }

  collected collect(const std::string& code, const std::string& standard = "-std=c++17",
                    const selection& chosen = selection(), const std::string& file_name = "input.cpp") {
    const std::filesystem::path input = project_dir / file_name;
    write(input, code);
    clang::tooling::FixedCompilationDatabase database(
        project_dir.string(), {standard, "-resource-dir=" PERF_CLANG_RESOURCE_DIR, "-I" + outside_dir.string(), "-w"});
    clang::tooling::ClangTool tool(database, {input.string()});
    edit_set edits;
    const project where{std::filesystem::canonical(project_dir).string(), {}, {}};
    collected result;
    result.parsed = tool.run(make_collector(chosen, where, edits).get()) == 0;
    result.code = code;
    const resolved_edits resolved = edits.resolve();
    if (const auto found = resolved.files.find(std::filesystem::canonical(input).string());
        found != resolved.files.end())
      result.edits = found->second;
    for (const selected_function& f : resolved.functions)
      result.selected.push_back(std::to_string(f.line) + " " + f.name +
                                (f.skip_reason.empty() ? "" : ": " + f.skip_reason));
    return result;
  }

  // What collect() selected in `code`, "line name" or "line name: reason" each.
  std::vector<std::string> selected_in(const std::string& code, const std::string& standard = "-std=c++17") {
    return collect(code, standard).selected;
  }
};

using names = std::vector<std::string>;

}  // namespace perf::tool

#endif  // PERF_TEST_TOOL_COLLECTING_HPP
