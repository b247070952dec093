// Sorting many doubles on the OpenMP threads, with a result that does not
// depend on the thread count.
//
// A least-significant-digit radix sort of the doubles' bit patterns mapped
// to 64-bit words of the same order (negative numbers reversed and below the
// positive ones): eight passes of 8-bit digits, each counted per thread over a
// contiguous share of the array and scattered stably, a pass skipped when
// every word has the same digit. A stable sort of a given sequence is unique,
// so the result is the same bits for any number of threads. The order is
// that of `<` on numbers, with -0.0 before +0.0 (std::sort leaves the two
// zeros in either order) and NaNs past the infinities of their sign.
//
// Cost: O(n) (at most 8 passes, each a read to count and a read and write to
// scatter) against std::sort's O(n log n), and n extra doubles of memory
// while it runs. Short arrays go to std::sort.
#pragma once

#include <bit>
#include <cstdint>

#include "lbmc/engine/scratch_vector.hpp"

namespace lbmc::engine {

//! A double's bits as a 64-bit word of the same order: negative numbers
//! reversed and below the positive ones (-0.0 just below +0.0).
inline std::uint64_t ordered_bits(double x) {
  const auto u = std::bit_cast<std::uint64_t>(x);
  return (u >> 63) != 0 ? ~u : u | (std::uint64_t{1} << 63);
}

//! Sorts `values` ascending (see the note above for zeros and NaNs) on
//! omp_get_max_threads() threads.
void radix_sort(ScratchVector<double>& values);

}  // namespace lbmc::engine
