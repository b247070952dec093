// A second guide over an inversion table that hands back the value of the
// cell a draw falls in, for the integer laws' table samplers.
//
// Design note
// - Each bucket of 2^k equal ranges of u (k >= 10) holding at most one
//   threshold stores that threshold, its cut, and the values of the cells
//   on either side of it, in 16 bytes (ValueBucket, portable_discrete.hpp):
//   the value of u is value[u >= cut]. A draw takes one load of a bucket,
//   a compare and one load from the same line, where InversionTable::locate
//   chains the guide, two or three thresholds and the value.
// - A bucket holding two thresholds or more (in the tails), and the side of
//   a cut that lies in a tail, hold -1: the caller then takes the table's
//   exact search. k is the least that leaves at most 2^-8 of the draws to
//   it, or else 2^-6 (Poisson(10): 1024 buckets, 16 KiB; Binomial(4096,
//   1/2): 4096 buckets, 64 KiB, where 1024 left it 2^-6 and its running
//   sums took 1.1 times as long). A table that needs more than 4096 buckets
//   for 2^-6, or whose values pass 2^31 - 1, gets no guide (empty()): its
//   samplers search the table (NegBinomial(1000, 0.01) took 1.38 times as
//   long with 2^17 buckets).
// - prefix_sums draws the running sums of many variates two outputs at a
//   time (engine::Pcg64Pair: two chains of the generator's state, half the
//   dependent steps), in a loop that calls nothing: both chains, the sum
//   and the one bucket pointer stay in registers (bench/RESULTS.md). A pair
//   with an unsettled draw leaves the loop for the table's search, which
//   draws nothing, and the loop goes on from the same pair; only a tail
//   cell's search, which draws on, restarts the pair from the generator.
// - The cell found is the table's (InversionTable::locate): the same
//   variates from the same outputs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "lbmc/dist/inversion_table.hpp"
#include "lbmc/dist/paired_draws.hpp"
#include "lbmc/dist/portable_discrete.hpp"
#include "lbmc/dist/sampler_support.hpp"
#include "lbmc/dist/shared_array.hpp"
#include "lbmc/engine/pcg64_pair.hpp"
#include "lbmc/engine/rng.hpp"

namespace lbmc::dist {

//! The values of an inversion table's cells, found by a one-cut guide.
class CellValueGuide {
 public:
  //! An empty guide; assign a built one before calling value.
  CellValueGuide() = default;
  //! `values[i]`: the value of cell i of `table` (i = 0 .. size + 1); a
  //! negative value marks a cell the caller resolves itself (a tail), and
  //! cell 0 must be marked.
  CellValueGuide(const InversionTable& table, const SharedArray<std::int64_t>& values);

  //! The value of the cell of the 63-bit uniform integer u, or a negative
  //! number: a marked cell, or a draw that needs the table's search.
  std::int64_t value(std::uint64_t u) const noexcept { return portable().value(u); }
  //! The running sums of the next y.size() draws into y; returns the last
  //! (0 when y is empty). A draw's value is value(u) of its output
  //! u = gen() >> 1; where that is negative, search(u), the table's search,
  //! which draws nothing; where that is negative too (a tail cell),
  //! tail(u, g), which draws on from a copy g of the generator. The same
  //! outputs and sums as one draw at a time (detail::guided_prefix_sums,
  //! paired_draws.hpp).
  template <class Search, class Tail>
  std::int64_t prefix_sums(engine::Generator& gen, std::span<std::int64_t> y, const Search& search,
                           const Tail& tail) const {
    // The bucket shift as a constant frees the register a variable shift
    // count takes (and the loop has none to spare).
    static_assert(kMostBuckets == 4096, "a shift for each guide size, 1024 to kMostBuckets buckets");
    switch (shift_) {
      case kShiftOf1024: return prefix_sums_by<kShiftOf1024>(gen, y, search, tail);
      case kShiftOf1024 - 1: return prefix_sums_by<kShiftOf1024 - 1>(gen, y, search, tail);
      default: return prefix_sums_by<kShiftOf1024 - 2>(gen, y, search, tail);
    }
  }
  //! Whether the table was too wide for a guide (or none was built):
  //! value() must not be called then.
  bool empty() const noexcept { return buckets_.empty(); }
  //! The guide's data, as the samplers of the counter-based stream read it
  //! (null buckets when empty()).
  PortableValueGuide portable() const noexcept {
    return {buckets_.data(), static_cast<std::uint32_t>(buckets_.size()), shift_};
  }
  //! The number of buckets (a power of two from 1024 to 4096), 0 if empty().
  std::size_t buckets() const noexcept { return buckets_.size(); }

 private:
  static constexpr double kFewUnsettled = 0x1p-8;
  static constexpr double kMostUnsettled = 0x1p-6;
  static constexpr std::size_t kMostBuckets = 4096;
  static constexpr unsigned kShiftOf1024 = 53;  // the shift of the fewest buckets

  // prefix_sums for a guide of 2^(63 - Shift) buckets. Out of line: in its
  // own frame the loop has every register (a kernel's body holds the frame
  // pointer and more), and the generator is read and written once a call.
  template <unsigned Shift, class Search, class Tail>
  [[gnu::noinline]] std::int64_t prefix_sums_by(engine::Generator& gen, std::span<std::int64_t> y,
                                                const Search& search, const Tail& tail) const {
    const ValueBucket* const buckets = buckets_.data();  // in a register
    const auto value = [buckets](std::uint64_t u) {
      const ValueBucket& bucket = buckets[u >> Shift];
      return static_cast<std::int64_t>(bucket.value[u >= bucket.cut ? 1 : 0]);
    };
    return detail::guided_prefix_sums(gen, y, value, search, tail);
  }

  unsigned shift_ = 63;
  SharedArray<ValueBucket> buckets_;
};

}  // namespace lbmc::dist
