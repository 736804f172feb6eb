#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>

#include "compare/processes.hpp"
#include "compare/round_order.hpp"
#include "compare/statistics.hpp"
#include "perf/compare.hpp"

namespace perf {

namespace {

using clock_function = std::function<std::uint64_t()>;

clock_function clock_or_steady(const clock_function& clock) {
  if (clock) return clock;
  return [] {
    return static_cast<std::uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
            .count());
  };
}

// The smallest step between two reads that differ.
std::uint64_t clock_resolution(const clock_function& now) {
  constexpr int steps = 64;
  constexpr int reads_without_a_step = 1000000;
  std::uint64_t smallest = std::numeric_limits<std::uint64_t>::max();
  for (int step = 0; step < steps; ++step) {
    const std::uint64_t first = now();
    std::uint64_t second = now();
    for (int reads = 0; second == first; ++reads) {
      if (reads == reads_without_a_step) throw std::runtime_error("perf::comparison: the clock does not advance");
      second = now();
    }
    smallest = std::min(smallest, second - first);
  }
  return smallest;
}

std::uint64_t time_batch(const clock_function& now, const detail::compare_entry& entry, std::size_t calls) {
  const std::uint64_t start = now();
  entry.batch(entry.callable.get(), calls);
  return now() - start;
}

// The number of calls (a power of two) that makes every callable's batch last `target`.
std::size_t calibrate(const std::vector<detail::compare_entry>& entries, const clock_function& now,
                      std::uint64_t target) {
  // Work of even one cycle a call reaches any sane target (1000 resolutions of a clock)
  // long before 2^24 calls; and a loop that was not optimised away (a sanitizer build)
  // still gives up on empty work within a fraction of a second.
  constexpr std::size_t most_calls = std::size_t{1} << 24;
  for (std::size_t calls = 1;; calls *= 2) {
    std::uint64_t fastest = std::numeric_limits<std::uint64_t>::max();
    const detail::compare_entry* fastest_entry = nullptr;
    for (const detail::compare_entry& entry : entries) {
      const std::uint64_t time = time_batch(now, entry, calls);
      if (time < fastest) fastest = time, fastest_entry = &entry;
    }
    if (fastest >= target) return calls;
    if (calls == most_calls)
      throw std::logic_error("perf::comparison: '" + fastest_entry->name +
                             "' takes no measurable time: was its work optimised away? Return its result.");
  }
}

void check_results(const std::vector<detail::compare_entry>& entries) {
  const detail::compare_entry& reference = entries.front();
  const detail::call_result expected = reference.call_once(reference.callable.get());
  const std::string prefix = "perf::comparison: check_results: ";
  if (expected.type == nullptr)
    throw std::logic_error(prefix + "the reference '" + reference.name + "' returns nothing");
  if (expected.equal == nullptr)
    throw std::logic_error(prefix + "the result of the reference '" + reference.name + "' has no operator==");
  for (std::size_t i = 1; i < entries.size(); ++i) {
    const detail::call_result got = entries[i].call_once(entries[i].callable.get());
    if (got.type == nullptr || *got.type != *expected.type)
      throw std::logic_error(prefix + "'" + entries[i].name + "' returns another type than the reference '" +
                             reference.name + "'");
    if (!expected.equal(expected.value.get(), got.value.get()))
      throw std::logic_error(prefix + "'" + entries[i].name + "' returned another result than the reference '" +
                             reference.name + "'");
  }
}

std::vector<double> log_ratios(const std::vector<std::uint64_t>& candidate,
                               const std::vector<std::uint64_t>& reference) {
  std::vector<double> ratios(candidate.size());
  for (std::size_t round = 0; round < candidate.size(); ++round)
    ratios[round] = std::log(static_cast<double>(candidate[round]) / static_cast<double>(reference[round]));
  return ratios;
}

bool precise_enough(const std::vector<std::vector<std::uint64_t>>& times, double alpha, double precision) {
  const double widest = std::log1p(precision);
  for (std::size_t candidate = 1; candidate < times.size(); ++candidate) {
    const compare_impl::log_ratio_summary summary =
        compare_impl::summarize(log_ratios(times[candidate], times[0]), alpha);
    if (summary.upper - summary.median > widest || summary.median - summary.lower > widest) return false;
  }
  return true;
}

compared summarize_row(const detail::compare_entry& entry, bool is_reference,
                       const std::vector<std::uint64_t>& batch_ns, const std::vector<std::uint64_t>& reference_ns,
                       std::size_t calls, double alpha) {
  compared row;
  row.name = entry.name;
  row.is_reference = is_reference;
  row.batch_ns = batch_ns;
  std::vector<double> per_call(batch_ns.size());
  std::transform(batch_ns.begin(), batch_ns.end(), per_call.begin(),
                 [&](std::uint64_t time) { return static_cast<double>(time) / static_cast<double>(calls); });
  std::sort(per_call.begin(), per_call.end());
  row.ns_per_call = compare_impl::quantile(per_call, 0.5);
  row.spread = (compare_impl::quantile(per_call, 0.75) - compare_impl::quantile(per_call, 0.25)) / 2 / row.ns_per_call;
  if (!is_reference) {
    const compare_impl::log_ratio_summary summary = compare_impl::summarize(log_ratios(batch_ns, reference_ns), alpha);
    row.ratio = std::exp(summary.median);
    row.interval = {std::exp(summary.lower), std::exp(summary.upper)};
    row.outlier_rounds = summary.outliers;
  }
  return row;
}

std::size_t round_up(std::size_t value, std::size_t multiple) { return (value + multiple - 1) / multiple * multiple; }

}  // namespace

