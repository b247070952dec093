// Quantile store: exact order statistics, or a histogram past the cap.
#include "lbmc/engine/quantile_store.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <boost/math/distributions/binomial.hpp>
#include <boost/math/distributions/normal.hpp>

#include "lbmc/engine/errors.hpp"
#include "lbmc/engine/math_policy.hpp"

namespace lbmc::engine {
namespace {

namespace bm = boost::math;

// The smallest k with P(Bin(R, α) <= k) >= prob.
std::int64_t binomial_count(std::int64_t count, double alpha, double prob) {
  const bm::binomial_distribution<double, engine::MathPolicy> b(static_cast<double>(count), alpha);
  return static_cast<std::int64_t>(bm::quantile(b, prob));
}

// x == ⌊x⌋ without the library call: every double of magnitude 2^52 or more
// (and ±inf) is an integer; below that the conversion to int64 truncates.
bool is_integer(double x) {
  if (!(std::abs(x) < 0x1p52)) return !std::isnan(x);
  return x == static_cast<double>(static_cast<std::int64_t>(x));
}

}  // namespace

void QuantileStore::merge(const QuantileStore& other) {
  if (!other.exact()) throw RuntimeFailure("internal: merging a binned quantile store");
  if (binned_) {
    bin(other.values_);
    return;
  }
  if (values_.size() + other.values_.size() > cap_) {
    to_histogram(other.values_);  // without first growing the exact buffer past the cap
    return;
  }
  values_.insert(values_.end(), other.values_.begin(), other.values_.end());
  sorted_ = false;
  placed_.clear();
}

std::int64_t QuantileStore::count() const noexcept {
  return binned_ ? binned_count_ : static_cast<std::int64_t>(values_.size());
}

void QuantileStore::to_histogram(std::span<const double> incoming) {
  // The range and integrality of the values held and those arriving, with a
  // branch-free min and max (std::minmax_element branches on every value).
  double lo = std::numeric_limits<double>::infinity();
  double hi = -lo;
  bool integers = true;
  for (const std::span<const double> part : {std::span<const double>(values_), incoming}) {
    for (const double x : part) {
      lo = std::min(lo, x);
      hi = std::max(hi, x);
    }
    integers = integers && std::all_of(part.begin(), part.end(), is_integer);
  }
  if (integers && hi - lo < static_cast<double>(kHistogramBins) / 2) {
    // Unit bins centred on the integers: exact counts of every value seen,
    // with room for a range twice as wide as the one seen so far.
    const double spare = std::floor((static_cast<double>(kHistogramBins) - (hi - lo)) / 2);
    origin_ = lo - spare - 0.5;
    width_ = 1.0;
    unit_bins_ = true;
  } else {
    const double span = hi > lo ? hi - lo : std::max(1.0, std::abs(lo));
    origin_ = lo - span / 2;
    width_ = 2 * span / static_cast<double>(kHistogramBins);
  }
  recent_.assign(kHistogramBins, 0);
  binned_ = true;
  std::vector<double> held;
  held.swap(values_);
  bin(held);
  bin(incoming);
}

void QuantileStore::bin(std::span<const double> xs) {
  while (!xs.empty()) {
    if (pending_ == spill_every_) spill();
    const std::size_t take = std::min<std::size_t>(xs.size(), spill_every_ - pending_);
    bin_pending(xs.first(take));
    pending_ += static_cast<std::uint32_t>(take);
    xs = xs.subspan(take);
  }
}

void QuantileStore::bin_pending(std::span<const double> xs) {
  // Counters and bin geometry in locals: stores through the counts could
  // otherwise alias the members, and every count would make a round trip
  // through memory.
  std::uint32_t* const counts = recent_.data();
  const double size = static_cast<double>(recent_.size());
  const double origin = origin_;
  const double per_width = 1.0 / width_;
  std::int64_t under = 0;
  std::int64_t over = 0;
  for (const double x : xs) {
    // The bin is ⌊pos⌋; for 0 <= pos < size the conversion truncates to it
    // (std::floor would be a library call on baseline x86-64).
    const double pos = (x - origin) * per_width;
    if (pos < 0) {
      ++under;
    } else if (pos >= size) {
      ++over;
    } else {
      ++counts[static_cast<std::size_t>(pos)];
    }
  }
  underflow_ += under;
  overflow_ += over;
  binned_count_ += static_cast<std::int64_t>(xs.size());
}

void QuantileStore::spill() {
  if (spilled_.empty()) spilled_.assign(recent_.size(), 0);
  for (std::size_t i = 0; i < recent_.size(); ++i) spilled_[i] += recent_[i];
  std::fill(recent_.begin(), recent_.end(), 0);
  pending_ = 0;
}

double QuantileStore::order_statistic(std::int64_t rank) const {
  if (!binned_) return select(static_cast<std::size_t>(rank - 1));
  if (rank <= underflow_ || rank > binned_count_ - overflow_) {
    return std::numeric_limits<double>::quiet_NaN();  // outside the histogram's range
  }
  std::int64_t below = underflow_;
  for (std::size_t i = 0; i < recent_.size(); ++i) {
    const std::int64_t here = bin_count(i);
    if (below + here >= rank) {
      const double left = origin_ + width_ * static_cast<double>(i);
      if (unit_bins_) return left + 0.5;  // the integer this bin holds
      const double within = static_cast<double>(rank - below) / static_cast<double>(here);
      return left + width_ * within;
    }
    below += here;
  }
  return std::numeric_limits<double>::quiet_NaN();
}

QuantileInterval QuantileStore::interval(double alpha, double level) const {
  const std::int64_t r = count();
  const double inf = std::numeric_limits<double>::infinity();
  if (r == 0) return {-inf, inf};
  const double tail = (1.0 - level) / 2.0;
  // X_(l) <= q_α <= X_(u) with probability >= level for l = k_low and
  // u = k_high + 1 (P(Bin <= l − 1) < tail, P(Bin <= u − 1) >= 1 − tail).
  // With l = 0 or u = R + 1 the bound is beyond the sample: that end is open.
  const std::int64_t k_low = binomial_count(r, alpha, tail);
  const std::int64_t k_high = binomial_count(r, alpha, 1.0 - tail);
  // Lowest rank first: each later selection then works only on the values
  // above the last one placed.
  QuantileInterval interval;
  interval.low = k_low >= 1 ? order_statistic(std::min(k_low, r)) : -inf;
  interval.high =
      k_high < r ? order_statistic(std::min<std::int64_t>(std::max<std::int64_t>(k_high, 1) + 1, r)) : inf;
  if (std::isnan(interval.low)) interval.low = -inf;  // outside a histogram's range
  if (std::isnan(interval.high)) interval.high = inf;
  return interval;
}

QuantileEstimate QuantileStore::quantile(double alpha, double level) const {
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

double QuantileStore::fraction_at_most(double x) const {
  if (count() == 0) return std::numeric_limits<double>::quiet_NaN();
  std::int64_t hits = 0;
  if (!binned_) {
    hits = std::count_if(values_.begin(), values_.end(), [x](double v) { return v <= x; });
  } else {
    hits = underflow_;
    for (std::size_t i = 0; i < recent_.size(); ++i) {
      if (origin_ + width_ * static_cast<double>(i + 1) <= x) hits += bin_count(i);
    }
  }
  return static_cast<double>(hits) / static_cast<double>(count());
}

double QuantileStore::fraction_equal(double x) const {
  if (count() == 0) return std::numeric_limits<double>::quiet_NaN();
  std::int64_t hits = 0;
  if (!binned_) {
    hits = std::count(values_.begin(), values_.end(), x);
  } else if (unit_bins_) {
    const double pos = std::floor(x - origin_);
    if (pos >= 0 && pos < static_cast<double>(recent_.size())) hits = bin_count(static_cast<std::size_t>(pos));
  } else {
    return std::numeric_limits<double>::quiet_NaN();
  }
  return static_cast<double>(hits) / static_cast<double>(count());
}

double QuantileStore::select(std::size_t position) const {
  if (sorted_) return values_[position];
  // Between the nearest positions already placed lie exactly the values of
  // those ranks, so selecting within that range places `position` too.
  const auto next = std::lower_bound(placed_.begin(), placed_.end(), position);
  if (next != placed_.end() && *next == position) return values_[position];
  const std::size_t lo = next == placed_.begin() ? 0 : *(next - 1) + 1;
  const std::size_t hi = next == placed_.end() ? values_.size() : *next;
  const auto begin = values_.begin();
  std::nth_element(begin + static_cast<std::ptrdiff_t>(lo), begin + static_cast<std::ptrdiff_t>(position),
                   begin + static_cast<std::ptrdiff_t>(hi));
  placed_.insert(next, position);
  return values_[position];
}

const std::vector<double>& QuantileStore::sorted_values() const {
  if (!sorted_) {
    std::sort(values_.begin(), values_.end());
    sorted_ = true;
  }
  return values_;
}

}  // namespace lbmc::engine
