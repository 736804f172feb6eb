// Reading a compiler command: its sources, options and dependency file.
#include "lib/compiler_command.hpp"

#include <gtest/gtest.h>

namespace perf::tool {
namespace {

using strings = std::vector<std::string>;

strings sources_of(const strings& words) { return compiler_command("/b", words).sources(); }

TEST(SourceArguments, AreTheArgumentsWithACxxExtension) {
  EXPECT_EQ(sources_of({"/usr/bin/c++", "-DX=1", "-I/p/include", "-o", "CMakeFiles/a.dir/a.cpp.o", "-c",
                              "/p/src/a.cpp"}),
            strings{"/p/src/a.cpp"});
  EXPECT_EQ(sources_of({"g++", "-c", "x.cc", "y.cxx", "z.c++", "w.C"}), (strings{"x.cc", "y.cxx", "z.c++", "w.C"}));
}

TEST(SourceArguments, IgnoreCFilesHeadersObjectsAndTheCompilerItself) {
  EXPECT_EQ(sources_of({"gcc", "-c", "main.c", "-include", "pre.hpp", "-o", "main.o"}), strings{});
  EXPECT_EQ(sources_of({"x.cpp", "a.o", "b.o", "-o", "app"}), strings{});
}

TEST(CompilerCommand, KnowsOptionValuesJoinedOrSeparateAndTheDependencyFile) {
  const compiler_command separate("/b", {"c++", "-MD", "-o", "obj/a.cpp.o", "-c", "a.cpp"});
  EXPECT_EQ(separate.value_of("-o"), "obj/a.cpp.o");
  EXPECT_EQ(separate.depfile(), "obj/a.cpp.d");
  EXPECT_EQ(separate.unit(), "a.cpp");
  EXPECT_EQ(separate.unit_path(), "/b/a.cpp");
  EXPECT_TRUE(separate.has("-c"));
  const compiler_command joined("/b", {"c++", "-MFdeps/a.d", "-Iinclude", "-oa.o", "-c", "a.cpp", "b.cpp"});
  EXPECT_EQ(joined.depfile(), "deps/a.d");
  EXPECT_EQ(joined.value_of("-o"), "a.o");
  EXPECT_EQ(joined.unit(), "");
  EXPECT_EQ(joined.arguments()[2].real_path, "/b/include");
  EXPECT_EQ(joined.words(), (strings{"c++", "-MFdeps/a.d", "-Iinclude", "-oa.o", "-c", "a.cpp", "b.cpp"}));
  EXPECT_EQ(compiler_command("/b", {"c++", "-c", "a.cpp", "-o", "a.o"}).depfile(), std::nullopt);
}

}  // namespace
}  // namespace perf::tool
