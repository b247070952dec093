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
//   exact search. k is the least that leaves at most 2^-6 of the draws to
//   it (Binomial(4096, 1/2): 1024 buckets, 16 KiB). A table that needs more
//   than 4096 buckets (64 KiB), or whose values pass 2^31 - 1, gets no
//   guide (empty()): its samplers search the table (NegBinomial(1000, 0.01)
//   took 1.38 times as long with 2^17 buckets).
// - prefix_sums draws the running sums of many variates in a loop that
//   calls nothing: the generator, the sum and the one bucket pointer stay
//   in registers (bench/RESULTS.md).
// - The cell found is the table's (InversionTable::locate): the same
//   variates from the same outputs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "lbmc/dist/inversion_table.hpp"
#include "lbmc/dist/portable_discrete.hpp"
#include "lbmc/dist/sampler_support.hpp"
#include "lbmc/dist/shared_array.hpp"
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
  //! u = gen() >> 1, or, where that is negative, unsettled(u, g): the
  //! caller's search from a copy g of the generator, which may draw on. The
  //! same outputs and sums as one draw at a time; the loop over the settled
  //! draws calls nothing, so that the generator, the sum and the guide stay
  //! in registers (a call in the loop would leave GCC only the callee-saved
  //! ones, and the rest on the stack).
  template <class Unsettled>
  std::int64_t prefix_sums(engine::Generator& gen, std::span<std::int64_t> y, const Unsettled& unsettled) const {
    const PortableValueGuide guide = portable();  // plain pointers, in registers
    std::int64_t sum = 0;
    std::int64_t* next = y.data();
    std::int64_t* const end = next + y.size();
    for (;;) {
      std::uint64_t u = 0;
      std::int64_t running = sum;  // the settled loop's own (GCC keeps sum, live across the call, in memory)
      for (; next != end; ++next) {
        u = gen() >> 1;
        const std::int64_t value = guide.value(u);
        if (value < 0) [[unlikely]] break;
        *next = running += value;
      }
      sum = running;
      if (next == end) return sum;
      *next++ = sum +=
          detail::with_generator_copy(gen, [&unsettled, u](engine::Generator& g) { return unsettled(u, g); });
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
  static constexpr double kMostUnsettled = 0x1p-6;
  static constexpr std::size_t kMostBuckets = 4096;

  unsigned shift_ = 63;
  SharedArray<ValueBucket> buckets_;
};

}  // namespace lbmc::dist
