// A program whose CPU time is split in known proportions, for the sampler's tests.
// argv[1] picks the scenario, argv[2] (optional) scales the work of `ratio` and
// `threads` (1: about 1.5 s of CPU time); the summary goes to stderr, one line per entry:
//   function <name> <samples>      (the process's top functions)
//   interval <low> <high> <name>   (the 95% interval of each top function's share)
//   thread <tid> <samples> <top function>
//   total <samples>
//   interrupts <signals>           (the signals behind the samples)
//   source <perf_event|timer>
//   cpu_ms <process CPU time before the summary>
//   main_cpu_ms <the part of it spent in main>
//   probe <samples>                (taken inside perf's own probes)
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <thread>
#include <vector>

#include "harness/cpu_churn.hpp"
#include "perf/detail/allocation_stack.hpp"
#include "perf/measure.hpp"
#include "perf/sampler.hpp"

namespace {

volatile uint64_t sink;

constexpr uint64_t unit = 4000000;  // a few milliseconds
double scale = 1;                   // argv[2]

// Every function churns a different amount: identical code folding would make two alike one.
__attribute__((noinline)) void three_quarters(uint64_t units) { PERF_TEST_CPU_CHURN(3 * units * unit); }
__attribute__((noinline)) void one_quarter(uint64_t units) { PERF_TEST_CPU_CHURN(units * unit); }
__attribute__((noinline)) void light_thread_work() { PERF_TEST_CPU_CHURN(static_cast<uint64_t>(160 * scale) * unit); }
__attribute__((noinline)) void heavy_thread_work() { PERF_TEST_CPU_CHURN(static_cast<uint64_t>(320 * scale) * unit); }
__attribute__((noinline)) void late_thread_work() { PERF_TEST_CPU_CHURN(210 * unit); }
__attribute__((noinline)) void main_thread_work() { PERF_TEST_CPU_CHURN(150 * unit); }

// A measured function so small that its probe (perf::detail::begin and end, called
// out of line) takes a good part of its time.
__attribute__((noinline)) void measured_step(uint64_t rounds) {
  PERF_MEASURE_NO_TICKS("measured_step");
  PERF_TEST_CPU_CHURN(rounds);
}

// Two measured functions, the one named first alphabetically the lighter (1:3).
__attribute__((noinline)) void measured_alpha() {
  PERF_MEASURE_NO_TICKS("alpha_light");
  PERF_TEST_CPU_CHURN(25 * unit);
}
__attribute__((noinline)) void measured_zeta() {
  PERF_MEASURE_NO_TICKS("zeta_heavy");
  PERF_TEST_CPU_CHURN(75 * unit);
}

// A measured function left by longjmp (as a C library's error callback leaves it),
// then unmeasured work and a measured function: the work is not the abandoned one's.
jmp_buf bail_target;
__attribute__((noinline)) void bail() {
  PERF_MEASURE_NO_TICKS("bail");
  longjmp(bail_target, 1);
}
__attribute__((noinline)) void work_after_bail() { PERF_TEST_CPU_CHURN(130 * unit); }
void abandoned() {
  if (setjmp(bail_target) == 0) bail();
  work_after_bail();
  measured_zeta();
}

void measured_calls() {
  for (int call = 0; call < 12000000; ++call) measured_step(20);
}

// A measured leaf of a few steps beside a probe of some 20 ns: probe-dominated, so that
// adaptive timing times a sample of its calls only, and called by a measured parent
// whose own churn takes about half as long as its calls of the leaf.
__attribute__((noinline)) void cheap_leaf() {
  PERF_MEASURE_NO_TICKS("cheap_leaf");
  PERF_TEST_CPU_CHURN(4);
}
__attribute__((noinline)) void parent_of_cheap_leaves() {
  PERF_MEASURE_NO_TICKS("leaf_parent");
  for (int call = 0; call < 1000; ++call) cheap_leaf();
  PERF_TEST_CPU_CHURN(2000);
}

void untimed_leaf() {
  for (int round = 0; round < 20000; ++round) parent_of_cheap_leaves();
}

// Nearly all the time in libstdc++'s sorting code, inlined here or instantiated in
// this module (std::__introsort_loop, std::__insertion_sort, ...).
__attribute__((noinline)) void sort_rounds() {
  std::vector<uint32_t> values(4096);
  uint64_t state = sink;
  for (int round = 0; round < 2000; ++round) {
    for (uint32_t& v : values)
      v = static_cast<uint32_t>(state = state * 6364136223846793005u + 1442695040888963407u) >> 7;
    std::sort(values.begin(), values.end());
  }
  sink = values[values.size() / 2];
}

// Nearly all the time in the C library's malloc and free, whose code keeps no frame
// pointer: its frame chain is lost where the sample lands.
// The runtime's own work on the program's thread, as a failing allocation budget makes
// it: stacks described (symbolized from the debug information), a new address each
// time, for about 0.3 s of CPU.
__attribute__((noinline)) void describe_stacks() {
  timespec start{}, now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &start);
  uintptr_t address = reinterpret_cast<uintptr_t>(&describe_stacks);
  do {
    const uintptr_t frames[1] = {address++};
    if (perf::alloc::detail::describe_stack(frames, 1).size() == size_t(-1)) std::abort();
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  } while ((now.tv_sec - start.tv_sec) * 1000000000L + (now.tv_nsec - start.tv_nsec) < 300000000L);
}

