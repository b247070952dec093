// Bounded, mergeable storage of one variable's replications for quantiles.
//
// Up to `cap` values are kept exactly; quantiles are then empirical order
// statistics X_(⌈αR⌉) with the distribution-free interval [X_(l), X_(u)],
// l and u the binomial(R, α) quantiles at (1∓level)/2 (DESIGN §5).
//
// When a merge would pass the cap, the store turns into a histogram whose
// bins are fixed from the values held and those being merged: unit bins when
// every value is an integer and the range fits (exact for integer loads),
// else kHistogramBins equal bins spanning that range widened by half of it on
// each side, with values outside counted in under/overflow. Quantiles are
// then read by linear interpolation inside a bin (resolution: one bin width,
// stated by resolution()). Bin counts are 32-bit and are added into 64-bit
// totals before they could wrap. Memory is therefore at most
// max(8·cap, 4·kHistogramBins) bytes per store, plus 8·kHistogramBins past
// 2^32 − 1 binned values. Blocks are merged in block order, so the switch
// happens at the same point for any thread count.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace lbmc::engine {

//! An empirical quantile with its distribution-free interval. An end the
//! sample cannot bound (the interval's order statistic would lie beyond the
//! sample's extremes, or outside a histogram's range) is ∓inf.
struct QuantileEstimate {
  double value = 0.0;
  double low = 0.0;
  double high = 0.0;
  //! (high − low)/(2·z_{(1+level)/2}): the standard error implied by the
  //! interval, used for z-scores; +inf when an end is open.
  double se = 0.0;
};

//! The distribution-free interval [X_(l), X_(u)] of a quantile.
struct QuantileInterval {
  double low = 0.0;
  double high = 0.0;
};

class QuantileStore {
 public:
  static constexpr std::size_t kDefaultCap = std::size_t{1} << 24;
  static constexpr std::size_t kHistogramBins = std::size_t{1} << 20;
  static constexpr std::uint32_t kSpillEvery = 0xffffffff;

  QuantileStore() = default;
  //! `spill_every`: how many values the 32-bit bin counts take before they
  //! are added into 64-bit totals (the default keeps them from wrapping;
  //! tests use small values).
  explicit QuantileStore(std::size_t cap, std::uint32_t spill_every = kSpillEvery)
      : cap_(cap), spill_every_(spill_every) {}

  void add(double x) {
    values_.push_back(x);
    sorted_ = false;
    placed_.clear();
  }
  //! Room for `count` values, at most the cap (past it the store bins).
  void reserve(std::size_t count) { values_.reserve(count < cap_ ? count : cap_); }
  //! Room for `count` more values, to be written through the span returned.
  std::span<double> append(std::size_t count) {
    const std::size_t first = values_.size();
    values_.resize(first + count);
    sorted_ = false;
    placed_.clear();
    return std::span<double>(values_).subspan(first);
  }
  //! Appends `other` (which must still hold exact values, as block stores do).
  void merge(const QuantileStore& other);

  std::int64_t count() const noexcept;
  bool exact() const noexcept { return !binned_; }
  //! 0 when values are exact, else the histogram bin width.
  double resolution() const noexcept { return binned_ ? width_ : 0.0; }

  //! The α-quantile, inf{x : F_R(x) ≥ α}, with its interval at `level`.
  QuantileEstimate quantile(double alpha, double level) const;
  //! The order-statistic interval of the α-quantile at `level` alone, ends
  //! beyond the sample ∓inf.
  QuantileInterval interval(double alpha, double level) const;
  //! The empirical P(X <= x) and P(X == x); exact stores only count exactly.
  double fraction_at_most(double x) const;
  double fraction_equal(double x) const;
  //! Sorted values (exact stores only; empty after binning).
  const std::vector<double>& sorted_values() const;

 private:
  // Fixes the bins from the values held and `incoming`, then bins both.
  void to_histogram(std::span<const double> incoming);
  void bin(std::span<const double> xs);
  // Bins at most spill_every_ − pending_ values into the 32-bit counts.
  void bin_pending(std::span<const double> xs);
  // Adds the 32-bit counts into the 64-bit totals and clears them.
  void spill();
  // The number of values in histogram bin i.
  std::int64_t bin_count(std::size_t i) const {
    return (spilled_.empty() ? 0 : spilled_[i]) + static_cast<std::int64_t>(recent_[i]);
  }
  // The value of the r-th smallest observation, 1-based.
  double order_statistic(std::int64_t rank) const;
  // The value at 0-based `position` of the sorted exact values, found by
  // selection (O(R) for the first, less for later ones) rather than a sort.
  double select(std::size_t position) const;

  std::size_t cap_ = kDefaultCap;
  // Exact values. Quantile reads place the order statistics they need by
  // selection (positions in placed_, ascending); sorted_values() sorts all.
  mutable std::vector<double> values_;
  mutable bool sorted_ = true;
  mutable std::vector<std::size_t> placed_;
  bool binned_ = false;
  bool unit_bins_ = false;
  double origin_ = 0.0;
  double width_ = 1.0;
  // Bin counts: 32-bit ones for the values since the last spill (half the
  // memory for the random increments to touch), 64-bit totals of the rest.
  std::uint32_t spill_every_ = kSpillEvery;
  std::uint32_t pending_ = 0;
  std::vector<std::uint32_t> recent_;
  std::vector<std::int64_t> spilled_;
  std::int64_t underflow_ = 0;
  std::int64_t overflow_ = 0;
  std::int64_t binned_count_ = 0;
};

}  // namespace lbmc::engine
