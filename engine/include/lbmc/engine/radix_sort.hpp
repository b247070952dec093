// Radix sorts: one implementation of the stable least-significant-digit
// passes (counting, places, a stable scatter), used alone and inside the
// parallel sort of doubles.
//
// Each value has a 64-bit key, and the sort orders the values by some of
// the key's bits, read as digits: kPasses digits of kDigitBits bits from
// bit kLowBit up (RadixDigits). A pass counts each digit, turns the counts
// into the first place of each digit, and moves the values there in order
// (a stable scatter), through a second buffer of the same size. A pass
// whose digit is the same for every value is skipped: nothing would move.
// A stable sort of a given sequence is unique, so either form gives the
// same bits for any thread count or schedule of passes.
//  - radix_sort_serial: on the calling thread, for buffers the caller
//    keeps. The counts of every pass are taken in one read before the first
//    pass (a digit's count does not depend on the order of the values), in
//    two tables, one for even and one for odd positions, added up after:
//    values that share a digit (an exponent's, for most laws) would
//    otherwise chain their increments of one counter through memory (1.6x
//    as long). compare's lpt sorts one word per task, a key above a task
//    index, by 3 digits of 10 bits (11-bit digits were slower, their
//    scatter missing the caches); counting its passes one by one, after a
//    read that finds the digits that vary, made lpt 1.02x slower.
//  - radix_sort (doubles): on the OpenMP threads. The keys are the
//    doubles' bits mapped to words of the same order (ordered_bits:
//    negative numbers reversed and below the positive ones); the order is
//    that of `<` on numbers, with -0.0 before +0.0 (std::sort leaves the two
//    zeros in either order) and NaNs past the infinities of their sign.
//    One pass moves the values by their top 12 varying bits into 4096
//    buckets (each thread counting and moving a contiguous share, the
//    places digit by digit and thread by thread), then each bucket is
//    sorted by radix_sort_serial while it sits in the core's cache, the
//    buckets shared among the threads. Sorting 1.7e7 maxima of normal
//    loads on one thread, the 7 digits they vary in sorted one after the
//    other through memory (each pass reading and writing 134 MB) took 32 ns
//    a value against 15. Short arrays go to std::sort.
// Cost: O(n) (reads to count, then a read and a write a pass taken)
// against std::sort's O(n log n), and n more values of memory while it
// runs.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

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

//! The digits a radix sort reads: kPasses digits of kDigitBits bits, the
//! first (least significant) at bit kLowBit of the key.
template <int kDigitBits, int kLowBit, int kPasses>
struct RadixDigits {
  static_assert(kDigitBits > 0 && kLowBit >= 0 && kPasses > 0 && kLowBit + kDigitBits * (kPasses - 1) < 64);
  static constexpr int kPassCount = kPasses;
  static constexpr std::size_t kBuckets = std::size_t{1} << kDigitBits;
  //! Counts of one pass, then of the next: a table of every pass's counts.
  static constexpr std::size_t kTable = kBuckets * kPasses;
  static std::size_t digit(std::uint64_t key, int pass) {
    return static_cast<std::size_t>(key >> (kLowBit + kDigitBits * pass)) & (kBuckets - 1);
  }
};

namespace radix_detail {

// The counts of every pass's digits of values[0, n) into `table` (kTable
// counts, zeroed here), through `odd` (kTable more) for the odd positions.
template <class Digits, class T, class Key, class Count>
void count_every_pass(const T* values, std::size_t n, Key key, Count* table, Count* odd) {
  std::fill(table, table + Digits::kTable, Count{0});
  std::fill(odd, odd + Digits::kTable, Count{0});
  // Every pass's digit by a shift known when compiled.
  const auto tally = [&]<int... kPass>(std::integer_sequence<int, kPass...>, Count* counts, const T& value) {
    const std::uint64_t k = key(value);
    ((++counts[static_cast<std::size_t>(kPass) * Digits::kBuckets + Digits::digit(k, kPass)]), ...);
  };
  constexpr auto kPasses = std::make_integer_sequence<int, Digits::kPassCount>{};
  std::size_t i = 0;
  for (; i + 1 < n; i += 2) {
    tally(kPasses, table, values[i]);
    tally(kPasses, odd, values[i + 1]);
  }
  if (i < n) tally(kPasses, table, values[i]);
  for (std::size_t d = 0; d < Digits::kTable; ++d) table[d] += odd[d];
}

// Moves from[0, n) to their places in `to` by the pass's digit, `next`
// holding the place of each digit's next value (advanced here).
template <class Digits, class T, class Key, class Count>
void scatter(const T* from, T* to, std::size_t n, Key key, int pass, Count* next) {
  for (std::size_t i = 0; i < n; ++i) to[next[Digits::digit(key(from[i]), pass)]++] = from[i];
}

}  // namespace radix_detail

//! Sorts values[0, n) stably by the digits of key(value) (Digits, a
//! RadixDigits) on the calling thread, through `scratch` (n values) and
//! `counts` (resized here; kept by the caller so that repeated sorts do not
//! allocate). Count must hold n.
template <class Digits, class T, class Key, class Count>
void radix_sort_serial(T* values, T* scratch, std::size_t n, Key key, std::vector<Count>& counts) {
  if (n == 0) return;
  counts.resize(2 * Digits::kTable);
  radix_detail::count_every_pass<Digits>(values, n, key, counts.data(), counts.data() + Digits::kTable);
  T* from = values;
  T* to = scratch;
  for (int pass = 0; pass < Digits::kPassCount; ++pass) {
    Count* next = counts.data() + static_cast<std::size_t>(pass) * Digits::kBuckets;
    if (next[Digits::digit(key(from[0]), pass)] == n) continue;  // one digit: nothing moves
    Count place = 0;
    for (std::size_t d = 0; d < Digits::kBuckets; ++d) {
      const Count c = next[d];
      next[d] = place;
      place += c;
    }
    radix_detail::scatter<Digits>(from, to, n, key, pass, next);
    std::swap(from, to);
  }
  if (from != values) std::copy(from, from + n, values);
}

}  // namespace lbmc::engine
