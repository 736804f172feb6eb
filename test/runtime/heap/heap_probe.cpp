// The heap sampler's probe: a program with known allocation sites, run by
// heap_sampling_test.cpp with PERF_HEAP_SAMPLE and PERF_REPORT set. Its allocations
// escape into globals so that no compiler removes a new/delete pair. Usage:
// heap_probe known_sites | realloc | thread | fork | one_leak | full_live_set | string_leak
#include <pthread.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "perf/measure.hpp"

namespace {

constexpr size_t mib = size_t{1} << 20;

void* volatile escaped;  // the last block allocated: the compiler must make it
// Blocks live at exit, reachable from a vector never destroyed (no leak report under ASan).
std::vector<void*>& kept = *new std::vector<void*>;

// Mixed sizes, from 256 bytes to 256 KiB, in a fixed pseudo-random order.
size_t next_size(uint64_t& state) {
  state = state * 6364136223846793005ull + 1442695040888963407ull;
  return size_t{256} << (2 * ((state >> 33) % 6));
}

// 10,000 strings of 200 characters, leaked: each string's own 32 bytes come from here,
// its characters' 201 from inside libstdc++ (std::string::_M_mutate, built without
// frame pointers), 2.3 MB in all. Built without a frame pointer itself, as a program
// built with the compiler's defaults is.
__attribute__((noinline, optimize("omit-frame-pointer"))) void leak_some() {
  for (int i = 0; i < 10000; ++i) {
    auto* key = new std::string;
    key->assign(200, 'x');
    kept.push_back(key);
  }
}

void* run_leak_some(void*) {
  leak_some();
  return nullptr;
}

// 10 x the light site's bytes, each block freed at once.
__attribute__((noinline)) void heavy_site(size_t total) {
  uint64_t state = 1;
  for (size_t done = 0; done < total;) {
    const size_t bytes = next_size(state);
    char* block = new char[bytes];
    escaped = block;
    delete[] block;
    done += bytes;
  }
}

__attribute__((noinline)) void light_site(size_t total) {
  uint64_t state = 2;
  for (size_t done = 0; done < total;) {
    const size_t bytes = next_size(state);
    void* block = std::malloc(bytes);
    escaped = block;
    std::free(block);
    done += bytes;
  }
}

// Every block kept: live at exit.
__attribute__((noinline)) void leaky_site(size_t total) {
  uint64_t state = 3;
  for (size_t done = 0; done < total;) {
    const size_t bytes = next_size(state);
    kept.push_back(new char[bytes]);  // room reserved: push_back does not allocate
    done += bytes;
  }
}

// Each keeps its block in `escaped` after the call, so that the call is no tail call
// (which would leave the function's frame out of the stack).
__attribute__((noinline)) void* grow_start() {
  escaped = std::malloc(mib);
  return escaped;
}
__attribute__((noinline)) void* grow_end(void* block) {
  escaped = std::realloc(block, 2 * mib);
  return escaped;
}

__attribute__((noinline)) void thread_site() {
  for (int i = 0; i < 8; ++i) {
    char* block = new char[mib];
    escaped = block;
    if (i % 2 == 0) kept.push_back(block);
    else delete[] block;
  }
}

__attribute__((noinline)) void child_site() { kept.push_back(std::malloc(8 * mib)); }

__attribute__((noinline)) void leak_one_mebibyte() { kept.push_back(std::malloc(mib)); }

// 64-byte blocks: at PERF_HEAP_SAMPLE=1 every one is sampled.
__attribute__((noinline)) void many_live_blocks(int count) {
  for (int i = 0; i < count; ++i) kept.push_back(new char[64]);
}
__attribute__((noinline)) void freed_at_once(int count) {
  for (int i = 0; i < count; ++i) {
    char* block = new char[64];
    escaped = block;
    delete[] block;
  }
}

void* run_thread_site(void*) {
  thread_site();
  return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  PERF_MEASURE("main");  // a program that measured nothing writes no text report
  const std::string mode = argc > 1 ? argv[1] : "";
  kept.reserve(1 << 16);
  if (mode == "known_sites") {
    heavy_site(800 * mib);
    light_site(80 * mib);
    leaky_site(64 * mib);
  } else if (mode == "realloc") {
    for (int i = 0; i < 16; ++i) kept.push_back(grow_end(grow_start()));
  } else if (mode == "thread") {
    pthread_t thread;
    if (pthread_create(&thread, nullptr, run_thread_site, nullptr) != 0 || pthread_join(thread, nullptr) != 0) return 1;
  } else if (mode == "fork") {
    const pid_t child = fork();
    if (child == 0) {
      child_site();
      std::exit(0);
    }
    int status = 0;
    if (child < 0 || waitpid(child, &status, 0) != child || status != 0) return 1;
  } else if (mode == "one_leak") {
    leak_one_mebibyte();
  } else if (mode == "string_leak") {  // on a thread of its own, as a server's worker leaks
    pthread_t thread;
    if (pthread_create(&thread, nullptr, run_leak_some, nullptr) != 0 || pthread_join(thread, nullptr) != 0) return 1;
  } else if (mode == "full_live_set") {  // more sampled blocks live than the live set holds
    kept.reserve(100000);
    many_live_blocks(80000);
    freed_at_once(200000);
  } else {
    return 2;
  }
  return 0;
}
