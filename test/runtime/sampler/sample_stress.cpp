// Everything that can go wrong under a sampler, at once, while every thread is
// sampled at PERF_SAMPLE_HZ (1 kHz in the test): threads that exit with samples in
// flight or block every signal, fork, exec with other threads running, dlopen and
// dlclose, exceptions thrown through sampled frames, malloc in every loop. Prints
// "stress done" and exits 0 unless something broke. argv: plugin path, then
// "exec-target" when run by its own exec.
#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <thread>
#include <vector>

namespace {

std::atomic<uint64_t> sink{0};  // written by every thread

__attribute__((noinline)) void allocate_and_spin(int rounds) {
  for (int i = 0; i < rounds; ++i) {
    std::vector<uint64_t> values(64 + i % 512, static_cast<uint64_t>(i));
    void* block = std::malloc(16 + static_cast<size_t>(i % 4096));
    std::memset(block, i, 16);
    sink.fetch_add(values.back() + *static_cast<unsigned char*>(block), std::memory_order_relaxed);
    std::free(block);
  }
}

__attribute__((noinline)) void throw_deep(int depth) {
  allocate_and_spin(50);
  if (depth == 0) throw std::runtime_error("through sampled frames");
  throw_deep(depth - 1);
  sink.fetch_add(1, std::memory_order_relaxed);  // not a tail call: the frames stay
}

void exceptions(int count) {
  for (int i = 0; i < count; ++i) {
    try {
      throw_deep(8);
    } catch (const std::runtime_error&) { sink.fetch_add(1, std::memory_order_relaxed); }
  }
}

void blocking_every_signal() {
  sigset_t all;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, nullptr);
  allocate_and_spin(3000);
  pthread_sigmask(SIG_UNBLOCK, &all, nullptr);  // the samples that waited arrive now
  allocate_and_spin(100);
}

void thread_churn(int threads) {
  for (int i = 0; i < threads; ++i) {
    std::thread short_lived(i % 2 == 0 ? [] { allocate_and_spin(200); } : [] { exceptions(3); });
    std::thread blocker(blocking_every_signal);
    short_lived.join();
    blocker.join();
  }
}

void load_and_unload(const char* plugin) {
  void* library = dlopen(plugin, RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    std::fprintf(stderr, "dlopen: %s\n", dlerror());
    std::exit(3);
  }
  auto* work = reinterpret_cast<uint64_t (*)(uint64_t)>(dlsym(library, "plugin_work"));
  sink.fetch_add(work(2000000), std::memory_order_relaxed);
  dlclose(library);
}

// Waits for `child` to exit 0.
bool child_succeeded(pid_t child) {
  int status = 0;
  return waitpid(child, &status, 0) == child && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

bool fork_and_work() {
  const pid_t child = fork();
  if (child == 0) {
    allocate_and_spin(2000);
    exceptions(2);
    std::exit(0);  // the child's exit handlers run too
  }
  return child > 0 && child_succeeded(child);
}

// exec() from a process whose other thread is busy and whose own timer is running.
bool fork_and_exec(const char* self, const char* plugin) {
  const pid_t child = fork();
  if (child == 0) {
    std::thread busy([] { allocate_and_spin(1000000); });
    busy.detach();
    allocate_and_spin(1000);
    execl(self, self, plugin, "exec-target", static_cast<char*>(nullptr));
    std::_Exit(4);
  }
  return child > 0 && child_succeeded(child);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s PLUGIN [exec-target]\n", argv[0]);
    return 2;
  }
  if (argc > 2 && std::strcmp(argv[2], "exec-target") == 0) {
    allocate_and_spin(500);
    return 0;
  }
  const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(2);
  int rounds = 0;
  while (std::chrono::steady_clock::now() < end || rounds < 3) {
    thread_churn(4);
    allocate_and_spin(20000);  // enough CPU on the main thread to be sampled every round
    load_and_unload(argv[1]);
    exceptions(20);
    if (!fork_and_work()) return 5;
    if (!fork_and_exec(argv[0], argv[1])) return 6;
    ++rounds;
  }
  std::fprintf(stderr, "stress done after %d rounds\n", rounds);
  return 0;
}
