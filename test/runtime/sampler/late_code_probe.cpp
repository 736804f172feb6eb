// Code the sampler meets after it started, run by library_paths_test.cpp with
// PERF_SAMPLE_HZ and PERF_PROFILE set; none of it keeps frame pointers. Usage:
//   late_code_probe plugin PLUGIN seconds   loads PLUGIN (late_plugin.cpp) and calls
//       through it into measured code for `seconds` of CPU time, then loads, calls and
//       unloads it 200 times, sampled all along; says "plugin done" on stderr
//   late_code_probe searching-plugin PLUGIN seconds   calls through PLUGIN into code
//       that allocates and searches the loader's list (dl_iterate_phdr), as an
//       exception's unwinding does, for `seconds` of CPU time; says "searching done"
//   late_code_probe early-thread seconds    starts a thread while sampling is stopped,
//       then samples again: the thread is found in /proc/self/task, armed from the main
//       thread, and spins 3 calls deep in measured code for `seconds` of its CPU time
#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <time.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "perf/measure.hpp"
#include "sampler/sampler.hpp"

namespace {

std::atomic<uint64_t> sink;  // what the work makes, so that no compiler removes it

double thread_seconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

__attribute__((noinline)) uint64_t mix(uint64_t state, unsigned rounds) {
  for (unsigned i = 0; i < rounds; ++i) {
    state = state * 2862933555777941757u + 3037000493u;
    __asm__ __volatile__("" : "+r"(state));
  }
  return state;
}

// The program's measured code the plugin calls back.
__attribute__((noinline)) uint64_t measured_callback(uint64_t state) {
  PERF_MEASURE_NO_TICKS("measured_callback");
  return mix(state, 12000);
}

using plugin_function = uint64_t (*)(uint64_t (*)(uint64_t), uint64_t);

plugin_function open_plugin(const char* path, void*& library) {
  library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    std::fprintf(stderr, "dlopen: %s\n", dlerror());
    std::exit(1);
  }
  auto* run = reinterpret_cast<plugin_function>(dlsym(library, "plugin_run"));
  if (run == nullptr) std::exit(1);
  return run;
}

// The program's code the plugin calls back: an allocation (walked by the heap sampler
// through the plugin's frame) and a search of the loader's list.
__attribute__((noinline)) uint64_t searching_callback(uint64_t state) {
  std::vector<uint64_t> values(16, state);
  int modules = 0;
  dl_iterate_phdr([](dl_phdr_info*, size_t, void* count) { return ++*static_cast<int*>(count), 0; }, &modules);
  return mix(values[3] + static_cast<uint64_t>(modules), 200);
}

int run_searching_plugin(const char* path, double seconds) {
  void* library = nullptr;
  const plugin_function run = open_plugin(path, library);
  for (const double end = thread_seconds() + seconds; thread_seconds() < end;)
    sink.fetch_add(run(searching_callback, 20), std::memory_order_relaxed);
  std::fprintf(stderr, "searching done\n");
  return dlclose(library) == 0 ? 0 : 1;
}

int run_plugin(const char* path, double seconds) {
  void* library = nullptr;
  const plugin_function run = open_plugin(path, library);
  for (const double end = thread_seconds() + seconds; thread_seconds() < end;)
    sink.fetch_add(run(measured_callback, 20), std::memory_order_relaxed);
  if (dlclose(library) != 0) return 1;
  // Unloaded while samples arrive: a walk must never read the code or tables it unmapped.
  for (int cycle = 0; cycle < 200; ++cycle) {
    const plugin_function again = open_plugin(path, library);
    sink.fetch_add(again(measured_callback, 2), std::memory_order_relaxed);
    if (dlclose(library) != 0) return 1;
  }
  std::fprintf(stderr, "plugin done\n");
  return 0;
}

__attribute__((noinline)) uint64_t early_inner(uint64_t state) { return mix(state, 50000) ^ 1; }  // no tail call

__attribute__((noinline)) uint64_t early_middle(uint64_t state) {
  PERF_MEASURE_NO_TICKS("early_middle");
  return early_inner(state) + 1;
}

__attribute__((noinline)) uint64_t early_outer(uint64_t state) { return early_middle(state) + 1; }

double early_seconds = 0;
std::atomic<bool> may_spin{false};

void* early_thread_start(void*) {
  while (!may_spin.load()) sched_yield();
  uint64_t state = 1;
  for (const double end = thread_seconds() + early_seconds; thread_seconds() < end;) state = early_outer(state);
  sink.fetch_add(state, std::memory_order_relaxed);
  return nullptr;
}

int run_early_thread(double seconds) {
  early_seconds = seconds;
  const perf::runtime::sample_config& config = perf::runtime::current_sample_config();
  // Started while no new thread is armed: the thread is found in /proc when sampling
  // resumes, armed by this thread, and never reads its own stack's bounds.
  perf::runtime::stop_sampling();
  pthread_t thread;
  if (pthread_create(&thread, nullptr, early_thread_start, nullptr) != 0) return 1;
  perf::runtime::resume_sampling(config.hz, config.source);
  may_spin.store(true);
  return pthread_join(thread, nullptr) == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 4 && std::strcmp(argv[1], "plugin") == 0) return run_plugin(argv[2], std::atof(argv[3]));
  if (argc == 4 && std::strcmp(argv[1], "searching-plugin") == 0)
    return run_searching_plugin(argv[2], std::atof(argv[3]));
  if (argc == 3 && std::strcmp(argv[1], "early-thread") == 0) return run_early_thread(std::atof(argv[2]));
  std::fprintf(stderr, "usage: late_code_probe plugin|searching-plugin PLUGIN seconds | early-thread seconds\n");
  return 2;
}
