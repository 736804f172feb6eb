// What killed the process, on which thread, as both records of a crash say it: the
// plain dump's header (crash_dump.cpp) and the crash trace's note (crash_trace.cpp).
// Async-signal-safe.
#ifndef PERF_RUNTIME_TICKLOG_INTERNAL_CRASH_CAUSE_HPP
#define PERF_RUNTIME_TICKLOG_INTERNAL_CRASH_CAUSE_HPP

#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdint>

#include "core/signals.hpp"

namespace perf::runtime {

// "SIGSEGV on thread 4242 (worker), faulting address 0x7f3a5c000000" for a fault
// (si_addr: the address for SIGSEGV and SIGBUS, the instruction for SIGFPE and SIGILL),
// "SIGABRT on thread 4242 (main), sent by pid 4242" for a signal sent (abort, raise,
// kill), written to `out` (its text(), number() and hex()). The handler runs on the
// thread the signal was delivered to, the faulting one for a fault.
template <class Out>
void write_crash_cause(Out& out, int signal, const siginfo_t* info) noexcept {
  char name[16] = {};
  ::prctl(PR_GET_NAME, name);
  out.text(fatal_signal_name(signal));
  out.text(" on thread ");
  out.number(static_cast<uint64_t>(::syscall(SYS_gettid)));
  out.text(" (");
  out.text(name);
  out.text(")");
  if (info == nullptr) return;
  if (info->si_code > 0) {
    out.text(", faulting address ");
    out.hex(reinterpret_cast<uintptr_t>(info->si_addr));
  } else {
    out.text(", sent by pid ");
    out.number(static_cast<uint64_t>(info->si_pid));
  }
}

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_TICKLOG_INTERNAL_CRASH_CAUSE_HPP
