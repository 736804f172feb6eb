// Finding one of this process's threads by name (/proc/self/task/*/comm).
#ifndef PERF_HARNESS_THREAD_NAMED_HPP
#define PERF_HARNESS_THREAD_NAMED_HPP

#include <dirent.h>

#include <cstdlib>
#include <fstream>
#include <string>

namespace perf::testing {

// The tid of this process's thread named `name`; 0 when there is none.
inline long thread_named(const std::string& name) {
  DIR* tasks = opendir("/proc/self/task");
  long found = 0;
  while (dirent* entry = readdir(tasks)) {
    std::ifstream comm(std::string("/proc/self/task/") + entry->d_name + "/comm");
    std::string comm_name;
    if (std::getline(comm, comm_name) && comm_name == name) found = std::atol(entry->d_name);
  }
  closedir(tasks);
  return found;
}

}  // namespace perf::testing

#endif  // PERF_HARNESS_THREAD_NAMED_HPP
