// A unit reading a header the filter changes and one it leaves as it is: both are
// compiled from the unit's mirror, and each must still name its source.
#include <cstdio>

#include "changed.hpp"
#include "unchanged.hpp"

int main(int argc, char**) {
  std::printf("%s\n%s\n%s\n", changed_file(), unchanged_file(), unchanged_builtin_file());
  if (argc > 1) unchanged_check(argc);
  return 0;
}