comparison::comparison(comparison_options options) : options_(std::move(options)) {}

void comparison::add(bool is_reference, detail::compare_entry entry) {
  for (const detail::compare_entry& other : entries_)
    if (other.name == entry.name) throw std::logic_error("perf::comparison: two callables named '" + entry.name + "'");
  if (!is_reference) {
    entries_.push_back(std::move(entry));
    return;
  }
  if (has_reference_) throw std::logic_error("perf::comparison: a second reference '" + entry.name + "'");
  has_reference_ = true;
  entries_.insert(entries_.begin(), std::move(entry));
}

comparison_result comparison::run() {
  if (!has_reference_ || entries_.size() < 2)
    throw std::logic_error("perf::comparison: run() needs a reference and at least one candidate");
  const std::size_t ordinal = compare_impl::next_run_ordinal();
  const std::optional<compare_impl::child_task> task = compare_impl::child_task_from_environment();
  const clock_function now = clock_or_steady(options_.clock);
  const std::uint64_t start = now();
  const auto budget = static_cast<std::uint64_t>(options_.budget.count());
  if (options_.check_results) check_results(entries_);

  comparison_result result;
  result.confidence = options_.confidence;
  result.precision = options_.precision;
  result.batch_calls = calibrate(entries_, now, clock_resolution(now) * options_.batch_resolutions);
  compare_impl::round_sequence orders(entries_.size(), options_.order, options_.seed);
  for (std::size_t round = 0; round < options_.warmup_rounds; ++round)
    for (std::size_t index : orders.next()) time_batch(now, entries_[index], result.batch_calls);

  const double alpha = (1 - options_.confidence) / static_cast<double>(entries_.size() - 1);
  std::vector<std::vector<std::uint64_t>> times(entries_.size());
  std::size_t next_check = round_up(std::max<std::size_t>(options_.min_rounds, 1), orders.cycle());
  for (;;) {
    for (std::size_t index : orders.next())
      times[index].push_back(time_batch(now, entries_[index], result.batch_calls));
    ++result.rounds;
    if (result.rounds == next_check) {
      if (precise_enough(times, alpha, options_.precision)) {
        result.stop = stop_reason::precision;
        break;
      }
      next_check = round_up(std::max(result.rounds + 1, result.rounds * 21 / 20), orders.cycle());
    }
    if (now() - start >= budget) {
      result.stop = stop_reason::budget;
      break;
    }
  }
  for (std::size_t index = 0; index < entries_.size(); ++index)
    result.rows.push_back(
        summarize_row(entries_[index], index == 0, times[index], times[0], result.batch_calls, alpha));
  if (task) {
    if (task->ordinal == ordinal) compare_impl::hand_to_parent(*task, result);
  } else if (options_.processes > 1) {
    for (compared& row : result.rows) row.process_ratios = {row.ratio};
    for (const std::vector<double>& child : compare_impl::ratios_from_children(ordinal, options_.processes - 1))
      for (std::size_t index = 0; index < result.rows.size() && index < child.size(); ++index)
        result.rows[index].process_ratios.push_back(child[index]);
  }
  return result;
}

series_result comparison::series(unsigned max_exponent, unsigned samples) {
  if (entries_.empty()) throw std::logic_error("perf::comparison: series() needs at least one callable");
  const clock_function now = clock_or_steady(options_.clock);
  compare_impl::round_sequence orders(entries_.size(), options_.order, options_.seed);
  series_result result;
  std::vector<double> ns_per_call(entries_.size());
  std::uint64_t calls = 1;
  for (unsigned exponent = 0; exponent <= max_exponent; ++exponent, calls *= 10) {
    for (unsigned sample = 0; sample < samples; ++sample) {
      for (std::size_t index : orders.next())
        ns_per_call[index] = static_cast<double>(time_batch(now, entries_[index], calls)) / static_cast<double>(calls);
      for (std::size_t index = 0; index < entries_.size(); ++index)
        result.points.push_back({entries_[index].name, exponent, calls, sample, ns_per_call[index]});
    }
  }
  return result;
}

}  // namespace perf
