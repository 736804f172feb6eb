#include "core/thread_name.hpp"

#include <fcntl.h>
#include <unistd.h>

#include "core/threads.hpp"

namespace perf::runtime {

std::string thread_name(long tid) {
  const std::string path = "/proc/self/task/" + std::to_string(tid) + "/comm";
  const int file = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (file < 0) return {};
  char name[16] = {};
  const ssize_t got = read(file, name, sizeof name);
  close(file);
  std::string text(name, got > 0 ? static_cast<size_t>(got) : 0);
  if (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

std::string thread_name(const thread_record& thread) {
  return has_left(thread) ? std::string(thread.name) : thread_name(thread.tid);
}

std::map<long, std::string> known_thread_names() {
  std::map<long, std::string> names;
  visit_threads([&](const thread_list& threads) {
    for (const exited_thread& thread : threads.exited) names[thread.tid] = thread.name;
    for (const thread_record* thread : threads.living) names[thread->tid] = thread_name(*thread);
  });
  return names;
}

}  // namespace perf::runtime
