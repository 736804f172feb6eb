// A program whose hot paths run through the C library and libstdc++, which keep no
// frame pointers, and which keeps none itself (built with -fomit-frame-pointer): qsort
// calling a measured comparator, std::sort, snprintf, std::string growth and std::map inserts,
// on the main thread and on a thread of its own, for `seconds` of CPU time each. Run by
// library_paths_test.cpp with PERF_SAMPLE_HZ and PERF_PROFILE set. Usage:
// library_paths_probe seconds
#include <pthread.h>
#include <time.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "perf/measure.hpp"

namespace {

std::atomic<unsigned long> sink;  // what each path makes, so that no compiler removes it

double thread_seconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

// Measured, as a user's hot comparator would be: its probe's calls into the runtime
// are on the stacks too.
__attribute__((noinline)) int compare_numbers(const void* a, const void* b) {
  PERF_MEASURE_NO_TICKS("compare_numbers");
  const int x = *static_cast<const int*>(a), y = *static_cast<const int*>(b);
  return (x > y) - (x < y);
}

__attribute__((noinline)) void sort_with_qsort(std::vector<int>& values) {
  std::qsort(values.data(), values.size(), sizeof(int), compare_numbers);
}

__attribute__((noinline)) bool less_by_digits(int a, int b) { return a % 1000 < b % 1000; }

__attribute__((noinline)) void sort_with_std_sort(std::vector<int>& values) {
  std::sort(values.begin(), values.end(), less_by_digits);
}

__attribute__((noinline)) void format_lines(int count) {
  char line[128];
  for (int i = 0; i < count; ++i)
    sink.fetch_add(static_cast<unsigned long>(std::snprintf(line, sizeof line, "%d %f %s", i, i * 0.5, "x")),
                   std::memory_order_relaxed);
}

__attribute__((noinline)) void grow_strings(int count) {
  for (int i = 0; i < count; ++i) {
    std::string text;
    for (int c = 0; c < 500; ++c) text += static_cast<char>('a' + c % 26);
    sink.fetch_add(text.size(), std::memory_order_relaxed);
  }
}

__attribute__((noinline)) void insert_into_map(int count) {
  std::map<int, int> entries;
  for (int i = 0; i < count; ++i) entries[(i * 7919) % 100003] = i;
  sink.fetch_add(entries.size(), std::memory_order_relaxed);
}

// Each path in turn, until `seconds` of the thread's CPU time have passed.
void run_paths(double seconds) {
  std::vector<int> values(2000);
  const double end = thread_seconds() + seconds;
  unsigned seed = 1;
  while (thread_seconds() < end) {
    for (int& v : values) v = static_cast<int>(seed = seed * 1103515245u + 12345u);
    sort_with_qsort(values);
    for (int& v : values) v = static_cast<int>(seed = seed * 1103515245u + 12345u);
    sort_with_std_sort(values);
    format_lines(200);
    grow_strings(20);
    insert_into_map(2000);
  }
}

double seconds_each = 0;

void* worker(void*) {
  run_paths(seconds_each);
  return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  seconds_each = argc > 1 ? std::atof(argv[1]) : 0;
  if (seconds_each <= 0) return 2;
  pthread_t thread;
  if (pthread_create(&thread, nullptr, worker, nullptr) != 0) return 1;
  run_paths(seconds_each);
  return pthread_join(thread, nullptr) == 0 ? 0 : 1;
}