__attribute__((noinline)) void allocate_rounds() {
  void* kept[64] = {};
  uint64_t state = sink;
  for (int round = 0; round < 10000000; ++round) {
    state = state * 6364136223846793005u + 1442695040888963407u;
    const size_t slot = (state >> 20) % 64;
    std::free(kept[slot]);
    kept[slot] = std::malloc(16 + (state >> 40) % 4000);
  }
  for (void* p : kept) std::free(p);
  sink = state;
}

void ratio() {
  for (int round = 0; round < static_cast<int>(100 * scale); ++round) {
    three_quarters(1);
    one_quarter(1);
  }
}

void threads() {
  std::thread light(light_thread_work);
  std::thread heavy(heavy_thread_work);
  light.join();
  heavy.join();
}

void late_thread() {
  main_thread_work();
  std::thread late(late_thread_work);
  late.join();
}

// A thread blocked in read() while samples arrive (PERF_SAMPLE_CLOCK=wall sends them
// to blocked threads too) gets its byte, not EINTR.
int blocked_read() {
  int fds[2];
  if (pipe(fds) != 0) return 1;
  long got = 0;
  std::thread reader([&] {
    char byte = 0;
    got = read(fds[0], &byte, 1);
  });
  // Samples interrupt a sleep (nanosleep returns EINTR whatever SA_RESTART says):
  // sleep to an absolute deadline, as a program that must sleep that long does.
  timespec deadline{};
  clock_gettime(CLOCK_MONOTONIC, &deadline);
  deadline.tv_nsec += 300000000;
  if (deadline.tv_nsec >= 1000000000) {
    deadline.tv_sec += 1;
    deadline.tv_nsec -= 1000000000;
  }
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, nullptr) == EINTR) {}
  (void)!write(fds[1], "x", 1);
  reader.join();
  std::fprintf(stderr, "read %ld\n", got);
  return got == 1 ? 0 : 1;
}

int compare_values(const void* a, const void* b) {
  const uint32_t x = *static_cast<const uint32_t*>(a), y = *static_cast<const uint32_t*>(b);
  return (x > y) - (x < y);
}

// One qsort of `values`, `depth` frames of about 512 bytes down the stack.
__attribute__((noinline)) void qsort_down(std::vector<uint32_t>& values, int depth) {
  volatile char room[512];
  room[0] = static_cast<char>(depth);
  if (depth > 0) qsort_down(values, depth - 1);
  else std::qsort(values.data(), values.size(), sizeof(uint32_t), compare_values);
  room[1] = room[0];
}

// About 0.3 s of the thread's CPU in the C library's qsort, from ever-changing depths of
// the stack: new return addresses for the unwinder, on stack pages libunwind has not
// derived yet.
__attribute__((noinline)) void qsort_rounds() {
  std::vector<uint32_t> values(4096);
  uint64_t state = sink;
  timespec start{}, now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &start);
  for (int round = 0;; ++round) {
    for (uint32_t& v : values)
      v = static_cast<uint32_t>(state = state * 6364136223846793005u + 1442695040888963407u) >> 7;
    qsort_down(values, round % 97);
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    if ((now.tv_sec - start.tv_sec) * 1000000000L + (now.tv_nsec - start.tv_nsec) > 300000000L) break;
  }
  sink = values[values.size() / 2];
}

