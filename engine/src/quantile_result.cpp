// The reads of a finalized quantile store (quantile_store.hpp): order
// statistics, the distribution-free interval (DESIGN §5), fractions at or
// below a value.
#include "lbmc/engine/quantile_store.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include <boost/math/distributions/binomial.hpp>
#include <boost/math/distributions/normal.hpp>

#include "lbmc/engine/math_policy.hpp"
#include "sketch_pages.hpp"

namespace lbmc::engine {
namespace {

namespace bm = boost::math;

// The smallest k with P(Bin(R, α) <= k) >= prob.
std::int64_t binomial_count(std::int64_t count, double alpha, double prob) {
  const bm::binomial_distribution<double, engine::MathPolicy> b(static_cast<double>(count), alpha);
  return static_cast<std::int64_t>(bm::quantile(b, prob));
}

}  // namespace

using namespace sketch_pages;

std::int64_t QuantileResult::count() const noexcept { return store_->count_; }

bool QuantileResult::exact() const noexcept { return store_->exact(); }

double QuantileResult::resolution(double x) const {
  const auto& sketch = store_->sketch_;
  if (!sketch || sketch->integer_keys) return 0.0;
  const Slot slot = float_slot(x);
  const auto it = sketch->pages.find(slot.page);
  if (it == sketch->pages.end() || !it->second.dense()) return 0.0;
  return float_bucket_high(slot.page, slot.bucket) - float_bucket_low(slot.page, slot.bucket);
}

double QuantileResult::order_statistic(std::int64_t rank) const {
  const auto& sketch = store_->sketch_;
  if (!sketch) return sorted_values()[static_cast<std::size_t>(rank - 1)];
  std::int64_t below = 0;
  for (const auto& [key, page] : sketch->pages) {
    if (below + page.count < rank) {
      below += page.count;
      continue;
    }
    const std::int64_t within = rank - below;  // 1-based rank inside the page
    if (!page.dense()) {
      // A page holds at most exact_per_page values: selected in a copy.
      std::vector<double> values = page.values;
      const auto at = values.begin() + (within - 1);
      std::nth_element(values.begin(), at, values.end());
      return *at;
    }
    std::int64_t before = 0;
    for (std::size_t b = 0; b < kBuckets; ++b) {
      const auto here = static_cast<std::int64_t>(bucket_count(page.counts32, page.counts64, b));
      if (before + here < within) {
        before += here;
        continue;
      }
      if (sketch->integer_keys) return integer_value(key, b);
      const double low = float_bucket_low(key, b);
      const double high = float_bucket_high(key, b);
      return low + (high - low) * (static_cast<double>(within - before) / static_cast<double>(here));
    }
  }
  return std::numeric_limits<double>::quiet_NaN();
}

QuantileInterval QuantileResult::interval(double alpha, double level) const {
  const std::int64_t r = count();
  const double inf = std::numeric_limits<double>::infinity();
  if (r == 0) return {-inf, inf};
  const double tail = (1.0 - level) / 2.0;
  // X_(l) <= q_α <= X_(u) with probability >= level for l = k_low and
  // u = k_high + 1 (P(Bin <= l − 1) < tail, P(Bin <= u − 1) >= 1 − tail).
  // With l = 0 or u = R + 1 the bound is beyond the sample: that end is open.
  const std::int64_t k_low = binomial_count(r, alpha, tail);
  const std::int64_t k_high = binomial_count(r, alpha, 1.0 - tail);
  QuantileInterval bounds;
  bounds.low = k_low >= 1 ? order_statistic(std::min(k_low, r)) : -inf;
  bounds.high =
      k_high < r ? order_statistic(std::min<std::int64_t>(std::max<std::int64_t>(k_high, 1) + 1, r)) : inf;
  return bounds;
}

QuantileEstimate QuantileResult::quantile(double alpha, double level) const {
  const std::int64_t r = count();
  if (r == 0) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    return {nan, nan, nan, nan};
  }
  const auto rank = std::clamp<std::int64_t>(
      static_cast<std::int64_t>(std::ceil(alpha * static_cast<double>(r))), 1, r);
  const QuantileInterval bounds = interval(alpha, level);
  QuantileEstimate est;
  est.low = bounds.low;
  est.high = bounds.high;
  est.value = order_statistic(rank);
  const double z = bm::quantile(bm::normal_distribution<double, engine::MathPolicy>(), 1.0 - (1.0 - level) / 2.0);
  est.se = (est.high - est.low) / (2.0 * z);
  return est;
}

double QuantileResult::fraction_at_most(double x) const {
  if (count() == 0) return std::numeric_limits<double>::quiet_NaN();
  const auto& sketch = store_->sketch_;
  std::int64_t hits = 0;
  if (!sketch) {
    if (std::isnan(x)) return 0.0;
    const std::span<const double> sorted = sorted_values();
    hits = std::upper_bound(sorted.begin(), sorted.end(), x) - sorted.begin();
  } else {
    for (const auto& [key, page] : sketch->pages) {
      if (!page.dense()) {
        hits += std::count_if(page.values.begin(), page.values.end(), [x](double v) { return v <= x; });
        continue;
      }
      for (std::size_t b = 0; b < kBuckets; ++b) {
        const double top = sketch->integer_keys ? integer_value(key, b) : float_bucket_high(key, b);
        if (top <= x) hits += static_cast<std::int64_t>(bucket_count(page.counts32, page.counts64, b));
      }
    }
  }
  return static_cast<double>(hits) / static_cast<double>(count());
}

double QuantileResult::fraction_equal(double x) const {
  if (count() == 0) return std::numeric_limits<double>::quiet_NaN();
  const auto& sketch = store_->sketch_;
  std::int64_t hits = 0;
  if (!sketch) {
    const std::span<const double> sorted = sorted_values();
    const auto [first, last] = std::equal_range(sorted.begin(), sorted.end(), x);
    hits = last - first;
  } else {
    const bool integers = sketch->integer_keys;
    if (integers && !is_integer_key(x)) return 0.0;
    const Slot slot = integers ? integer_slot(x) : float_slot(x);
    const auto it = sketch->pages.find(slot.page);
    if (it != sketch->pages.end()) {
      const auto& page = it->second;
      if (!page.dense()) {
        hits = std::count(page.values.begin(), page.values.end(), x);
      } else if (integers) {
        hits = static_cast<std::int64_t>(bucket_count(page.counts32, page.counts64, slot.bucket));
      } else {
        return std::numeric_limits<double>::quiet_NaN();
      }
    }
  }
  return static_cast<double>(hits) / static_cast<double>(count());
}

std::span<const double> QuantileResult::sorted_values() const {
  if (store_->sketch_) return {};
  return store_->values_;
}

}  // namespace lbmc::engine
