#include "rank_test.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace perf::perf_report {
namespace {

constexpr size_t exact_limit = 40;  // values in all: the DP below costs (n + m) * n * sum, 40 * 20 * 1640

// Twice the mid-ranks of the pooled values (integers), the first `a_count` a's.
std::vector<long> doubled_midranks(const std::vector<double>& pooled) {
  std::vector<size_t> order(pooled.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](size_t x, size_t y) { return pooled[x] < pooled[y]; });
  std::vector<long> ranks(pooled.size());
  for (size_t i = 0; i < order.size();) {
    size_t j = i;
    while (j + 1 < order.size() && pooled[order[j + 1]] == pooled[order[i]]) ++j;
    const long doubled = static_cast<long>(i + j + 2);  // (i+1 + j+1), twice the mid-rank
    for (size_t k = i; k <= j; ++k) ranks[order[k]] = doubled;
    i = j + 1;
  }
  return ranks;
}

// The permutation distribution of the sum of `take` of `ranks`: ways[s] for each sum s.
std::vector<double> subset_sum_ways(const std::vector<long>& ranks, size_t take) {
  const long total = std::accumulate(ranks.begin(), ranks.end(), 0L);
  // ways[c][s]: subsets of c of the ranks seen so far summing to s
  std::vector<std::vector<double>> ways(take + 1, std::vector<double>(static_cast<size_t>(total) + 1, 0));
  ways[0][0] = 1;
  for (const long r : ranks)
    for (size_t c = take; c >= 1; --c)
      for (long s = total; s >= r; --s) ways[c][static_cast<size_t>(s)] += ways[c - 1][static_cast<size_t>(s - r)];
  return ways[take];
}

double normal_two_sided(double z) { return std::erfc(std::abs(z) / std::sqrt(2.0)); }

// The z quantile of 1 - error/2.
double z_of(double error) {
  // Bisection on erfc: exact enough (1e-12) and needs no table.
  double low = 0, high = 40;
  for (int i = 0; i < 200; ++i) {
    const double mid = (low + high) / 2;
    (normal_two_sided(mid) > error ? low : high) = mid;
  }
  return (low + high) / 2;
}

}  // namespace

double rank_sum_p(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.empty() || b.empty()) return 1;
  std::vector<double> pooled(a);
  pooled.insert(pooled.end(), b.begin(), b.end());
  const std::vector<long> ranks = doubled_midranks(pooled);
  const long observed = std::accumulate(ranks.begin(), ranks.begin() + static_cast<long>(a.size()), 0L);
  const double n = static_cast<double>(a.size()), big_n = static_cast<double>(pooled.size());
  const double expected = n * (big_n + 1);  // doubled
  if (pooled.size() <= exact_limit) {
    const std::vector<double> ways = subset_sum_ways(ranks, a.size());
    double extreme = 0, all = 0;
    const double distance = std::abs(static_cast<double>(observed) - expected) - 1e-9;
    for (size_t s = 0; s < ways.size(); ++s) {
      all += ways[s];
      if (std::abs(static_cast<double>(s) - expected) >= distance) extreme += ways[s];
    }
    return std::min(1.0, extreme / all);
  }
  // Normal approximation: variance of the rank sum with ties (doubled: times 4).
  double ties = 0;
  std::vector<long> sorted = ranks;
  std::sort(sorted.begin(), sorted.end());
  for (size_t i = 0; i < sorted.size();) {
    size_t j = i;
    while (j < sorted.size() && sorted[j] == sorted[i]) ++j;
    const double t = static_cast<double>(j - i);
    ties += t * t * t - t;
    i = j;
  }
  const double m = big_n - n;
  const double variance = 4 * n * m / 12 * ((big_n + 1) - ties / (big_n * (big_n - 1)));
  if (variance <= 0) return 1;
  return normal_two_sided((static_cast<double>(observed) - expected) / std::sqrt(variance));
}

shift_interval hodges_lehmann(const std::vector<double>& a, const std::vector<double>& b, double error) {
  shift_interval result{0, -std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity()};
  if (a.empty() || b.empty()) return result;
  std::vector<double> differences;
  differences.reserve(a.size() * b.size());
  for (double x : a)
    for (double y : b) differences.push_back(y - x);
  std::sort(differences.begin(), differences.end());
  const size_t count = differences.size();
  result.estimate = count % 2 ? differences[count / 2] : (differences[count / 2 - 1] + differences[count / 2]) / 2;
  // k: the largest number of differences that may lie below the interval, P(U < k) <= error/2.
  size_t k = 0;
  const size_t n = a.size(), m = b.size();
  if (n + m <= exact_limit) {
    std::vector<long> ranks(n + m);
    std::iota(ranks.begin(), ranks.end(), 1L);
    const std::vector<double> ways = subset_sum_ways(ranks, n);  // rank sums of a; U = W - n(n+1)/2
    const double all = std::accumulate(ways.begin(), ways.end(), 0.0);
    const size_t offset = n * (n + 1) / 2;
    double below = 0;
    while (k < count) {
      below += ways[offset + k] / all;  // P(U <= k)
      if (below > error / 2) break;
      ++k;
    }
  } else {
    const double nm = static_cast<double>(n * m);
    const double spread = z_of(error) * std::sqrt(nm * static_cast<double>(n + m + 1) / 12);
    k = static_cast<size_t>(std::max(0.0, std::floor(nm / 2 - spread)));
  }
  if (k == 0) return result;  // even the extreme differences are within the interval
  result.low = differences[k - 1];
  result.high = differences[count - k];
  return result;
}

std::vector<double> holm_adjusted(const std::vector<double>& p) {
  std::vector<size_t> order(p.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) { return p[x] < p[y]; });
  std::vector<double> adjusted(p.size());
  double running = 0;
  for (size_t i = 0; i < order.size(); ++i) {
    running = std::max(running, std::min(1.0, p[order[i]] * static_cast<double>(p.size() - i)));
    adjusted[order[i]] = running;
  }
  return adjusted;
}

}  // namespace perf::perf_report
