// The launcher's pre-check: the attribute's spellings, and the project headers a
// unit's #include lines reach.
#include "lib/launch/marked_text.hpp"

#include <fstream>

#include "scratch_directory.hpp"

namespace perf::tool {
namespace {

TEST(SpellsMeasure, EverySpellingOfTheAttributeAndAnInsertedStatement) {
  EXPECT_TRUE(spells_measure("[[perf::measure]] int f();"));
  EXPECT_TRUE(spells_measure("[[ perf :: measure(\"x\") ]] int f();"));
  EXPECT_TRUE(spells_measure("[[using perf: measure]] int f();"));
  EXPECT_TRUE(spells_measure("[[clang::annotate(\"perf::measure\")]] int f();"));
  EXPECT_TRUE(spells_measure("int f() { PERF_INSTRUMENT(\"f\"); return 1; }"));
  EXPECT_FALSE(spells_measure("#include <perf/measure.hpp>\nint perf = 1; int measure();"));
  EXPECT_FALSE(spells_measure("perf::measured_value x; perf:"));
}

class MayMarkFunctions : public ScratchDirectory {
 protected:
  void write(const std::string& name, const std::string& text) {
    std::filesystem::create_directories((dir / name).parent_path());
    std::ofstream(dir / name) << text;
  }
  bool may_mark(const std::vector<std::string>& arguments) {
    std::vector<std::string> words = {"g++"};
    words.insert(words.end(), arguments.begin(), arguments.end());
    words.insert(words.end(), {"-c", "project/src/unit.cpp"});
    const std::string root = std::filesystem::canonical(dir / "project").string();
    const project editable{root, {}, {root + "/system"}};
    return may_mark_functions(compiler_command(dir.string(), words), editable);
  }
};

TEST_F(MayMarkFunctions, FollowsQuotedIncludesBesideTheIncluderAndThroughDashI) {
  write("project/src/unit.cpp", "#include \"local.hpp\"\n#include <vector>\n");
  write("project/src/local.hpp", "#pragma once\n  #  include <lib/api.hpp>\n");
  write("project/include/lib/api.hpp", "int plain();\n");
  EXPECT_FALSE(may_mark({"-Iproject/include"}));
  write("project/include/lib/api.hpp", "[[perf::measure]] int marked();\n");
  EXPECT_FALSE(may_mark({}));  // not found without its directory: not the unit's header
  EXPECT_TRUE(may_mark({"-Iproject/include"}));
}

TEST_F(MayMarkFunctions, DoesNotReadSystemHeadersOrFilesOutsideTheProject) {
  write("project/src/unit.cpp", "#include \"api.hpp\"\n#include \"vendor.hpp\"\n");
  write("project/system/api.hpp", "[[perf::measure]] int marked();\n");
  write("outside/vendor.hpp", "[[perf::measure]] int marked();\n");
  EXPECT_FALSE(may_mark({"-Iproject/system", "-Ioutside"}));
  EXPECT_TRUE(may_mark({"-Iproject/system", "-Ioutside", "-DMARK=[[perf::measure]]"}));
}

TEST_F(MayMarkFunctions, AnIncludeNamedByAMacroOrAForcedIncludeCounts) {
  write("project/src/unit.cpp", "int plain();\n");
  write("project/src/forced.hpp", "[[perf::measure]] int marked();\n");
  EXPECT_FALSE(may_mark({}));
  EXPECT_TRUE(may_mark({"-include", "project/src/forced.hpp"}));
  write("project/src/unit.cpp", "#include HEADER\n");
  EXPECT_TRUE(may_mark({}));
}

}  // namespace
}  // namespace perf::tool
