// A living thread's name, read by any thread from its tid.
#include "core/thread_name.hpp"

#include <gtest/gtest.h>
#include <pthread.h>
#include <unistd.h>

#include <future>
#include <thread>

namespace perf::runtime {
namespace {

TEST(ThreadName, AnyThreadReadsAnotherLivingThreadsNameByItsTid) {
  std::promise<long> named;
  std::promise<void> done;
  std::thread worker([&] {
    pthread_setname_np(pthread_self(), "fifteen-letters");
    named.set_value(gettid());
    done.get_future().wait();
  });
  const long tid = named.get_future().get();
  EXPECT_EQ(thread_name(tid), "fifteen-letters");
  done.set_value();
  worker.join();
}

TEST(ThreadName, TheCallingThreadReadsItsOwn) {
  std::thread worker([] {
    pthread_setname_np(pthread_self(), "self-reader");
    EXPECT_EQ(thread_name(gettid()), "self-reader");
  });
  worker.join();
}

}  // namespace
}  // namespace perf::runtime
