// The launcher's rewriting of dependency files.
#include "lib/launch/launch.hpp"

#include <gtest/gtest.h>

namespace perf::tool {
namespace {

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
