// fork(): the child starts with empty statistics; the parent keeps its own.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include "perf/perf.hpp"
#include "snapshot_lookup.hpp"

namespace perf {
namespace {

using testing::stats_of;

void forked_work() { PERF_MEASURE("fork_test.work"); }

TEST(Fork, TheChildStartsEmptyAndTheParentKeepsItsCounts) {
  for (int i = 0; i < 7; ++i) forked_work();
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    const bool empty = stats_of("fork_test.work").calls == 0;
    for (int i = 0; i < 2; ++i) forked_work();
    const bool counts_own_calls = stats_of("fork_test.work").calls == 2;
    _exit(empty && counts_own_calls ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "the child saw the parent's calls, or lost its own";
  EXPECT_EQ(stats_of("fork_test.work").calls, 7u);
}

void forks_inside_a_measured_call(pid_t& child) {
  PERF_MEASURE("fork_test.open_at_fork");
  child = fork();
}

TEST(Fork, AnActivationOpenAtForkEndsInBothProcesses) {
  pid_t child = -1;
  forks_inside_a_measured_call(child);
  ASSERT_GE(child, 0);
  if (child == 0) _exit(stats_of("fork_test.open_at_fork").calls == 1 ? 0 : 1);
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  EXPECT_EQ(stats_of("fork_test.open_at_fork").calls, 1u);
}

}  // namespace
}  // namespace perf
