// The probe's cost, measured at start-up the way a careful benchmark measures its
// own loop, and handed to every thread's block so that the hot path subtracts it.
#include "measure/probe_cost.hpp"

#include <sched.h>
#include <time.h>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iterator>
#include <string_view>

#include "core/next_signal_functions.hpp"
#include "core/random_bits.hpp"
#include "core/settings.hpp"
#include "core/settled_config.hpp"
#include "core/startup.hpp"
#include "core/threads.hpp"
#include "core/warnings.hpp"
#include "measure/adaptive_timing.hpp"
#include "measure/probe_floor.hpp"
#include "measure/usdt_probes.hpp"
#include "perf/measure.hpp"
#include "report_format/schema.hpp"

namespace perf::runtime {
namespace {

// The site the calibration measures on, its key read as the real probe reads it.
constinit detail::site calibration_site = {"perf.probe_calibration", "", 0, detail::site_key(1, 1)};

// measure.hpp's begin<true, true, FastPath>, called as PERF_MEASURE calls it (out of
// line), on the calibration block (calibration_block_in_place): adaptive timing's fast
// path first unless the scope took it inline (begin_scope).
template <bool FastPath>
__attribute__((noinline)) detail::thread_state* calibration_begin(detail::frame& f) noexcept {
  detail::thread_state* thread = detail::current_thread;
  if (FastPath && detail::untimed_call(thread, calibration_site)) return nullptr;
  const unsigned key = __atomic_load_n(&calibration_site.key, __ATOMIC_RELAXED);
  if (PERF_DETAIL_UNLIKELY(thread == nullptr || key == 0)) return nullptr;
  uint64_t probe_offset = thread->probe_offset;
  detail::slot& target = thread->slots[detail::site_id(key)];
  if (PERF_DETAIL_UNLIKELY(target.period != 0)) {
    target.countdown = geometric_countdown(*thread, target.period);
    probe_offset -= thread->probe_sampled_extra;
  }
  if (PERF_DETAIL_UNLIKELY(*detail::usdt_enter_semaphore != 0)) detail::usdt_enter(*thread, detail::site_id(key));
  detail::open<true>(*thread, key, f, PERF_DETAIL_CALLER_STACK(), probe_offset);
  return thread;
}

// An empty function measured exactly as PERF_MEASURE measures one (basic_scope and
// begin_scope, the fast path where they take it): untimed while the site's countdown is
// above 1, sampled while its period is not 0.
__attribute__((noinline)) void measured_empty_function() {
  detail::frame f;
  detail::thread_state* const thread =
      PERF_DETAIL_INLINE_FAST_PATH
          ? (detail::untimed_call(detail::current_thread, calibration_site) ? nullptr : calibration_begin<false>(f))
          : calibration_begin<true>(f);
  __asm__ __volatile__("");
  if (thread != nullptr) detail::end<true>(thread, f);
}

__attribute__((noinline)) void empty_function() { __asm__ __volatile__(""); }

// The calibration's block in the calling thread's place (current_thread), as end()
// wants the block it closes on, with every signal blocked meanwhile: a handler's
// measured call would write the block's three slots with its own site's id.
class calibration_block_in_place {
 public:
  explicit calibration_block_in_place(detail::thread_state& block) noexcept : thread_(detail::current_thread) {
    sigset_t all;
    sigfillset(&all);
    next_signal::pthread_sigmask(SIG_BLOCK, &all, &mask_);
    detail::current_thread = &block;
  }
  ~calibration_block_in_place() {
    detail::current_thread = thread_;
    next_signal::pthread_sigmask(SIG_SETMASK, &mask_, nullptr);
  }
  calibration_block_in_place(const calibration_block_in_place&) = delete;
  calibration_block_in_place& operator=(const calibration_block_in_place&) = delete;

