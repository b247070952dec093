// Inversion of a discrete law on a finite range of integers by a table of
// cumulative 63-bit integer thresholds with a Chen & Asau (1974) guide table:
// the table path of the Poisson and binomial samplers and of the direct
// maximum of integer loads.
//
// The guide and the few thresholds next to the centre are the search's data
// (the integer laws' samplers settle most draws with a value guide first,
// cell_value_guide.hpp, and search the rest). With 2^k >= 2 (cells + 2)
// buckets, at least 1024, the guides of Poisson(10) and Binomial(4096, 1/2)
// (36 and 399 cells) are 4 KiB, beside 0.3 and 3.2 KiB of thresholds: a
// quarter of the 16 KiB guides of 4096 buckets. A bucket
// holding more than two thresholds (in the tails) is bisected up to the next
// bucket's first cell. A wide table gets fewer buckets, as long as at most
// 2^-8 of the draws are bisected: every bucket is drawn from, while most of
// such a table's cells hardly ever are (NegBinomial(1000, 0.01): 121 000
// cells, 131 072 buckets where 2 (cells + 2) would give 262 144, a guide of
// 512 KiB instead of 1 MiB). The cell found is the same for any guide.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "lbmc/dist/output_range.hpp"
#include "lbmc/dist/portable_discrete.hpp"
#include "lbmc/dist/shared_array.hpp"
#include "lbmc/engine/rng.hpp"

namespace lbmc::dist {

//! output_range on pcg64: its outputs two at a time (engine::Pcg64Pair),
//! the same outputs and the same range in about half the dependent steps.
OutputRange output_range(engine::Generator& gen, std::int64_t count) noexcept;

//! Inversion table (cumulative 63-bit thresholds) with a Chen & Asau guide.
//! Cell 0 is "below the table", cells 1..n the values lo..lo+n-1, cell n+1
//! "above the table".
class InversionTable {
 public:
  //! 2^63: the end of the range of u and the last threshold.
  static constexpr std::uint64_t kTop = std::uint64_t{1} << 63;

  //! An empty table (size 0); assign a built one before calling locate.
  InversionTable() = default;
  //! `probs[j]` = P(X = lo + j); `below` = P(X < lo); `above` = P(X > lo + n - 1).
  InversionTable(double lo, std::span<const double> probs, double below, double above);
  //! From integer widths already quantized: `widths` = [below, cell 1, ...,
  //! cell n, above], at least 3 of them, summing to 2^63 (any may be 0).
  InversionTable(double lo, const std::vector<std::uint64_t>& widths);

  //! The cell of the 63-bit uniform integer u: smallest i with u < threshold_i.
  std::size_t locate(std::uint64_t u) const noexcept {
    const auto bucket = static_cast<std::size_t>(u >> shift_);
    const std::uint64_t* thr = thresholds_.data();
    std::size_t i = guide_[bucket];
    i += static_cast<std::size_t>(u >= thr[i]);  // branch-free: most searches end here
    i += static_cast<std::size_t>(u >= thr[i]);
    if (u >= thr[i]) [[unlikely]] i = bisect(i, bucket, u);
    return i;
  }
  //! Whether every u of `range` falls in a table cell (1..n), none in a
  //! tail (output_range.hpp).
  bool inside(const OutputRange& range) const noexcept {
    return range.low >= thresholds_[0] && range.high < thresholds_[n_];
  }
  //! The cells (smallest, largest) of the next `count` >= 1 draws by
  //! inversion of gen's outputs, from their range (output_range.hpp), gen
  //! then past them; or nothing, gen as it was, when a draw falls in a tail,
  //! whose search the caller makes draw by draw.
  template <class Gen>
  std::optional<std::pair<std::size_t, std::size_t>> extreme_cells(Gen& gen, std::int64_t count) const {
    Gen local = gen;
    const OutputRange range = output_range(local, count);
    if (!inside(range)) [[unlikely]] return std::nullopt;
    gen = local;
    return std::pair{locate(range.low), locate(range.high)};
  }
  //! The search data, as the samplers of the counter-based stream read them.
  PortableInversion portable() const noexcept {
    return {thresholds_.data(), guide_.data(), static_cast<std::uint32_t>(n_),
            static_cast<std::uint32_t>(guide_.size() - 1), shift_};
  }
  //! The value of cell 1.
  double lo() const noexcept { return lo_; }
  //! The number n of table cells (values lo .. lo + n - 1).
  std::size_t size() const noexcept { return n_; }
  //! P(X < lo), as given.
  double below() const noexcept { return below_; }
  //! P(X > lo + n - 1), as given.
  double above() const noexcept { return above_; }
  //! The guide's buckets (a power of two, at least 1024).
  std::size_t buckets() const noexcept { return guide_.size() - 1; }
  //! thresholds[i] = 2^63 · P(cell < i+1), quantized; thresholds[n+1] = 2^63.
  const std::vector<std::uint64_t>& thresholds() const noexcept { return thresholds_.vector(); }

 private:
  void build_guide();  // from thresholds_
  // A bucket of many thresholds (a tail's): the cell of u from i on, found by
  // bisection up to the next bucket's first cell, whose threshold exceeds
  // every u of this bucket. Out of line: it keeps locate small.
  [[gnu::noinline, gnu::cold]] std::size_t bisect(std::size_t i, std::size_t bucket, std::uint64_t u) const noexcept;
  // The share of draws (of 2^63) that a guide of `buckets` buckets would bisect.
  double bisected_share(std::size_t buckets) const noexcept;
  static constexpr double kMostBisected = 0x1p-8;

  double lo_ = 0.0;
  double below_ = 0.0;
  double above_ = 0.0;
  std::size_t n_ = 0;
  unsigned shift_ = 63;
  SharedArray<std::uint64_t> thresholds_;  // shared by the table's copies
  SharedArray<std::uint32_t> guide_;
};

}  // namespace lbmc::dist
