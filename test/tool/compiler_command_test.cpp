// Reading a compiler command: its sources, options and dependency file.
#include "lib/compiler_command.hpp"

#include <gtest/gtest.h>

namespace perf::tool {
namespace {

using strings = std::vector<std::string>;

strings sources_of(const strings& words) { return compiler_command("/b", words).sources(); }

TEST(SourceArguments, AreTheArgumentsWithACxxExtension) {
  EXPECT_EQ(
      sources_of({"/usr/bin/c++", "-DX=1", "-I/p/include", "-o", "CMakeFiles/a.dir/a.cpp.o", "-c", "/p/src/a.cpp"}),
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

TEST(CompilerCommand, MapsAPathAsTheLastMatchingPrefixMapOfItsKindDoes) {
  const compiler_command command("/b", {"c++", "-ffile-prefix-map=/p/=P/", "-fdebug-prefix-map=/p/src/=src/",
                                        "-fmacro-prefix-map=/q/=q/", "-c", "a.cpp"});
  EXPECT_EQ(command.prefix_mapped("/p/src/a.cpp", "-fdebug-prefix-map="), "src/a.cpp");
  EXPECT_EQ(command.prefix_mapped("/p/src/a.cpp", "-fmacro-prefix-map="), "P/src/a.cpp");
  EXPECT_EQ(command.prefix_mapped("/p/include/a.hpp", "-fdebug-prefix-map="), "P/include/a.hpp");
  EXPECT_EQ(command.prefix_mapped("/q/a.cpp", "-fmacro-prefix-map="), "q/a.cpp");
  EXPECT_EQ(command.prefix_mapped("/q/a.cpp", "-fdebug-prefix-map="), "/q/a.cpp");
  const compiler_command file_map_last(
      "/b", {"c++", "-fdebug-prefix-map=/p/src/=src/", "-ffile-prefix-map=/p/=P/", "-c", "a.cpp"});
  EXPECT_EQ(file_map_last.prefix_mapped("/p/src/a.cpp", "-fdebug-prefix-map="), "P/src/a.cpp");
}

}  // namespace
}  // namespace perf::tool
