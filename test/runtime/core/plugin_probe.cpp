// A program that loads a plugin, calls its measured function and unloads it, again
// and again: plugin_probe PLUGIN CYCLES. Prints on stderr "sites: N", the site ids
// in use (core/sites.hpp) after the last cycle, then exits with the usual report.
// plugin_probe PLUGIN spin: loads the plugin, spins 0.3 s of CPU time in it and
// unloads it. Exits with 3 when the plugin stays loaded after dlclose (the test
// would prove nothing).
#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "core/sites.hpp"

int main(int argc, char** argv) {
  if (argc != 3) return 2;
  if (std::strcmp(argv[2], "spin") == 0) {
    void* plugin = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    auto* spin =
        plugin != nullptr ? reinterpret_cast<unsigned long (*)(double)>(dlsym(plugin, "plugin_spin")) : nullptr;
    if (spin == nullptr) return 2;
    std::fprintf(stderr, "%lu\n", spin(0.3) & 1);
    dlclose(plugin);
    return dlopen(argv[1], RTLD_NOW | RTLD_NOLOAD) != nullptr ? 3 : 0;
  }
  const long cycles = std::atol(argv[2]);
  for (long c = 0; c < cycles; ++c) {
    void* plugin = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (plugin == nullptr) {
      std::fprintf(stderr, "%s\n", dlerror());
      return 2;
    }
    auto* work = reinterpret_cast<int (*)(int)>(dlsym(plugin, "measured_plugin_work"));
    if (work == nullptr || work(1) != 2) return 2;
    dlclose(plugin);
    if (dlopen(argv[1], RTLD_NOW | RTLD_NOLOAD) != nullptr) return 3;
  }
  std::fprintf(stderr, "sites: %u\n", perf::runtime::site_count() - 1);
  return 0;
}
