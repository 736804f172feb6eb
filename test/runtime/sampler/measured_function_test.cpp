// Which measured site a sample is charged to (sampler/measured_function.hpp), on
// symbolized frames made up here.
#include "sampler/measured_function.hpp"

#include <gtest/gtest.h>

namespace perf::runtime {
namespace {

source_frame frame(const char* function, const char* file, code_owner owner = code_owner::program) {
  source_frame f;
  f.function = function;
  f.file = file;
  f.owner = owner;
  return f;
}

// Sites 1 and 2 in parse (a scope and a nested one), 3 in the leaf `digit`, 4 in a
// function of the same name in another file; each site's address symbolizes to the
// probe's inlined scope code (perf's), then the measured function.
measured_function_sites example_index() {
  measured_function_sites index;
  const source_frame scope =
      frame("perf::detail::basic_scope<false, false, false>::basic_scope", "measure.hpp", code_owner::runtime);
  add_measured_site(index, 1, {scope, frame("parse()", "parse.cpp")});
  add_measured_site(index, 2, {scope, frame("parse()", "parse.cpp")});
  add_measured_site(index, 3, {scope, frame("digit(char)", "parse.cpp")});
  add_measured_site(index, 4, {scope, frame("digit(char)", "other.cpp")});
  add_measured_site(index, 5, {frame("std::sort", "/usr/include/c++/12/bits/stl_algo.h", code_owner::library)});
  return index;
}

TEST(MeasuredFunction, ASampleInAMeasuredFunctionGoesToItsSiteWhateverSiteWasOpen) {
  const measured_function_sites index = example_index();
  const source_frame in_digit = frame("digit(char)", "parse.cpp");
  EXPECT_EQ(charged_site(index, 1, &in_digit), 3u);  // an untimed call of digit inside parse
  EXPECT_EQ(charged_site(index, 0, &in_digit), 3u);  // called where nothing measured was open
  EXPECT_EQ(charged_site(index, 3, &in_digit), 3u);
  const source_frame in_other_digit = frame("digit(char)", "other.cpp");
  EXPECT_EQ(charged_site(index, 1, &in_other_digit), 4u);
}

TEST(MeasuredFunction, AmongTheSitesOfOneFunctionTheOpenOneIsKeptElseTheFirst) {
  const measured_function_sites index = example_index();
  const source_frame in_parse = frame("parse()", "parse.cpp");
  EXPECT_EQ(charged_site(index, 2, &in_parse), 2u);  // the nested scope, open
  EXPECT_EQ(charged_site(index, 1, &in_parse), 1u);
  EXPECT_EQ(charged_site(index, 3, &in_parse), 1u);
}

TEST(MeasuredFunction, ASampleOutsideEveryMeasuredFunctionKeepsTheOpenSite) {
  const measured_function_sites index = example_index();
  const source_frame unmeasured = frame("helper()", "parse.cpp");
  EXPECT_EQ(charged_site(index, 1, &unmeasured), 1u);
  EXPECT_EQ(charged_site(index, 0, &unmeasured), 0u);
  EXPECT_EQ(charged_site(index, 2, nullptr), 2u);  // no frame of the program's own code
  // A site whose address has no frame of the program's own code names no function.
  const source_frame sort = frame("std::sort", "/usr/include/c++/12/bits/stl_algo.h");
  EXPECT_EQ(charged_site(index, 1, &sort), 1u);
}

TEST(MeasuredFunction, TheInnermostProgramFrameSkipsPerfsAndTheLibrariesFrames) {
  const std::vector<source_frame> frames = {
      frame("perf::detail::begin", "measure.hpp", code_owner::runtime),
      frame("std::min", "/usr/include/c++/12/bits/stl_algobase.h", code_owner::library),
      frame("digit(char)", "parse.cpp"), frame("parse()", "parse.cpp")};
  ASSERT_NE(innermost_program_frame(frames), nullptr);
  EXPECT_EQ(innermost_program_frame(frames)->function, "digit(char)");
  EXPECT_EQ(innermost_program_frame({frames[0], frames[1]}), nullptr);
}

}  // namespace
}  // namespace perf::runtime
