// The launcher's reading of a compiler command and its rewriting of dependency files.
#include "lib/launch.hpp"

#include <gtest/gtest.h>

namespace perf::tool {
namespace {

using strings = std::vector<std::string>;

TEST(SourceArguments, AreTheArgumentsWithACxxExtension) {
  EXPECT_EQ(source_arguments({"/usr/bin/c++", "-DX=1", "-I/p/include", "-o", "CMakeFiles/a.dir/a.cpp.o", "-c",
                              "/p/src/a.cpp"}),
            strings{"/p/src/a.cpp"});
  EXPECT_EQ(source_arguments({"g++", "-c", "x.cc", "y.cxx", "z.c++", "w.C"}), (strings{"x.cc", "y.cxx", "z.c++", "w.C"}));
}

TEST(SourceArguments, IgnoreCFilesHeadersObjectsAndTheCompilerItself) {
  EXPECT_EQ(source_arguments({"gcc", "-c", "main.c", "-include", "pre.hpp", "-o", "main.o"}), strings{});
  EXPECT_EQ(source_arguments({"x.cpp", "a.o", "b.o", "-o", "app"}), strings{});
}

TEST(UnmirroredDependencies, NameTheSourcesInsteadOfTheirMirrors) {
  const std::string depfile =
      "obj/a.cpp.o: /b/perf-instrument/mirror/src/a.cpp /b/perf-instrument/mirror/src/a.hpp \\\n"
      "  /usr/include/stdio.h /src-other/x.hpp\n";
  EXPECT_EQ(unmirrored_dependencies(depfile, "/b/perf-instrument/mirror", "/p"),
            "obj/a.cpp.o: /p/src/a.cpp /p/src/a.hpp \\\n  /usr/include/stdio.h /src-other/x.hpp\n");
}

TEST(UnmirroredDependencies, MatchPathsWithSpacesAsMakeEscapesThem) {
  EXPECT_EQ(unmirrored_dependencies("o: /my\\ build/m/a.cpp /my\\ build/mx/b.cpp\n", "/my build/m", "/my src"),
            "o: /my\\ src/a.cpp /my\\ build/mx/b.cpp\n");
}

}  // namespace
}  // namespace perf::tool
