// A unit's mirror under --launch: a tree per plan, its files links to one copy per text.
#include "lib/apply/mirror.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "lib/files.hpp"
#include "lib/install_layout.hpp"
#include "scratch_directory.hpp"

namespace perf::tool {
namespace {

namespace fs = std::filesystem;

class UnitMirror : public ScratchDirectory {
 protected:
  std::string root = (dir / "src").string(), mirrors = (dir / "mirror").string();
  std::string header = root + "/h.hpp", unit = root + "/a.cpp";
  void SetUp() override {
    ScratchDirectory::SetUp();
    fs::create_directories(root);
    std::ofstream(header) << "inline int f() { return 1; }\n";
  }

  // The plan of a unit that read the header and inserted `statement` after its '{'.
  rewrite_plan plan(const std::string& statement) const {
    rewrite_plan made;
    made.files_read = {header};
    if (!statement.empty()) made.edits.files[header].replacements[16] = {0, statement};
    return made;
  }
};

TEST_F(UnitMirror, UnitsThatPlanAlikeShareATreeAndOthersHaveTheirOwn) {
  const project editable{fs::canonical(root).string(), {}, {}};
  llvm::Expected<mirror> first = mirror::make_for_unit(mirrors, editable, plan(" PERF_INSTRUMENT(\"f\");"), unit);
  llvm::Expected<mirror> same = mirror::make_for_unit(mirrors, editable, plan(" PERF_INSTRUMENT(\"f\");"), unit);
  llvm::Expected<mirror> other = mirror::make_for_unit(mirrors, editable, plan(""), unit);
  ASSERT_TRUE(first && same && other);
  EXPECT_EQ(first->directory(), same->directory());
  EXPECT_NE(first->directory(), other->directory());
  EXPECT_EQ(fs::path(first->directory()).parent_path(), fs::path(mirrors));

  llvm::Expected<std::set<std::string>> written = first->write();
  ASSERT_TRUE(static_cast<bool>(written));
  EXPECT_EQ(*written, std::set<std::string>{header});
  written = same->write();  // the text exists: nothing new, no second warning
  ASSERT_TRUE(static_cast<bool>(written));
  EXPECT_TRUE(written->empty());
  written = other->write();
  ASSERT_TRUE(static_cast<bool>(written));
  EXPECT_EQ(*written, std::set<std::string>{header});

  EXPECT_EQ(read_file(first->path_of(header)), "inline int f() { PERF_INSTRUMENT(\"f\"); return 1; }\n");
  EXPECT_EQ(read_file(other->path_of(header)), "inline int f() { return 1; }\n");
  EXPECT_EQ(fs::hard_link_count(first->path_of(header)), 2u);  // the tree's file and the one copy of its text
  EXPECT_EQ(read_file(header), "inline int f() { return 1; }\n");
}

TEST_F(UnitMirror, TheUnitIsCompiledAsTheMainFileUnderItsMirrorsNameNamingTheOriginal) {
  std::ofstream(unit) << "int g() { return 2; }\n";
  const project editable{fs::canonical(root).string(), {}, {}};
  rewrite_plan measured_unit;
  measured_unit.files_read = {unit};
  measured_unit.edits.files[unit].prefix = true;
  measured_unit.edits.files[unit].replacements[9] = {0, " PERF_INSTRUMENT(\"g\");"};
  llvm::Expected<mirror> made = mirror::make_for_unit(mirrors, editable, measured_unit, unit);
  ASSERT_TRUE(made && made->write());
  const std::string mirrored = made->path_of(unit);
  // No prefix: the unit's lines are the original's, under the name the command gives.
  EXPECT_EQ(read_file(mirrored), "int g() { PERF_INSTRUMENT(\"g\"); return 2; }\n");

  const compiler_command command(root, {"g++", "-ffile-prefix-map=" + root + "/=", "-c", unit});
  const std::vector<std::string> arguments = made->arguments(command);
  const std::vector<std::string> expected_tail = {"-c",
                                                  mirrored,
                                                  "-I" + perf_include_dir(),
                                                  "-include",
                                                  perf_include_dir() + "/perf/instrumented.hpp",
                                                  "-fmacro-prefix-map=" + made->directory() + "/=",
                                                  "-fmacro-prefix-map=" + mirrored + "=a.cpp",
                                                  "-fdebug-prefix-map=" + made->directory() + "/=",
                                                  "-fdebug-prefix-map=" + mirrored + "=a.cpp"};
  ASSERT_GE(arguments.size(), expected_tail.size());
  EXPECT_EQ(std::vector<std::string>(arguments.end() - expected_tail.size(), arguments.end()), expected_tail);
}

}  // namespace
}  // namespace perf::tool
