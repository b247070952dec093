// The largest of n draws of a sampler that inverts one output per draw, from
// the outputs' range: the maximum of maxload's brute force at the cost of
// the generator alone, with the same outputs and the same value.
//
// Design note
// - A table sampler's variate is a monotone function of its output u (the
//   cell of u, InversionTable::locate, is non-decreasing in u, and so are the
//   cells' values, or all non-increasing for a flipped binomial). The
//   largest of n variates is therefore the variate of the largest or of the
//   smallest u: the larger of those two values, for either direction.
// - This holds while every draw takes one output: a draw in a tail (a cell
//   past the table) searches on with more outputs. Both tails lie at the
//   ends of u's range, so the range tells whether any draw fell in one
//   (InversionTable::extreme_cells); then the caller draws the n variates
//   again, one by one, from the generator as it was (a chance of about
//   n·2^-31).
// - Host and device (host_device.hpp): the samplers of the counter-based
//   stream use it. On pcg64 the table samplers take the overload beside
//   InversionTable (inversion_table.hpp), which draws the same outputs two
//   at a time (engine::Pcg64Pair); this header stays free of pcg-cpp for
//   the device's compiler.
#pragma once

#include <cstdint>

#include "lbmc/engine/host_device.hpp"

namespace lbmc::dist {

//! The smallest and the largest of a run of 63-bit uniform integers
//! (outputs >> 1, as the table samplers read them).
struct OutputRange {
  std::uint64_t low;
  std::uint64_t high;
};

//! The range of the next `count` >= 0 outputs of `gen`, each shifted right
//! by one; `count` outputs drawn.
template <class Words>
LBMC_HOST_DEVICE LBMC_FORCE_INLINE OutputRange output_range(Words& gen, std::int64_t count) noexcept {
  std::uint64_t low = ~std::uint64_t{0};
  std::uint64_t high = 0;
  for (std::int64_t i = 0; i < count; ++i) {
    const std::uint64_t x = gen();
    low = x < low ? x : low;
    high = x > high ? x : high;
  }
  return {low >> 1, high >> 1};
}

}  // namespace lbmc::dist
