// perf:enter and perf:exit (perf/detail/usdt.hpp): the probes themselves, their
// semaphores and their notes (.note.stapsdt), all in libperfrt, so that a tracer
// attaches to every measured site of every program by the library's path. Built
// without sys/sdt.h (PERF_USDT off), the semaphores stay 0 and nothing fires.
#include "measure/usdt_probes.hpp"

#include "core/clock.hpp"
#include "core/sites.hpp"
#include "perf/detail/usdt.hpp"

#if PERF_USDT
// sys/sdt.h then names each probe's semaphore in its note, for a tracer to raise.
#define _SDT_HAS_SEMAPHORES 1
#include <sys/sdt.h>
// sys/sdt.h's section for them; hidden: the notes name this module's own.
#define PERF_USDT_SEMAPHORE __attribute__((section(".probes"), visibility("hidden")))
#else
#define PERF_USDT_SEMAPHORE
#endif

namespace {
constinit thread_local bool silenced = false;
}

// sys/sdt.h's names: <provider>_<probe>_semaphore.
extern "C" {
PERF_USDT_SEMAPHORE volatile unsigned short perf_enter_semaphore = 0;
PERF_USDT_SEMAPHORE volatile unsigned short perf_exit_semaphore = 0;
}

const volatile unsigned short* const perf::detail::usdt_enter_semaphore = &perf_enter_semaphore;
const volatile unsigned short* const perf::detail::usdt_exit_semaphore = &perf_exit_semaphore;

void perf::detail::usdt_enter([[maybe_unused]] const thread_state& thread, [[maybe_unused]] unsigned site) noexcept {
#if PERF_USDT
  if (silenced) return;
  const char* const name = runtime::site_name(site);
  const uint64_t now = clock_now(thread.clock);
  STAP_PROBE3(perf, enter, site, name, now);
#endif
}

void perf::detail::usdt_exit([[maybe_unused]] const thread_state& thread, [[maybe_unused]] unsigned site,
                             [[maybe_unused]] uint64_t start, [[maybe_unused]] uint64_t now) noexcept {
#if PERF_USDT
  if (silenced) return;
  const char* const name = runtime::site_name(site);
  const double ticks = now > start ? static_cast<double>(now - start) : 0.0;
  const uint64_t elapsed_ns = static_cast<uint64_t>(ticks / runtime::quick_ticks_per_ns(thread.clock) + 0.5);
  STAP_PROBE4(perf, exit, site, name, now, elapsed_ns);
#endif
}

bool perf::runtime::usdt_attached() noexcept { return (perf_enter_semaphore | perf_exit_semaphore) != 0; }

perf::runtime::silenced_usdt_probes::silenced_usdt_probes() noexcept { silenced = true; }
perf::runtime::silenced_usdt_probes::~silenced_usdt_probes() { silenced = false; }