 private:
  detail::thread_state* const thread_;
  sigset_t mask_;
  const silenced_usdt_probes silenced_;  // the block's site ids are not the program's
};

void compensate_attaching_thread(thread_record& thread) {
  const compensation& c = current_compensation();
  set_compensation(thread.state, c.cost, c.on);
}

double process_cpu_ns() {
  timespec cpu{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu);
  return static_cast<double>(cpu.tv_sec) * 1e9 + static_cast<double>(cpu.tv_nsec);
}

// How many calls one measurement makes: `batches` interleaved batches (the first only
// warms up) of `calls` calls of each kind, and as many of `sampled_calls` sampled ones
// (none: inside_sampled is then taken as inside).
struct measurement_shape {
  unsigned batches;
  unsigned calls;
  unsigned sampled_calls;
};
constexpr unsigned most_batches = 33;
// At start-up: a fraction of a millisecond.
constexpr measurement_shape settling_shape{most_batches, 128, 1024};
// While the program runs (probe_checks.hpp): about 2,000 calls, 40 us, no sampled ones.
// Batches as long as the settling ones: with a quarter of the calls, the figure came
// out 15-20% higher than the settled one on the dev VM, quiet or not.
constexpr measurement_shape checking_shape{5, 128, 0};

// What one measurement works in, set aside once: a measurement while the program runs
// may not allocate (it may run in a signal handler's measured call), and one at a time
// uses it (room_taken).
struct measurement_room {
  static constexpr uint32_t arena_blocks = 4;
  detail::slot slots[3];  // [1]: the measured function's, [2]: its caller's
  uint64_t arena[arena_blocks * detail::histogram_block_size];
  detail::tick_event events[1024];
  double outside[most_batches], inside[most_batches], untimed[most_batches], inside_sampled[most_batches];
};
measurement_room room;
int room_taken = 0;

// The median of the `n` figures at `v` (reordered), never below 0.
double median(double* v, size_t n) {
  std::nth_element(v, v + n / 2, v + n);
  return std::max(0.0, v[n / 2]);
}

// One measurement in `room` (held by the caller): interleaved batches of calls to the
// empty plain function and the empty measured one; each figure is the median over the
// batches of a measured loop less the plain loop of its own batch (an interrupt
// lengthens a batch or two, not the median; two minima from different batches differed
// by more than a 2 ns function's tenth between processes).
probe_cost measure_in(measurement_room& r, detail::clock_source clock, bool ticks, const measurement_shape& shape) {
  const unsigned batches = shape.batches, calls = shape.calls, sampled_calls = shape.sampled_calls;
  // Sampled calls, about 1 in sampled_period timed, at random: a sampled leaf's timed
  // calls, whose inside part can differ from every call timed.
  constexpr uint32_t sampled_period = 32;
  for (detail::slot& slot : r.slots) slot = detail::slot{};
  std::fill(std::begin(r.arena), std::end(r.arena), uint64_t{0});  // histogram blocks start empty
  detail::tick_ring ring{0, std::size(r.events) - 1, r.events, nullptr, false, 0};
  detail::thread_state block{};
  block.slots = r.slots;
  block.ring = ticks ? &ring : nullptr;
  block.clock = clock;
  block.arena = r.arena;
  block.arena_used = 1;
  block.arena_capacity = measurement_room::arena_blocks;
  block.random = fresh_seed(&block);
  detail::slot& recorded = r.slots[1];

  uint64_t plain = UINT64_MAX;
  size_t kept = 0, sampled_kept = 0;  // figures per batch, beyond its plain loop
  const calibration_block_in_place in_place(block);
  for (unsigned batch = 0; batch < batches; ++batch) {
    // Inside a measured caller, where a callee's cost matters: finishing a call then
    // also charges the caller.
    detail::frame caller;
    detail::open<false>(block, detail::site_key(2, 2), caller, PERF_DETAIL_CALLER_STACK(), block.probe_offset);
    const uint64_t plain_start = detail::clock_now(clock);
    for (unsigned i = 0; i < calls; ++i) empty_function();
    const uint64_t measured_start = detail::clock_now(clock);
    const uint64_t recorded_before = recorded.total;
    for (unsigned i = 0; i < calls; ++i) measured_empty_function();
    const uint64_t measured_end = detail::clock_now(clock);
    recorded.countdown = UINT32_MAX;  // every call untimed
    for (unsigned i = 0; i < calls; ++i) measured_empty_function();
    const uint64_t untimed_end = detail::clock_now(clock);
    recorded.countdown = 0;
    detail::end<false>(&block, caller);
    if (batch == 0) continue;
    const uint64_t plain_loop = measured_start - plain_start;
    plain = std::min(plain, plain_loop);
    const auto beyond = [&](uint64_t loop) {
      return (static_cast<double>(loop) - static_cast<double>(plain_loop)) / calls;
    };
    r.outside[kept] = beyond(measured_end - measured_start);
    r.untimed[kept] = beyond(untimed_end - measured_end);
    r.inside[kept++] = beyond(recorded.total - recorded_before);
  }
  // Apart, after: a sampled loop trains the branches the other way, which lengthened
  // the next batch's timed calls by 2 ns (inside 26 ticks instead of 20 on the dev VM).
  for (unsigned batch = 0; sampled_calls != 0 && batch < batches; ++batch) {
    detail::frame caller;
    detail::open<false>(block, detail::site_key(2, 2), caller, PERF_DETAIL_CALLER_STACK(), block.probe_offset);
    const uint64_t plain_start = detail::clock_now(clock);
    for (unsigned i = 0; i < calls; ++i) empty_function();
    const uint64_t plain_loop = detail::clock_now(clock) - plain_start;
    recorded.period = sampled_period;
    recorded.countdown = geometric_countdown(block, sampled_period);
    const uint64_t untimed_before = recorded.untimed, total_before = recorded.total;
    for (unsigned i = 0; i < sampled_calls; ++i) measured_empty_function();
    const uint64_t sampled_timed = sampled_calls - (recorded.untimed - untimed_before);
    const uint64_t sampled_total = recorded.total - total_before;
    recorded.period = recorded.countdown = 0;
    detail::end<false>(&block, caller);
    if (batch == 0 || sampled_timed == 0) continue;
    r.inside_sampled[sampled_kept++] = static_cast<double>(sampled_total) / static_cast<double>(sampled_timed) -
                                       static_cast<double>(plain_loop) / calls;
  }
  // An empty measured function should record what the same function takes unmeasured.
  const double inside_every_call = median(r.inside, kept);
  return {median(r.outside, kept), inside_every_call, static_cast<double>(plain) / calls, median(r.untimed, kept),
          sampled_kept == 0 ? inside_every_call : median(r.inside_sampled, sampled_kept)};
}

bool agree(const probe_cost& a, const probe_cost& b) {
  constexpr double tolerance = 0.03;
  return std::fabs(a.outside - b.outside) <= tolerance * std::min(a.outside, b.outside);
}

}  // namespace

settled_probe_cost settle_probe_cost(const std::function<probe_cost()>& measure,
                                     const std::optional<probe_cost>& known) {
  constexpr int least_measurements = 3, most_measurements = 12;
  settled_probe_cost settled;
  if (known) {
    settled.cost = *known;
    settled.confirmed = true;
  } else {
    settled.cost = measure();
    settled.highest_outside = settled.cost.outside;
    settled.measurements = 1;
  }
  const int least = known ? 1 : least_measurements;
  while (settled.measurements < most_measurements && !(settled.confirmed && settled.measurements >= least)) {
    if (settled.measurements != 0) {
      // Apart in time: a busy spell of the host lasts milliseconds.
      const timespec pause{0, 1'000'000};
      nanosleep(&pause, nullptr);
    }
    const probe_cost next = measure();
    ++settled.measurements;
    settled.highest_outside = std::max(settled.highest_outside, next.outside);
    if (agree(next, settled.cost)) settled.confirmed = true;
    else if (next.outside < settled.cost.outside) settled.confirmed = false;  // a new floor, not confirmed yet
    if (next.outside < settled.cost.outside) settled.cost = next;
  }
  settled.new_floor = settled.confirmed && (!known || settled.cost.outside < known->outside);
  if (!known || settled.measurements != 1) return settled;
  const double above_floor = (1 + floor_raise_margin) * known->outside;
  if (settled.highest_outside <= above_floor) return settled;
  // A first measurement above the known floor: settled again as without one, a lower
  // confirmed figure taken as a new floor, one still that far above kept apart.
  settled_probe_cost own = settle_probe_cost(measure);
  own.measurements += settled.measurements;
  own.highest_outside = std::max(own.highest_outside, settled.highest_outside);
  if (own.confirmed && own.cost.outside < known->outside) return own;  // new_floor: confirmed and lower
  if (own.confirmed && own.cost.outside > above_floor) settled.above = own.cost;
  settled.undecided = !own.confirmed;
  settled.measurements = own.measurements;
  settled.highest_outside = own.highest_outside;
  return settled;
}

namespace {

// One measurement of `shape` in the room, once it is free (`wait`), or none while it is
// taken.
std::optional<probe_cost> measure_in_room(detail::clock_source clock, bool ticks, const measurement_shape& shape,
                                          bool wait) noexcept {
  while (__atomic_exchange_n(&room_taken, 1, __ATOMIC_ACQUIRE) != 0) {
    if (!wait) return std::nullopt;
    sched_yield();
  }
  const probe_cost cost = measure_in(room, clock, ticks, shape);
  __atomic_store_n(&room_taken, 0, __ATOMIC_RELEASE);
  return cost;
}

}  // namespace

probe_cost measure_probe_cost(detail::clock_source clock, bool ticks) {
  return *measure_in_room(clock, ticks, settling_shape, true);
}

std::optional<probe_cost> try_measure_probe_cost_briefly(detail::clock_source clock, bool ticks) noexcept {
  return measure_in_room(clock, ticks, checking_shape, false);
}

compensation_config parse_compensation_config(const std::function<const char*(const char*)>& getenv_fn) {
  compensation_config result;
  if (const char* value = getenv_fn("PERF_COMPENSATE"); value != nullptr && *value != '\0') {
    const std::string_view text = value;
    if (text == "off") result.on = false;
    else if (text != "on")
      result.warnings.push_back(
          fmt::format("PERF_COMPENSATE='{}' is neither on nor off; the probe's cost is subtracted", text));
  }
  return result;
}

void set_compensation(detail::thread_state& thread, const probe_cost& cost, bool on) {
  constexpr uint64_t units_per_tick = uint64_t{1} << detail::probe_fraction_bits;
  if (!on) {
    thread.probe_outside = thread.probe_offset = thread.probe_untimed = thread.probe_sampled_extra = 0;
    return;
  }
  const auto units = [](double ticks) { return static_cast<uint64_t>(std::llround(ticks * units_per_tick)); };
  thread.probe_outside = units(cost.outside);
  thread.probe_untimed = units(cost.untimed);
  thread.probe_sampled_extra = units(cost.inside_sampled) - units(cost.inside);
  // Half a tick less, so that finish()'s truncation of the cost to whole ticks rounds it.
  thread.probe_offset = units(cost.outside) - units(cost.inside) - units_per_tick / 2;
}

void add_probe_figures(snapshot& s, const compensation& c, double ticks_per_ns) {
  s.clock.probe_ns = c.cost.outside / ticks_per_ns;
  s.clock.probe_inside_ns = c.cost.inside / ticks_per_ns;
  s.clock.probe_high_ns = c.calibration.highest_outside / ticks_per_ns;
  s.clock.compensated = c.on;
  const double untimed_ns = c.cost.untimed / ticks_per_ns;
  probe_overhead& o = s.overhead;
  o.untimed_ns = untimed_ns;
  for (function_stats& f : s.functions) {
    f.probe_dominated = report_format::probe_dominated(f.p50_ns, c.on ? 0 : s.clock.probe_inside_ns, s.clock.probe_ns);
    // A timed call costs the probe, an untimed one (adaptive timing) its own small cost.
    const double cost_ns = static_cast<double>(f.timed_calls) * s.clock.probe_ns +
                           static_cast<double>(f.calls - f.timed_calls) * untimed_ns;
    o.calls += f.calls;
    o.untimed_calls += f.calls - f.timed_calls;
    o.ns += cost_ns;
    if (!f.probe_dominated) continue;
    ++o.dominated_functions;
    o.dominated_calls += f.calls;
    o.dominated_ns += cost_ns;
  }
  o.process_cpu_ns = process_cpu_ns();
}

double least_call_ns(const compensation& c, double ticks_per_ns) { return c.on ? c.cost.empty_call / ticks_per_ns : 0; }

namespace {
const compensation* settled_one = nullptr;  // current_compensation()'s, once settled
}  // namespace

const compensation& current_compensation() {
  static const compensation* const the_compensation = [] {
    const compensation_config config = parse_compensation_config([](const char* name) { return std::getenv(name); });
    for (const std::string& warning : config.warnings) warn(warning);
    const settings& chosen = current_settings();
    const bool ticks = chosen.environment.ticks;
    // The floor kept by earlier processes: under a key that a change of the probe's
    // code (the calibration's copy of it) changes.
    const probe_floor_config& floors = settled_config<probe_floor_config, parse_probe_floor_config>();
    const std::string key =
        floors.path.empty()
            ? std::string()
            : probe_floor_key(chosen.clock, ticks, reinterpret_cast<const void*>(&measured_empty_function), 512);
    const std::optional<kept_floor> known = floors.path.empty() ? std::nullopt : read_probe_floor(floors.path, key);
    const settled_probe_cost settled = settle_probe_cost([&] { return measure_probe_cost(chosen.clock, ticks); },
                                                         known ? std::optional(known->floor) : std::nullopt);
    const floor_choice choice = choose_floor(known, settled);
    // Kept by the processes that subtract it: one with PERF_COMPENSATE=off (every call
    // timed) measured the probe half as dear again here, and would count as above it.
    if (choice.write && !floors.path.empty() && config.on) {
      const std::string problem = write_probe_floor(floors.path, key, *choice.write);
      if (!problem.empty() && floors.named) warn("PERF_PROBE_FLOOR: the probe's floor is not kept: " + problem);
    }
    const compensation* const made = new compensation{choice.use, config.on, settled};
    __atomic_store_n(&settled_one, made, __ATOMIC_RELEASE);
    return made;
  }();
  return *the_compensation;
}

const compensation* settled_compensation() noexcept { return __atomic_load_n(&settled_one, __ATOMIC_ACQUIRE); }

PERF_RUNTIME_ON_START(register_compensation) {
  current_compensation();
  add_thread_hooks({.attach = compensate_attaching_thread});
}

}  // namespace perf::runtime
