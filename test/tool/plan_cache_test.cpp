// The launcher's kept plans: reused while every file read is unchanged, and only
// for the configuration they were made under.
#include "lib/launch/plan_cache.hpp"

#include <fstream>
#include <iterator>

#include "scratch_directory.hpp"

namespace perf::tool {
namespace {

using PlanCache = ScratchDirectory;

TEST_F(PlanCache, APlanComesBackWholeWhileItsFilesAreUnchanged) {
  const std::string unit = (dir / "unit.cpp").string(), header = (dir / "other.hpp").string();
  std::ofstream(unit) << "int f() { return 1; }\n";
  std::ofstream(header) << "int g();\n";
  rewrite_plan plan;
  plan.files_read = {unit};
  plan.inputs = {unit, header};
  plan.edits.files[unit] = file_edits{true, {{9, replacement{0, " PERF_INSTRUMENT(\"f\");"}}}};
  plan.edits.functions.insert({unit, 1, 5, "f", "", "", true});
  plan.edits.functions.insert({unit, 2, 5, "g", "below the size threshold: size 1, threshold 10", ""});
  const plan_cache kept((dir / "plans").string(), "g++ -c unit.cpp");
  EXPECT_FALSE(kept.load());
  kept.store(plan);

  const std::optional<rewrite_plan> loaded = kept.load();
  ASSERT_TRUE(loaded);
  EXPECT_EQ(loaded->files_read, plan.files_read);
  EXPECT_EQ(loaded->inputs, plan.inputs);
  EXPECT_EQ(loaded->edits.functions, plan.edits.functions);
  // What == leaves out: a kept plan still knows which functions were marked by hand.
  EXPECT_TRUE(loaded->edits.functions.begin()->marked);
  EXPECT_FALSE(std::next(loaded->edits.functions.begin())->marked);
  ASSERT_EQ(loaded->edits.files.count(unit), 1u);
  EXPECT_TRUE(loaded->edits.files.at(unit).prefix);
  EXPECT_EQ(loaded->edits.files.at(unit).replacements, plan.edits.files[unit].replacements);
  EXPECT_FALSE(plan_cache((dir / "plans").string(), "g++ -std=c++20 -c unit.cpp").load());

  std::ofstream(unit) << "int f() { return 2; }\n";  // a project file's text changed
  EXPECT_FALSE(kept.load());
  std::ofstream(unit) << "int f() { return 1; }\n";  // and back
  EXPECT_TRUE(kept.load());
  std::ofstream(header, std::ios::app) << "\n";  // another file's size changed
  EXPECT_FALSE(kept.load());
}

}  // namespace
}  // namespace perf::tool
