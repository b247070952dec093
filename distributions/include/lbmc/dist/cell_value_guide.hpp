// A second guide over an inversion table that hands back the value of the
// cell a draw falls in, for the integer laws' table samplers.
//
// Design note
// - Each bucket of 2^k equal ranges of u (k >= 10) stores the first cell
//   whose threshold exceeds the bucket's start and that threshold, its cut,
//   side by side: the cell of u is first + (u >= cut) whenever the bucket
//   holds at most one threshold. A draw takes two independent loads and a
//   compare, then one load of the cell's value, where InversionTable::locate
//   chains the guide, two or three thresholds and the value: 0.80-0.88 of
//   the time of the Poisson and binomial maxload and maxshift kernels
//   (bench/RESULTS.md).
// - A bucket holding two thresholds or more (in the tails) points at cell 0,
//   the lower tail, whose value is negative: the caller then takes the
//   table's exact search. k is the least that leaves at most 2^-6
//   of the draws to it (Binomial(4096, 1/2): 1024 buckets, 12 KiB, timed
//   alike with the 2048 that 2^-7 would take). A table that needs more than
//   4096 buckets (48 KiB) gets no guide (empty()): its cells are too many
//   and too narrow for one cut a bucket, and its samplers search the table
//   (NegBinomial(1000, 0.01) took 1.38 times as long with 2^17 buckets).
// - The cell found is the table's (InversionTable::locate): the same
//   variates from the same outputs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "lbmc/dist/inversion_table.hpp"
#include "lbmc/dist/portable_discrete.hpp"
#include "lbmc/dist/shared_array.hpp"

namespace lbmc::dist {

//! The values of an inversion table's cells, found by a one-cut guide.
class CellValueGuide {
 public:
  //! An empty guide; assign a built one before calling value.
  CellValueGuide() = default;
  //! `values[i]`: the value of cell i of `table` (i = 0 .. size + 1); a
  //! negative value marks a cell the caller resolves itself (a tail), and
  //! cell 0 must be marked. The guide shares the array with the caller.
  CellValueGuide(const InversionTable& table, SharedArray<std::int64_t> values);

  //! The value of the cell of the 63-bit uniform integer u, or a negative
  //! number: a marked cell, or a draw that needs the table's search.
  std::int64_t value(std::uint64_t u) const noexcept {
    const auto bucket = static_cast<std::size_t>(u >> shift_);
    return values_[first_[bucket] + static_cast<std::size_t>(u >= cut_[bucket])];
  }
  //! Whether the table was too wide for a guide (or none was built):
  //! value() must not be called then.
  bool empty() const noexcept { return cut_.empty(); }
  //! The guide's data, as the samplers of the counter-based stream read it
  //! (none when empty()).
  PortableValueGuide portable() const noexcept {
    if (empty()) return {};
    return {cut_.data(), first_.data(), values_.data(), static_cast<std::uint32_t>(cut_.size()),
            static_cast<std::uint32_t>(values_.size()), shift_};
  }
  //! The number of buckets (a power of two from 1024 to 4096), 0 if empty().
  std::size_t buckets() const noexcept { return cut_.size(); }

 private:
  static constexpr double kMostUnsettled = 0x1p-6;
  static constexpr std::size_t kMostBuckets = 4096;

  unsigned shift_ = 63;
  SharedArray<std::uint64_t> cut_;    // the first cell's threshold, or 2^63
  SharedArray<std::uint32_t> first_;  // the first cell, or the unsettled cell
  SharedArray<std::int64_t> values_;  // the cells' values (the caller's array)
};

}  // namespace lbmc::dist