// A thread that closes every descriptor it did not open (as a daemon does) and opens
// files, which take the numbers of the sampler's events and of libunwind's pipe, then
// is sampled through qsort; its exit releases its sampling source. The files stay open,
// and empty: the sampler closes only its own events, and the unwinder never uses the
// pipe (once, libunwind wrote bytes of memory into a file that took its number).
int reused_descriptors() {
  constexpr int files = 16;
  int opened[files] = {};
  std::thread worker([&] {
    light_thread_work();
    for (int fd = 3; fd < 1024; ++fd) close(fd);
    for (int i = 0; i < files; ++i) {
      char name[] = "/tmp/perf_reused_descriptor_XXXXXX";
      opened[i] = mkstemp(name);
      unlink(name);
    }
    qsort_rounds();
  });
  worker.join();
  int still_open = 0, written = 0;
  for (const int fd : opened) {
    struct stat status {};
    still_open += fstat(fd, &status) == 0 && S_ISREG(status.st_mode);
    written += status.st_size != 0 || lseek(fd, 0, SEEK_CUR) != 0;
  }
  std::fprintf(stderr, "still open %d of %d, %d written or read\n", still_open, files, written);
  return still_open == files && written == 0 ? 0 : 1;
}

}  // namespace

// This process's CPU time so far, in milliseconds.
static double process_cpu_ms() {
  timespec cpu{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu);
  return static_cast<double>(cpu.tv_sec) * 1e3 + static_cast<double>(cpu.tv_nsec) / 1e6;
}

int main(int argc, char** argv) {
  const double cpu_before_main = process_cpu_ms();
  const char* scenario = argc > 1 ? argv[1] : "";
  if (argc > 2) scale = std::atof(argv[2]);
  int status = 0;
  if (std::strcmp(scenario, "ratio") == 0) ratio();
  else if (std::strcmp(scenario, "threads") == 0) threads();
  else if (std::strcmp(scenario, "late-thread") == 0) late_thread();
  else if (std::strcmp(scenario, "blocked-read") == 0) status = blocked_read();
  else if (std::strcmp(scenario, "measured-calls") == 0) measured_calls();
  else if (std::strcmp(scenario, "two-measured") == 0) measured_alpha(), measured_zeta();
  else if (std::strcmp(scenario, "untimed-leaf") == 0) untimed_leaf();
  else if (std::strcmp(scenario, "abandoned") == 0) abandoned();
  else if (std::strcmp(scenario, "reused-descriptors") == 0) status = reused_descriptors();
  else if (std::strcmp(scenario, "sort") == 0) sort_rounds();
  else if (std::strcmp(scenario, "allocate") == 0) allocate_rounds();
  else if (std::strcmp(scenario, "describe-stacks") == 0) describe_stacks();
  else {
    std::fprintf(
        stderr,
        "usage: %s "
        "ratio|threads|late-thread|blocked-read|measured-calls|two-measured|untimed-leaf|abandoned|reused-descriptors|"
        "sort|allocate|describe-stacks\n",
        argv[0]);
    return 2;
  }
  const double cpu_ms = process_cpu_ms();
  const perf::sample_summary summary = perf::take_sample_summary(5);
  for (const perf::sampled_location& f : summary.top_functions)
    std::fprintf(stderr, "function %s %llu\n", f.function.c_str(), static_cast<unsigned long long>(f.samples));
  for (const perf::sampled_location& f : summary.top_functions)
    std::fprintf(stderr, "interval %.4f %.4f %s\n", f.share_low, f.share_high, f.function.c_str());
  for (const perf::sampled_thread& t : summary.threads)
    std::fprintf(stderr, "thread %ld %llu %s\n", t.tid, static_cast<unsigned long long>(t.samples),
                 t.top_functions.empty() ? "-" : t.top_functions.front().function.c_str());
  std::fprintf(stderr, "total %llu\n", static_cast<unsigned long long>(summary.total));
  if (summary.hz != 0) {
    std::fprintf(stderr, "interrupts %llu\n", static_cast<unsigned long long>(summary.interrupts));
    std::fprintf(stderr, "source %s\n", summary.source.c_str());
    std::fprintf(stderr, "cpu_ms %.0f\n", cpu_ms);
    std::fprintf(stderr, "main_cpu_ms %.0f\n", cpu_ms - cpu_before_main);
  }
  std::fprintf(stderr, "probe %llu\n", static_cast<unsigned long long>(summary.probe_samples));
  return status;
}
