// A unit the filter changes, reading a header the filter changes and one it leaves as
// it is (lit/Inputs/mirror_paths): each must name its source, at its own lines.
#include <cstdio>

#include "changed.hpp"
#include "unchanged.hpp"

int main(int argc, char**) {
  std::printf("%s:%d\n%s\n%s\n%s\n", __FILE__, __LINE__, changed_file(), unchanged_file(), unchanged_builtin_file());
  if (argc > 1) unchanged_check(argc);
  return 0;
}
