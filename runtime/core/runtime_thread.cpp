#include "core/runtime_thread.hpp"

#include <pthread.h>
#include <signal.h>

#include <initializer_list>

namespace perf::runtime {

void block_asynchronous_signals() {
  sigset_t signals;
  sigfillset(&signals);
  for (int fault : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP}) sigdelset(&signals, fault);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
}

}  // namespace perf::runtime
